"""The scoring engine. It runs on the compiled JSON model, exactly what the browser receives.

:mod:`rulesite.scoring.compiler` turns a validated calculator into that model; ``score``
evaluates it. ``templates/theme/assets/calculator.js`` implements ``score`` again, step for step,
for the page; the worked examples and random inputs check that both agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesite.scoring.expr import Tree, evaluate

Model = dict[str, Any]
"""A compiled calculator: plain JSON (see :mod:`rulesite.scoring.compiler`)."""

FLOOR_TERM = "floor"
"""Breakdown key of the adjustment that lifts a total up to the calculator's floor."""


@dataclass
class PlayerScore:
    """One player's result."""

    name: str
    total: int
    breakdown: dict[str, int]
    rank: int = 0


@dataclass
class Result:
    """The outcome of a game's scoring."""

    players: list[PlayerScore]
    winners: list[str]
    outcome: str
    """single (clear winner), tiebreak (decided by tie-breakers), shared, undecided."""
    decided_by: list[int] = field(default_factory=list)
    """Indexes of the tie-breakers that narrowed the tie for first, in order."""

    def as_json(self) -> dict[str, Any]:
        return {
            "players": [
                {"name": p.name, "total": p.total, "breakdown": p.breakdown, "rank": p.rank}
                for p in self.players
            ],
            "winners": self.winners,
            "outcome": self.outcome,
            "decided_by": self.decided_by,
        }


def setting_flags(settings: Mapping[str, str], model: Model) -> dict[str, int]:
    """``<setting>_<option>`` = 1 for the chosen option, 0 for the others."""
    flags = {}
    for setting in model["settings"]:
        chosen = settings.get(setting["id"], setting["default"])
        for option in setting["options"]:
            flags[f"{setting['id']}_{option}"] = int(option == chosen)
    return flags


def score(
    model: Model,
    players: Sequence[Mapping[str, Any]],
    settings: Mapping[str, str] | None = None,
) -> Result:
    """Score checked input (see :func:`rulesite.scoring.inputs.check`); players keep their order."""
    count = len(players)
    flags = setting_flags(settings or {}, model)
    envs = [
        {
            **flags,
            "players": count,
            **{i["id"]: int(p.get(i["id"], 0)) for i in model["inputs"]},
        }
        for p in players
    ]
    terms = {t["id"]: t for t in model["terms"]}
    breakdowns: list[dict[str, int]] = [{} for _ in players]
    for term_id in model["order"]:
        term = terms[term_id]
        active = "players" not in term or term["players"][0] <= count <= term["players"][1]
        values = _term_values(term, envs) if active else [0] * count
        for env, breakdown, value in zip(envs, breakdowns, values, strict=True):
            env[term_id] = value
            if active:
                breakdown[term_id] = value
    scores = []
    for index, (player, breakdown) in enumerate(zip(players, breakdowns, strict=True)):
        total = sum(breakdown.values())
        floor = model["total_min"]
        if floor is not None and total < floor:
            breakdown[FLOOR_TERM] = floor - total
            total = floor
        scores.append(PlayerScore(str(player.get("name") or f"#{index + 1}"), total, breakdown))
    return _rank(model, scores, envs)


def _term_values(term: dict[str, Any], envs: list[dict[str, int]]) -> list[int]:
    kind = term["kind"]
    if kind == "formula":
        return [evaluate(term["tree"], env) for env in envs]
    if kind == "fewer":
        amounts = [evaluate(term["tree"], env) for env in envs]
        return [sum(1 for other in amounts if other < mine) for mine in amounts]
    if kind == "rank":
        amounts = [evaluate(term["tree"], env) for env in envs]
        return rank_awards(amounts, award_points(term["awards"], len(envs)), term["tie"])
    return rarity_points(term, envs)


def award_points(tables: list[dict[str, Any]], count: int) -> list[int]:
    """Points by place for ``count`` players (the first table that covers it)."""
    for table in tables:
        if table["players"][0] <= count <= table["players"][1]:
            return table["points"]
    return []


def rank_awards(amounts: list[int], points: list[int], tie: str) -> list[int]:
    """Award ``points`` by place, more first; ties handled by ``tie`` (split, none, full)."""
    result = []
    for mine in amounts:
        place = sum(1 for other in amounts if other > mine)  # places taken by better players
        tied = sum(1 for other in amounts if other == mine)
        occupied = [points[p] if p < len(points) else 0 for p in range(place, place + tied)]
        if tied == 1:
            result.append(occupied[0])
        elif tie == "split":
            result.append(sum(occupied) // tied)
        elif tie == "full":
            result.append(occupied[0])
        else:
            result.append(0)
    return result


def rarity_points(term: dict[str, Any], envs: list[dict[str, int]]) -> list[int]:
    """Each good is worth its kind's value; kinds ranked from most to least collected overall,
    equal totals ordered by ``rarer_on_tie`` (rarest first, so it counts as rarer)."""
    totals = {kind: sum(env[kind] for env in envs) for kind in term["kinds"]}
    rarest_first = term["rarer_on_tie"]
    common_first = sorted(term["kinds"], key=lambda k: (-totals[k], -rarest_first.index(k)))
    value = dict(zip(common_first, term["values"], strict=True))
    return [sum(env[kind] * value[kind] for kind in term["kinds"]) for env in envs]


def _rank(model: Model, scores: list[PlayerScore], envs: list[dict[str, int]]) -> Result:
    breakers: list[tuple[Tree, int]] = [
        (tb["by"], 1 if tb["prefer"] == "higher" else -1) for tb in model["tiebreakers"]
    ]
    keys = [
        (s.total, *[sign * evaluate(tree, env) for tree, sign in breakers])
        for s, env in zip(scores, envs, strict=True)
    ]
    for score_, key in zip(scores, keys, strict=True):
        score_.rank = 1 + sum(1 for other in keys if other > key)
    best_total = max(s.total for s in scores)
    candidates = [i for i, s in enumerate(scores) if s.total == best_total]
    decided_by = []
    for position in range(len(breakers)):
        if len(candidates) == 1:
            break
        best = max(keys[i][position + 1] for i in candidates)
        narrowed = [i for i in candidates if keys[i][position + 1] == best]
        if len(narrowed) < len(candidates):
            decided_by.append(position)
        candidates = narrowed
    if len(candidates) > 1:
        outcome = model["when_tied"]
    else:
        outcome = "tiebreak" if decided_by else "single"
    return Result(scores, [scores[i].name for i in candidates], outcome, decided_by)
