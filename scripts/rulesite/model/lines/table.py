"""The ``table`` line: points looked up by value, as a rulebook's chart gives them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from pydantic import Field

from rulesite.errors import KeyPath
from rulesite.model.base import Formula, Record
from rulesite.model.lines.kind import INPUT_LIMIT, Env, LineKind, Problem, Spans, Term


class TableRow(Record):
    """One row of a points table: from this value up to the next row's, these points."""

    at_least: int = Field(ge=-INPUT_LIMIT, le=INPUT_LIMIT)
    """Smallest value this row applies to."""
    points: int
    """Points for a value from ``at_least`` up to the next row's ``at_least``."""


class PointsTable(Record):
    """Points looked up by value, as a rulebook's chart gives them (0–1 → −1, 2 → 1, ... 5+ → 4)."""

    by: Formula
    """The value looked up."""
    rows: list[TableRow] = Field(min_length=1, max_length=50)
    """Rows in rising order of ``at_least``; the last row covers every value above it. The
    first row must cover the lowest value ``by`` can take."""


def table_points(rows: list[dict[str, int]], value: int) -> int:
    """The points of the last row whose ``at_least`` the value reaches (rows rise; validation
    proves no value falls below the first row, which would score 0)."""
    points = 0
    for row in rows:
        if value < row["at_least"]:
            break
        points = row["points"]
    return points


class TableLine(LineKind):
    """The points of the last row the value reaches."""

    name = "table"
    position = 50
    value_type = PointsTable
    doc = "Points looked up in a table by value."
    formula = ("by",)
    compiled: ClassVar[dict[str, Any]] = {
        "required": ["tree", "rows"],
        "properties": {
            "tree": {"$ref": "#/$defs/tree"},
            "rows": {
                "type": "array", "minItems": 1, "maxItems": 50,
                "items": {"type": "object", "additionalProperties": False, "required": ["at_least", "points"], "properties": {"at_least": {"type": "integer"}, "points": {"type": "integer"}}},  # noqa: E501
                "description": "Rows in rising order of at_least: the tree's value scores the points of the last row it reaches (validation proves it reaches the first).",  # noqa: E501
            },
        },
        "description": "Points looked up by value.",
    }  # fmt: skip
    vectors = (
        {
            "id": "edge-table",
            "inputs": [{"id": "x", "max": 50}],
            "terms": [{"id": "chart", "table": {"by": "x", "rows": [
                {"at_least": 0, "points": -1}, {"at_least": 2, "points": 1},
                {"at_least": 3, "points": 2}, {"at_least": 4, "points": 3},
                {"at_least": 5, "points": 4},
            ]}}],
            "cases": [
                {"name": "every-row", "players": [{"x": 0}, {"x": 1}, {"x": 2}, {"x": 3}, {"x": 4}, {"x": 5}],  # noqa: E501
                 "totals": [-1, -1, 1, 2, 3, 4], "winners": ["P5"]},
                {"name": "beyond-the-last-row", "players": [{"x": 50}], "totals": [4], "winners": ["P0"]},  # noqa: E501
            ],
        },
    )  # fmt: skip

    def compile(self, value: PointsTable) -> dict[str, Any]:
        return {"rows": [{"at_least": r.at_least, "points": r.points} for r in value.rows]}

    def points(self, term: Term, amounts: list[int] | None, envs: list[Env]) -> list[int]:
        assert amounts is not None
        return [table_points(term["rows"], amount) for amount in amounts]

    def span(self, term: Term, amount: Any, spans: Spans, where: KeyPath) -> Any:
        """The points' span; also proves no value looked up falls below the first row."""
        where = (*where, "table", "rows")
        rows = term["rows"]
        first = rows[0]["at_least"]
        if amount is not None and amount.low < first:
            low = spans.number(amount.low)
            spans.report(
                (*where, 0, "at_least"),
                f"the value looked up can be {low} with inputs in range, below the first row's "
                f"{first:,}: start the first row at {low} or lower",
            )
        points = [row["points"] for row in rows]
        value = spans.span(min(points), max(points))
        return spans.check(value, where, "the table's points", "", "use smaller points")

    def shape_problems(self, value: PointsTable) -> Iterator[Problem]:
        rows = value.rows
        for index in range(1, len(rows)):
            low, high = rows[index - 1].at_least, rows[index].at_least
            if high <= low:
                message = f"rows rise: {high} must be more than the row before's {low}"
                yield ("rows", index, "at_least"), message


KIND = TableLine()
