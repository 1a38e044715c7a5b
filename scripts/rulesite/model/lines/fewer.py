"""The ``fewer`` line: one point for each other player with strictly less."""

from __future__ import annotations

from typing import Any, ClassVar

from rulesite.errors import KeyPath
from rulesite.model.base import Formula
from rulesite.model.lines.kind import Env, LineKind, Spans, Term


class FewerLine(LineKind):
    """One point for each other player with strictly less of the formula."""

    name = "fewer"
    position = 30
    value_type = Formula
    doc = "One point for each other player with strictly less of this."
    formula = ()
    compiled: ClassVar[dict[str, Any]] = {
        "required": ["tree"],
        "properties": {"tree": {"$ref": "#/$defs/tree"}},
        "description": "One point for each other player whose tree is strictly less.",
    }

    def points(self, term: Term, amounts: list[int] | None, envs: list[Env]) -> list[int]:
        assert amounts is not None
        return [sum(1 for other in amounts if other < mine) for mine in amounts]

    def span(self, term: Term, amount: Any, spans: Spans, where: KeyPath) -> Any:
        return spans.span(0, spans.players.high - 1)


KIND = FewerLine()
