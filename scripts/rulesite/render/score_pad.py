"""The score pad: what an empty calculator prints, every line the rules need, from its data.

A pad is filled in by hand at the table, so it lists what the sheet on the screen works out by
itself too: each item to count, then each scoring line. Where a line divides a sum (Nations'
six resources together, then ÷ 10), the sum gets a row of its own before the line, so the
writer adds up first and divides after, as the rules say. The words come from the
calculator's own labels and ``data/site.yaml``; the arithmetic from its compiled formulas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from rulesite.markup import inline
from rulesite.model import Calculator
from rulesite.scoring.compiler import compile_calculator

Label = Callable[..., Markup]
"""A label lookup as templates have it (``t(key, **values)``)."""

_SYMBOLS = {"+": " + ", "-": " − ", "*": " × ", "//": " ÷ "}
"""How each operator reads on paper."""
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "//": 2, "neg": 3}
"""Which operators bind tighter (a bracket goes around a looser one inside a tighter one)."""


@dataclass(frozen=True)
class PadRow:
    """One row of the pad: a label and, where the label alone does not say how, a hint."""

    kind: str
    """``input`` (a count to write down), ``subtotal`` (a sum a line divides) or ``line``."""
    id: str
    """The input's or line's id (a subtotal: its line's id)."""
    label: Markup
    """What the row is, as the sheet names it."""
    hint: Markup | None = None
    """How to work it out, when that is more than the label says (None otherwise)."""


def pad_rows(calc: Calculator, lang: str, t: Label) -> list[PadRow]:
    """The pad's rows, in the sheet's order: each input, then each scoring line shown."""
    names = {i.id: inline(i.label.get(lang)) for i in calc.inputs}
    names.update({term.id: inline(term.label.get(lang)) for term in calc.terms})
    rows = [PadRow("input", i.id, names[i.id]) for i in calc.inputs]
    compiled = {term["id"]: term for term in compile_calculator(calc)["terms"]}
    for term in calc.terms:
        if term.helper == "hidden":
            continue  # never shown on the sheet: a step of another line's arithmetic
        rows.extend(_line_rows(compiled[term.id], names, t))
    return rows


def _line_rows(term: dict[str, Any], names: dict[str, Markup], t: Label) -> list[PadRow]:
    label, tree = names[term["id"]], term.get("tree")
    if term["kind"] == "fewer" and tree is not None and "v" in tree:
        return [PadRow("line", term["id"], label, t("pad_fewer", field=_name(tree, names)))]
    division = _divided_sum(tree) if term["kind"] == "formula" else None
    if division is None:
        return [PadRow("line", term["id"], label)]
    dividend, divisor = division
    subtotal = t("pad_subtotal", items=_text(dividend, names))
    return [
        PadRow("subtotal", term["id"], subtotal),
        PadRow("line", term["id"], label, t("pad_divide", n=divisor)),
    ]


def _divided_sum(tree: Any) -> tuple[dict[str, Any], int] | None:
    """The first ``sum // number`` in ``tree`` whose sum has more than one part, or None."""
    if not isinstance(tree, dict) or "op" not in tree:
        return None
    left, *rest = tree["a"]
    if tree["op"] == "//" and "op" in left and rest and "n" in rest[0]:
        return left, rest[0]["n"]
    for child in tree["a"]:
        found = _divided_sum(child)
        if found is not None:
            return found
    return None


def _name(tree: dict[str, Any], names: dict[str, Markup]) -> Markup:
    return names.get(tree["v"], Markup.escape(tree["v"]))


def _text(
    tree: dict[str, Any], names: dict[str, Markup], parent: str = "", right: bool = False
) -> Markup:
    """A formula as it reads on paper, names as the sheet labels them (``Gold + Food``);
    brackets only where the order of operations needs them."""
    if "v" in tree:
        return _name(tree, names)
    if "n" in tree:
        return Markup.escape(str(tree["n"]))
    op = tree["op"]
    if op == "neg":
        return Markup("−") + _text(tree["a"][0], names, "neg")
    if op in ("min", "max"):
        args = [_text(a, names) for a in tree["a"]]
        return Markup(op + "(") + Markup(", ").join(args) + Markup(")")
    left, other = tree["a"]
    text = _text(left, names, op) + Markup(_SYMBOLS[op]) + _text(other, names, op, right=True)
    outer = _PRECEDENCE.get(parent, 0)
    bracket = outer > _PRECEDENCE[op] or (outer == _PRECEDENCE[op] and right)
    return Markup("(") + text + Markup(")") if bracket else text
