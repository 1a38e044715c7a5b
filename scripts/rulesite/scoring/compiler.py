"""From a validated :class:`~rulesite.model.Calculator` record to the compiled model.

The compiled model is plain JSON: what the page embeds and what both engines (``engine.py`` and
``templates/theme/assets/scoring-engine.js``) evaluate. Every formula is parsed here, once per
text (:func:`~rulesite.scoring.expr.parse` remembers its trees); the checks, the bounds proof,
the engine and the page all work on the trees this module puts into the model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rulesite.errors import KeyPath
from rulesite.model import Calculator, ScoreInput, ScoreTerm, Setting
from rulesite.model.lines import LINE_KINDS
from rulesite.scoring.engine import Model, Term
from rulesite.scoring.expr import FormulaError, Tree, names, parse


class CycleError(ValueError):
    """Terms that depend on each other in a circle."""

    def __init__(self, cycle: list[str]) -> None:
        self.cycle = cycle
        super().__init__(" → ".join(cycle))


def term_formulas(term: ScoreTerm) -> Iterator[tuple[KeyPath, str]]:
    """Each formula of a line, with its key path inside the line: its kind's, then ``when``."""
    line = term.line
    text = line.formula_text(term.value)
    if text is not None and line.formula is not None:
        yield (line.name, *line.formula), text
    if term.when is not None:
        yield ("when",), term.when


def formulas(calc: Calculator) -> Iterator[tuple[KeyPath, str]]:
    """Every formula of a calculator, with its key path inside the calculator."""
    for index, term in enumerate(calc.terms):
        for where, text in term_formulas(term):
            yield ("terms", index, *where), text
    for index, breaker in enumerate(calc.tiebreakers):
        yield ("tiebreakers", index, "by"), breaker.by


def syntax_problems(calc: Calculator) -> list[tuple[KeyPath, str]]:
    """Each formula that does not parse, where it is written, with the parser's reason."""
    problems = []
    for where, text in formulas(calc):
        try:
            parse(text)
        except FormulaError as exc:
            problems.append((where, f"formula {text!r}: {exc}"))
    return problems


def compile_terms(calc: Calculator) -> list[Term]:
    """The calculator's lines, compiled in the order they are written (formulas must parse)."""
    return [_compile_term(term) for term in calc.terms]


def compile_calculator(calc: Calculator) -> Model:
    """The JSON model both engines evaluate (labels are added by the page, not here).

    Needs formulas that parse and lines without a cycle: check them first
    (:mod:`rulesite.scoring.check`); otherwise :class:`FormulaError` or :class:`CycleError`.
    """
    terms = compile_terms(calc)
    return {
        "id": calc.id,
        "players": [calc.players.min, calc.players.max],
        "inputs": [_compile_input(i) for i in calc.inputs],
        "settings": [_compile_setting(s) for s in calc.settings],
        "terms": terms,
        "order": evaluation_order(terms),
        "total_min": calc.total_min,
        "tiebreakers": [{"by": parse(tb.by), "prefer": tb.prefer} for tb in calc.tiebreakers],
        "when_tied": calc.when_tied,
    }


def missing_input(spec: ScoreInput) -> int | str:
    """What an input a player leaves out counts as: ``"position"`` for a ``unique`` input (turn
    order: the player's place in the list, from ``min``); otherwise 0, or the end of the range
    nearest to 0 when the range leaves 0 out (so a missing input is always in range)."""
    if spec.unique:
        return "position"
    return min(max(0, spec.min), spec.max)


def _compile_input(spec: ScoreInput) -> dict[str, Any]:
    return {
        "id": spec.id,
        "min": spec.min,
        "max": spec.max,
        "unique": spec.unique,
        "at_most_one": spec.at_most_one,
        "missing": missing_input(spec),
    }


def _compile_setting(setting: Setting) -> dict[str, Any]:
    if setting.options is None:
        return {"id": setting.id, "kind": "yes_no", "default": setting.default}
    options = [o.id for o in setting.options]
    return {"id": setting.id, "kind": "choice", "options": options, "default": setting.default}


def _compile_term(term: ScoreTerm) -> Term:
    compiled: Term = {"id": term.id, "kind": term.kind}
    if term.players is not None:
        compiled["players"] = [term.players.min, term.players.max]
    if term.when is not None:
        compiled["when"] = parse(term.when)
    if term.helper is not None:
        compiled["helper"] = term.helper
    text = term.line.formula_text(term.value)
    if text is not None:
        compiled["tree"] = parse(text)
    compiled.update(term.line.compile(term.value))
    return compiled


def term_trees(term: Term) -> list[Tree]:
    """Every formula tree of a compiled line."""
    return [term[key] for key in ("tree", "when") if key in term]


def term_names(term: Term) -> set[str]:
    """Every name a compiled line reads: its formulas' and what its kind reads besides
    (rarity reads its kinds)."""
    used = LINE_KINDS[term["kind"]].names(term)
    for tree in term_trees(term):
        used |= names(tree)
    return used


def evaluation_order(terms: Sequence[Term]) -> list[str]:
    """Line ids so that each comes after the lines it uses; raise :class:`CycleError`."""
    ids = {t["id"] for t in terms}
    needs = {t["id"]: term_names(t) & ids for t in terms}
    order: list[str] = []
    state: dict[str, str] = {}
    for term in terms:
        _visit(term["id"], [], needs, state, order)
    return order


def _visit(
    term_id: str,
    path: list[str],
    needs: dict[str, set[str]],
    state: dict[str, str],
    order: list[str],
) -> None:
    """Put ``term_id`` in ``order`` after what it needs (depth first). A function of its own,
    not a closure: a recursive closure is a reference cycle only the collector frees, and a
    build freezes the collector before the language processes fork (publish/workers.py), so
    every game's would stay for good, scattered through the memory the catalog leaves."""
    if state.get(term_id) == "done":
        return
    if state.get(term_id) == "active":
        raise CycleError([*path[path.index(term_id) :], term_id])
    state[term_id] = "active"
    for dependency in sorted(needs[term_id]):
        _visit(dependency, [*path, term_id], needs, state, order)
    state[term_id] = "done"
    order.append(term_id)
