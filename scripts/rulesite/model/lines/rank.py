"""The ``rank`` line: points by place across players, more is better."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Literal

from pydantic import Field

from rulesite.errors import KeyPath
from rulesite.model.base import Formula, IntRange, Record
from rulesite.model.lines.kind import (
    INPUT_LIMIT,
    MAX_PLAYERS,
    Env,
    LineKind,
    Problem,
    Spans,
    Term,
)


class AwardTable(Record):
    """Points by rank for a range of player counts."""

    players: IntRange
    """Player counts this table applies to."""
    points: list[int] = Field(min_length=1, max_length=MAX_PLAYERS)
    """Points for 1st, 2nd... place; places beyond the list score nothing."""


class RankAward(Record):
    """Points by rank across players, e.g. most contracts."""

    by: Formula
    """What is compared (more is better)."""
    awards: list[AwardTable] = Field(min_length=1, max_length=MAX_PLAYERS)
    """Award tables; together they must cover the calculator's player counts."""
    tie: Literal["split", "none", "full"]
    """split: tied players pool the points of the places they occupy and share them evenly,
    rounded down; none: tied players get nothing; full: each tied player gets the whole award of
    their place. Either way tied players use up the places they occupy."""
    at_least: int | None = Field(default=None, ge=-INPUT_LIMIT, le=INPUT_LIMIT)
    """Qualifying minimum: a player whose value is below it takes no place and scores nothing
    (1: a player with none of it scores nothing)."""


def award_points(tables: list[dict[str, Any]], count: int) -> list[int]:
    """Points by place for ``count`` players (the table that covers it)."""
    for table in tables:
        if table["players"][0] <= count <= table["players"][1]:
            return table["points"]
    return []


def rank_awards(
    amounts: list[int], points: list[int], tie: str, at_least: int | None = None
) -> list[int]:
    """Award ``points`` by place, more first; ties handled by ``tie`` (split, none, full).

    With ``at_least``, a player below it takes no place and scores nothing; the others are
    ranked among themselves.
    """
    qualified = [a for a in amounts if at_least is None or a >= at_least]
    result = []
    for mine in amounts:
        if at_least is not None and mine < at_least:
            result.append(0)
            continue
        place = sum(1 for other in qualified if other > mine)  # places taken by better players
        tied = sum(1 for other in qualified if other == mine)
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


def _pooled(points: list[int], players: int) -> tuple[int, int]:
    """What "split" adds up before dividing: the points of the tied places, one per player."""
    most = sum(sorted((p for p in points if p > 0), reverse=True)[:players])
    least = sum(sorted(p for p in points if p < 0)[:players])
    return least, most


