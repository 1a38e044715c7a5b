"""Proof that a calculator stays exact in the browser: interval arithmetic over its formulas.

Python integers are exact at any size; the page computes with JavaScript numbers, which are
exact only up to ±(2⁵³−1). Every input has a bounded range (see ``ScoreInput``), so the range of
every value a compiled calculator computes — each step of each formula (``when`` conditions and
table look-ups included), each line and helper, the sum of the lines, the floor adjustment, each
tie-breaker — can be bounded before anyone types a number. A value that could leave the safe
range is reported where it is written. The same ranges prove that no value looked up in a
points table falls below its first row.

Floor division stays exact too: for a dividend within the safe range and a positive whole
divisor, ``Math.floor(a / b)`` equals Python's ``a // b``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rulesite.errors import KeyPath
from rulesite.model.lines import LINE_KINDS
from rulesite.scoring.engine import Model, Term
from rulesite.scoring.expr import Tree, names

SAFE_INTEGER = 2**53 - 1
"""JavaScript's ``Number.MAX_SAFE_INTEGER``: the largest whole number it computes exactly."""


@dataclass(frozen=True)
class Span:
    """The values something can take, ``low`` to ``high``, and ``peak``: the value farthest
    from zero that any step reaches on the way (``a * b - c`` may peak above its result)."""

    low: int
    high: int
    peak: int

    @classmethod
    def of(cls, low: int, high: int, *inner: Span) -> Span:
        return cls(low, high, max(high, low, *(s.peak for s in inner), key=abs))

    def with_zero(self) -> Span:
        return Span.of(min(self.low, 0), max(self.high, 0), self)


