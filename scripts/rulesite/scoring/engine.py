"""The scoring engine. It runs on the compiled JSON model, exactly what the browser receives.

:mod:`rulesite.scoring.compiler` turns a validated calculator into that model (its shape is
:mod:`rulesite.scoring.schema`); ``score`` evaluates it.
``templates/theme/assets/scoring-engine.js`` is the same engine for the page and for Node; the
shared vectors (``tests/data/scoring-vectors.json``) hold both to the same results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesite.model.lines import LINE_KINDS
from rulesite.scoring.expr import Tree, evaluate

Model = dict[str, Any]
"""A compiled calculator: plain JSON (see :mod:`rulesite.scoring.compiler`)."""
Term = dict[str, Any]
"""One compiled line of a model."""

FLOOR_TERM = "floor"
"""Breakdown key of the adjustment that lifts a total up to the calculator's floor."""


@dataclass
class PlayerScore:
    """One player's result."""

    name: str
    total: int
    breakdown: dict[str, int]
    """Points of each line that applies (and ``floor``): they add up to the total."""
    helpers: dict[str, int] = field(default_factory=dict)
    """Shown helper values: never added to the total."""
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
                {
                    "name": p.name,
                    "total": p.total,
                    "breakdown": p.breakdown,
                    "helpers": p.helpers,
                    "rank": p.rank,
                }
                for p in self.players
            ],
            "winners": self.winners,
            "outcome": self.outcome,
            "decided_by": self.decided_by,
        }


def setting_flags(settings: Mapping[str, Any], model: Model) -> dict[str, int]:
    """The names settings give formulas: ``<setting>_<option>`` = 1 for the chosen option and 0
    for the others; a yes/no setting is its own name, 1 for yes."""
    flags = {}
    for setting in model["settings"]:
        chosen = settings.get(setting["id"], setting["default"])
        if setting["kind"] == "yes_no":
            flags[setting["id"]] = int(chosen is True)
            continue
        for option in setting["options"]:
            flags[f"{setting['id']}_{option}"] = int(option == chosen)
    return flags


def missing_value(spec: Mapping[str, Any], position: int) -> int:
    """What an input a player left out counts as: the model says (0 where the range allows it;
    a ``unique`` input such as turn order counts the player's position, ``min`` first)."""
    missing = spec["missing"]
    return spec["min"] + position if missing == "position" else missing


def input_values(model: Model, players: Sequence[Mapping[str, Any]]) -> list[dict[str, int]]:
    """Each player's inputs, missing ones filled in by :func:`missing_value`."""
    rows = []
    for position, player in enumerate(players):
        row = {}
        for spec in model["inputs"]:
            value = player.get(spec["id"])
            row[spec["id"]] = missing_value(spec, position) if value is None else int(value)
        rows.append(row)
    return rows


def conflicts(model: Model, players: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Inputs whose values break a rule across players: two players with the same value of a
    ``unique`` input, or more than one player with a non-zero ``at_most_one`` input. Each is
    ``{"input", "rule", "players"}`` (the indexes of the players involved, in order)."""
    rows = input_values(model, players)
    found = []
    for spec in model["inputs"]:
        values = [row[spec["id"]] for row in rows]
        if spec["unique"]:
            for value in dict.fromkeys(values):
                same = [i for i, v in enumerate(values) if v == value]
                if len(same) > 1:
                    found.append({"input": spec["id"], "rule": "unique", "players": same})
        if spec["at_most_one"]:
            holders = [i for i, v in enumerate(values) if v != 0]
            if len(holders) > 1:
                found.append({"input": spec["id"], "rule": "at_most_one", "players": holders})
    return found


def applies(term: Term, game: Mapping[str, int]) -> bool:
    """Whether a line counts in this game: its player counts and its ``when`` (over the settings
    and ``players``, which ``game`` holds) allow it."""
    count = game["players"]
    if "players" in term and not term["players"][0] <= count <= term["players"][1]:
        return False
    return "when" not in term or evaluate(term["when"], game) != 0


def score(
    model: Model,
    players: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any] | None = None,
) -> Result:
    """Score checked input (see :func:`rulesite.scoring.inputs.check`); players keep their order."""
    count = len(players)
    game = {**setting_flags(settings or {}, model), "players": count}
    envs = [{**game, **row} for row in input_values(model, players)]
    terms = {t["id"]: t for t in model["terms"]}
    breakdowns: list[dict[str, int]] = [{} for _ in players]
    helpers: list[dict[str, int]] = [{} for _ in players]
    for term_id in model["order"]:
        term = terms[term_id]
        active = applies(term, game)
        values = term_values(term, envs) if active else [0] * count
        role = term.get("helper")
        for index, (env, value) in enumerate(zip(envs, values, strict=True)):
            env[term_id] = value  # an inactive line counts as 0 in later formulas
            if active and role is None:
                breakdowns[index][term_id] = value
            elif active and role == "shown":
                helpers[index][term_id] = value
    scores = []
    for index, player in enumerate(players):
        breakdown = breakdowns[index]
        total = sum(breakdown.values())
        floor = model["total_min"]
        if floor is not None and total < floor:
            breakdown[FLOOR_TERM] = floor - total
            total = floor
        name = str(player.get("name") or f"#{index + 1}")
        scores.append(PlayerScore(name, total, breakdown, helpers[index]))
    return _rank(model, scores, envs)


def term_values(term: Term, envs: list[dict[str, int]]) -> list[int]:
    """A line's value for each player: its formula per player, scored by its kind."""
    kind = LINE_KINDS.get(term["kind"])
    if kind is None:
        raise ValueError(f"unknown kind of line {term['kind']!r}")
    amounts = [evaluate(term["tree"], env) for env in envs] if "tree" in term else None
    return kind.points(term, amounts, envs)


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