class RankLine(LineKind):
    """Points by place across players; ties by the line's policy."""

    name = "rank"
    position = 20
    value_type = RankAward
    doc = "Points by rank across players."
    formula = ("by",)
    compiled: ClassVar[dict[str, Any]] = {
        "required": ["tree", "awards", "tie"],
        "properties": {
            "tree": {"$ref": "#/$defs/tree"},
            "awards": {
                "type": "array", "minItems": 1, "maxItems": 12,
                "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["players", "points"],
                    "properties": {"players": {"$ref": "#/$defs/range"}, "points": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 12}},  # noqa: E501
                },
                "description": "Points for 1st, 2nd... place, by player count (the table covering the count; validation leaves exactly one).",  # noqa: E501
            },
            "tie": {"enum": ["split", "none", "full"], "description": "Tied players occupy as many places as they are. split: they share the points of those places, rounded down; none: they score nothing; full: each scores the first of those places."},  # noqa: E501
            "at_least": {"type": "integer", "description": "A player whose tree is below it takes no place and scores 0; the rest are ranked among themselves."},  # noqa: E501
        },
        "description": "Points by place across players, more is better.",
    }  # fmt: skip
    vectors = (
        {
            "id": "edge-rank-split-at-least",
            "inputs": [{"id": "x", "max": 50}],
            "terms": [{"id": "goal", "rank": {"by": "x", "awards": [{"players": {"min": 1, "max": 6}, "points": [4, 1, 0]}], "tie": "split", "at_least": 1}}],  # noqa: E501
            "cases": [
                {"name": "zero-takes-no-place-tied-split", "players": [{"x": 0}, {"x": 3}, {"x": 3}, {"x": 1}],  # noqa: E501
                 "totals": [0, 2, 2, 0], "winners": ["P1", "P2"], "outcome": "shared"},
                {"name": "nobody-qualifies", "players": [{}, {}], "totals": [0, 0], "winners": ["P0", "P1"]},  # noqa: E501
                {"name": "three-tied-share-all-places", "players": [{"x": 2}, {"x": 2}, {"x": 2}],
                 "totals": [1, 1, 1], "winners": ["P0", "P1", "P2"]},
            ],
        },
        {
            "id": "edge-rank-full",
            "inputs": [{"id": "x", "max": 50}],
            "terms": [{"id": "award", "rank": {"by": "x", "awards": [{"players": {"min": 1, "max": 6}, "points": [5, 2]}], "tie": "full"}}],  # noqa: E501
            "cases": [
                {"name": "tied-first-use-up-second", "players": [{"x": 4}, {"x": 4}, {"x": 1}],
                 "totals": [5, 5, 0], "winners": ["P0", "P1"]},
                {"name": "tied-second-each-take-it", "players": [{"x": 4}, {"x": 1}, {"x": 1}],
                 "totals": [5, 2, 2], "winners": ["P0"]},
            ],
        },
        {
            "id": "edge-rank-none",
            "inputs": [{"id": "x", "max": 50}],
            "terms": [{"id": "award", "rank": {"by": "x", "awards": [{"players": {"min": 1, "max": 6}, "points": [5, 2]}], "tie": "none"}}],  # noqa: E501
            "cases": [
                {"name": "tied-score-nothing", "players": [{"x": 3}, {"x": 3}, {"x": 1}],
                 "totals": [0, 0, 0], "winners": ["P0", "P1", "P2"]},
                {"name": "single-places-score", "players": [{"x": 3}, {"x": 1}, {"x": 1}],
                 "totals": [5, 0, 0], "winners": ["P0"]},
            ],
        },
    )  # fmt: skip

    def compile(self, value: RankAward) -> dict[str, Any]:
        compiled: ClassVar[dict[str, Any]] = {
            "awards": [
                {"players": [a.players.min, a.players.max], "points": a.points}
                for a in value.awards
            ],
            "tie": value.tie,
        }
        if value.at_least is not None:
            compiled["at_least"] = value.at_least
        return compiled

    def points(self, term: Term, amounts: list[int] | None, envs: list[Env]) -> list[int]:
        assert amounts is not None
        points = award_points(term["awards"], len(envs))
        return rank_awards(amounts, points, term["tie"], term.get("at_least"))

    def span(self, term: Term, amount: Any, spans: Spans, where: KeyPath) -> Any:
        where = (*where, "rank", "awards")
        points = [p for table in term["awards"] for p in table["points"]] + [0]
        value = spans.span(min(points), max(points))
        if term["tie"] == "split":  # tied players add up their places' points first
            pools = [
                spans.span(*_pooled(table["points"], spans.players.high))
                for table in term["awards"]
            ]
            value = spans.span(value.low, value.high, *pools)
            return spans.check(
                value, where, "the award points", 'when tied players add them up ("split")',
                "use smaller points",
            )  # fmt: skip
        return spans.check(value, where, "the award points", "", "use smaller points")

    def count_problems(self, value: RankAward, counts: Iterable[int]) -> Iterator[Problem]:
        """Each count of players the line can apply with has exactly one award table."""
        where: KeyPath = ("awards",)
        for count in counts:
            tables = [a for a in value.awards if a.players.min <= count <= a.players.max]
            if not tables:
                yield where, f"no award table for {count} players"
            elif len(tables) > 1:
                yield where, f"more than one award table for {count} players"


KIND = RankLine()
