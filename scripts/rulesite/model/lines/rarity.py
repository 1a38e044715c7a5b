"""The ``rarity`` line: goods valued by how rare they are across all players."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from pydantic import Field

from rulesite.errors import KeyPath
from rulesite.model.base import Ident, Record
from rulesite.model.lines.kind import Env, LineKind, Problem, Spans, Term


class Rarity(Record):
    """Goods valued by how rare they are across all players."""

    kinds: list[Ident] = Field(min_length=2, max_length=12)
    """Input ids of the kinds of goods."""
    values: list[int] = Field(min_length=2, max_length=12)
    """Points per good, from the most common kind to the rarest."""
    rarer_on_tie: list[Ident] = Field(min_length=2, max_length=12)
    """All kinds, rarest first: the order used when totals are equal."""


class RarityLine(LineKind):
    """Each good worth its kind's value, kinds ranked from most to least collected by everyone."""

    name = "rarity"
    position = 40
    value_type = Rarity
    doc = "Points for goods valued by rarity across players."
    compiled: ClassVar[dict[str, Any]] = {
        "required": ["kinds", "values", "rarer_on_tie"],
        "properties": {
            "kinds": {"type": "array", "items": {"$ref": "#/$defs/name"}, "minItems": 2, "maxItems": 12},  # noqa: E501
            "values": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 12},  # noqa: E501
            "rarer_on_tie": {"type": "array", "items": {"$ref": "#/$defs/name"}, "minItems": 2, "maxItems": 12},  # noqa: E501
        },
        "description": "Each good (an input named in kinds) is worth a value: the kinds are ranked from the most collected by all players together to the least, and take values in that order; equal totals are ordered by rarer_on_tie (rarest first).",  # noqa: E501
    }  # fmt: skip

    def compile(self, value: Rarity) -> dict[str, Any]:
        return {"kinds": value.kinds, "values": value.values, "rarer_on_tie": value.rarer_on_tie}

    def names(self, term: Term) -> set[str]:
        return set(term["kinds"])

    def points(self, term: Term, amounts: list[int] | None, envs: list[Env]) -> list[int]:
        """Kinds ranked from most to least collected overall, equal totals ordered by
        ``rarer_on_tie`` (rarest first, so it counts as rarer)."""
        totals = {kind: sum(env[kind] for env in envs) for kind in term["kinds"]}
        rarest_first = term["rarer_on_tie"]
        common_first = sorted(term["kinds"], key=lambda k: (-totals[k], -rarest_first.index(k)))
        value = dict(zip(common_first, term["values"], strict=True))
        return [sum(env[kind] * value[kind] for kind in term["kinds"]) for env in envs]

    def span(self, term: Term, amount: Any, spans: Spans, where: KeyPath) -> Any:
        worth = spans.span(min(term["values"]), max(term["values"]))
        goods = [spans.names[kind] for kind in term["kinds"]]  # inputs: never None
        value = spans.total([spans.times(good, worth) for good in goods if good is not None])
        return spans.check(
            value, (*where, "rarity", "values"), "the points", spans.IN_RANGE,
            "narrow the input ranges or use smaller values",
        )  # fmt: skip

    def shape_problems(self, value: Rarity) -> Iterator[Problem]:
        if len(value.values) != len(value.kinds):
            yield ("values",), "give one value per kind"
        if sorted(value.rarer_on_tie) != sorted(value.kinds):
            yield ("rarer_on_tie",), "list every kind exactly once"

    def name_problems(self, value: Rarity, inputs: set[str]) -> Iterator[Problem]:
        for index, kind in enumerate(value.kinds):
            if kind not in inputs:
                yield ("kinds", index), f"unknown input {kind!r}"


KIND = RarityLine()
