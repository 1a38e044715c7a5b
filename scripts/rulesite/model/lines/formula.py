"""The ``formula`` line: the formula, for each player on their own."""

from __future__ import annotations

from typing import Any, ClassVar

from rulesite.model.base import Formula
from rulesite.model.lines.kind import Env, LineKind, Term


class FormulaLine(LineKind):
    """Points from this player's own numbers."""

    name = "formula"
    position = 10
    value_type = Formula
    doc = "Points from this player's own numbers."
    formula = ()
    compiled: ClassVar[dict[str, Any]] = {
        "required": ["tree"],
        "properties": {"tree": {"$ref": "#/$defs/tree"}},
        "description": "The value of the tree for the player.",
    }

    def points(self, term: Term, amounts: list[int] | None, envs: list[Env]) -> list[int]:
        assert amounts is not None
        return amounts


KIND = FormulaLine()