def span(tree: Tree, names: Mapping[str, Span]) -> Span:
    """The range of ``tree`` when every name lies in its span."""
    if "n" in tree:
        return Span.of(tree["n"], tree["n"])
    if "v" in tree:
        return names[tree["v"]]
    op = tree["op"]
    args = [span(child, names) for child in tree["a"]]
    if op == "+":
        a, b = args
        return Span.of(a.low + b.low, a.high + b.high, a, b)
    if op == "-":
        a, b = args
        return Span.of(a.low - b.high, a.high - b.low, a, b)
    if op == "*":
        return _times(*args)
    if op == "//":  # the divisor is a positive constant (the parser makes sure)
        a, b = args
        return Span.of(a.low // b.low, a.high // b.low, a, b)
    if op == "neg":
        (a,) = args
        return Span.of(-a.high, -a.low, a)
    if op == "min":
        return Span.of(min(a.low for a in args), min(a.high for a in args), *args)
    if op == "max":
        return Span.of(max(a.low for a in args), max(a.high for a in args), *args)
    raise ValueError(f"unknown operation {op!r}")


def check_bounds(model: Model, path: KeyPath) -> list[tuple[KeyPath, str]]:
    """Every place where a compiled calculator could compute a number beyond ±SAFE_INTEGER.

    ``path`` locates the calculator in its file. Each problem is reported where it starts: what
    uses a value already reported is not reported again.
    """
    return _Checker(model, path).run()


class _Checker:
    def __init__(self, model: Model, path: KeyPath) -> None:
        self.model = model
        self.path = path
        self.problems: list[tuple[KeyPath, str]] = []
        self.names: dict[str, Span | None] = {
            i["id"]: Span.of(i["min"], i["max"]) for i in model["inputs"]
        }
        """Range of every name; None for a term whose range was already reported."""
        self.players = Span.of(*model["players"])
        self.names["players"] = self.players
        for setting in model["settings"]:
            if setting["kind"] == "yes_no":
                self.names[setting["id"]] = Span.of(0, 1)
                continue
            for option in setting["options"]:
                self.names[f"{setting['id']}_{option}"] = Span.of(0, 1)

    def run(self) -> list[tuple[KeyPath, str]]:
        terms = {t["id"]: (index, t) for index, t in enumerate(self.model["terms"])}
        values = []  # the lines added to the total (helpers are not)
        for term_id in self.model["order"]:
            index, term = terms[term_id]
            where = (*self.path, "terms", index)
            if "when" in term:
                self.formula(term["when"], (*where, "when"))
            value = self.term(term, where)
            if value is not None and ("players" in term or "when" in term):
                value = value.with_zero()  # an inactive line counts as 0
            self.names[term_id] = value
            if "helper" not in term:
                values.append(value)
        if None not in values:
            self.terms_total([v for v in values if v is not None])
        for index, breaker in enumerate(self.model["tiebreakers"]):
            self.formula(breaker["by"], (*self.path, "tiebreakers", index, "by"))
        return self.problems

    def term(self, term: Term, where: KeyPath) -> Span | None:
        """The range of a term's points (its kind sizes them); None when it is reported."""
        kind = LINE_KINDS[term["kind"]]
        amount = None
        if kind.formula is not None:
            amount = self.formula(term["tree"], (*where, kind.name, *kind.formula))
        return kind.span(term, amount, self, where)

    # What a line kind may use (rulesite.model.lines.kind.Spans): the proof's own tools.
    IN_RANGE = "with inputs in range"

    def span(self, low: int, high: int, *inner: Span) -> Span:
        return Span.of(low, high, *inner)

    def times(self, a: Span, b: Span) -> Span:
        return _times(a, b)

    def total(self, parts: list[Span]) -> Span:
        return _sum(parts)

    def report(self, where: KeyPath, message: str) -> None:
        self.problems.append((where, message))

    def number(self, value: int) -> str:
        return _number(value)

    def formula(self, tree: Tree, where: KeyPath) -> Span | None:
        if any(self.names[name] is None for name in names(tree)):
            return None  # uses a term already reported
        known = {name: value for name, value in self.names.items() if value is not None}
        return self.check(
            span(tree, known), where, "this formula", _IN_RANGE,
            "narrow the input ranges or change the formula",
        )  # fmt: skip

    def terms_total(self, values: list[Span]) -> None:
        total = self.check(
            _sum(values), (*self.path, "terms"), "the sum of the terms", _IN_RANGE,
            "narrow the input ranges or change the terms",
        )  # fmt: skip
        floor = self.model["total_min"]
        where = (*self.path, "total_min")
        if floor is None or total is None:
            return
        if abs(floor) > SAFE_INTEGER:
            self.problems.append((where, f"{floor:,} is beyond {_LIMIT}"))
        elif total.low < floor:  # a total below the floor is lifted; the lift is shown
            self.check(
                Span.of(0, floor - total.low), where, "the lift up to the floor", _IN_RANGE,
                "narrow the input ranges or change the floor",
            )  # fmt: skip

    def check(self, value: Span, where: KeyPath, what: str, when: str, advice: str) -> Span | None:
        """``value``, or None after reporting it when it can leave the safe range."""
        if abs(value.peak) <= SAFE_INTEGER:
            return value
        reached = " ".join(filter(None, [what, "can reach", _number(value.peak), when]))
        self.problems.append((where, f"{reached}; every value must stay within {_LIMIT}: {advice}"))
        return None


_IN_RANGE = _Checker.IN_RANGE
_LIMIT = f"±{SAFE_INTEGER:,}, the largest whole number a browser computes exactly"


def _times(a: Span, b: Span) -> Span:
    corners = [x * y for x in (a.low, a.high) for y in (b.low, b.high)]
    return Span.of(min(corners), max(corners), a, b)


def _sum(parts: list[Span]) -> Span:
    """The sum of ``parts``; its peak bounds every partial sum, whatever the order of adding."""
    most = sum(max(p.high, 0) for p in parts)
    least = sum(min(p.low, 0) for p in parts)
    low, high = sum(p.low for p in parts), sum(p.high for p in parts)
    return Span.of(low, high, Span.of(least, most), *parts)


def _number(value: int) -> str:
    """A number for a message: with thousands separators, or its power of ten when huge."""
    if abs(value) < 10**30:
        return f"{value:,}"
    # str() of a huge int is slow (and refused beyond 4,300 digits): give the power of ten.
    exponent = math.floor((abs(value).bit_length() - 1) * math.log10(2))
    while 10 ** (exponent + 1) <= abs(value):  # the estimate can be one short
        exponent += 1
    return f"at least 10^{exponent}" if value > 0 else f"-10^{exponent} or less"
