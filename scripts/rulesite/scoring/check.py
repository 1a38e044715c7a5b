"""Cross checks of scoring calculators: formulas, names, cycles, award tables, exactness, worked
examples.

Field checks (types, required keys) happen in the records; these need the whole calculator. The
formulas are parsed here (once: see :mod:`rulesite.scoring.compiler`), so a formula that does not
parse is reported with the other scoring problems, where it is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rulesite.errors import Problem
from rulesite.load import Document, KeyPath
from rulesite.model import Calculator, Game
from rulesite.scoring.bounds import check_bounds
from rulesite.scoring.compiler import (
    CycleError,
    Term,
    compile_calculator,
    compile_terms,
    evaluation_order,
    syntax_problems,
)
from rulesite.scoring.engine import Model, score
from rulesite.scoring.expr import Tree, names, parse
from rulesite.scoring.inputs import check as check_inputs

BUILTIN_NAMES = {"players"}
"""Names every formula may use: ``players`` is the number of players."""


def check_scoring(game: Game, doc: Document) -> list[Problem]:
    """Every problem in a game's calculators (rule references are checked with the game's)."""
    problems = []
    for index, calculator in enumerate(game.scoring):
        path: KeyPath = ("scoring", index)
        found = [((*path, *where), message) for where, message in _check_calculator(calculator)]
        problems += [doc.problem(where, message) for where, message in found]
    return problems


def _check_calculator(calc: Calculator) -> Iterator[tuple[KeyPath, str]]:
    """Problems located inside the calculator (paths start at its keys)."""
    shapes = list(_shapes(calc))
    syntax = syntax_problems(calc)
    yield from syntax
    if syntax:  # names and order need every tree
        yield from shapes
        return
    terms = compile_terms(calc)
    structural = list(_names(calc, terms)) + shapes
    try:
        evaluation_order(terms)
    except CycleError as cycle:
        index = next(i for i, t in enumerate(calc.terms) if t.id == cycle.cycle[0])
        structural.append((("terms", index), f"terms depend on each other in a cycle: {cycle}"))
    yield from structural
    if not structural:  # these only make sense for a calculator that can run
        model = compile_calculator(calc)
        yield from check_bounds(model, ())
        yield from _examples(calc, model)


def _names(calc: Calculator, terms: list[Term]) -> Iterator[tuple[KeyPath, str]]:
    inputs = [i.id for i in calc.inputs]
    term_ids = [t.id for t in calc.terms]
    flags = [f"{s.id}_{o.id}" for s in calc.settings for o in s.options]
    counts = Counter(inputs + term_ids + flags + sorted(BUILTIN_NAMES))
    for kind, ids in (("inputs", inputs), ("terms", term_ids)):
        for index, name in enumerate(ids):
            if counts[name] > 1:
                yield (kind, index, "id"), f"name {name!r} is used more than once"
    known = set(counts)
    for index, (term, compiled) in enumerate(zip(calc.terms, terms, strict=True)):
        for key in ("formula", "fewer"):
            text = getattr(term, key)
            if text is not None:
                yield from _unknown(text, compiled["tree"], known, ("terms", index, key))
        if term.rank is not None:
            where = ("terms", index, "rank", "by")
            yield from _unknown(term.rank.by, compiled["tree"], known, where)
        if term.rarity is not None:
            for kind_index, kind in enumerate(term.rarity.kinds):
                if kind not in inputs:
                    where = ("terms", index, "rarity", "kinds", kind_index)
                    yield where, f"unknown input {kind!r}"
    for index, breaker in enumerate(calc.tiebreakers):
        where = ("tiebreakers", index, "by")
        yield from _unknown(breaker.by, parse(breaker.by), known, where)


def _unknown(
    text: str, tree: Tree, known: set[str], where: KeyPath
) -> Iterator[tuple[KeyPath, str]]:
    for name in sorted(names(tree) - known):
        yield where, f"unknown name {name!r} in formula {text!r}"


def _shapes(calc: Calculator) -> Iterator[tuple[KeyPath, str]]:
    for index, setting in enumerate(calc.settings):
        if setting.default not in {o.id for o in setting.options}:
            yield ("settings", index, "default"), f"no option {setting.default!r}"
    for index, term in enumerate(calc.terms):
        where = ("terms", index)
        if term.rank is not None:
            for count in range(calc.players.min, calc.players.max + 1):
                if not any(a.players.min <= count <= a.players.max for a in term.rank.awards):
                    yield (*where, "rank", "awards"), f"no award table for {count} players"
        if term.rarity is not None:
            rarity = term.rarity
            if len(rarity.values) != len(rarity.kinds):
                yield (*where, "rarity", "values"), "give one value per kind"
            if sorted(rarity.rarer_on_tie) != sorted(rarity.kinds):
                yield (*where, "rarity", "rarer_on_tie"), "list every kind exactly once"


def _examples(calc: Calculator, model: Model) -> Iterator[tuple[KeyPath, str]]:
    for index, example in enumerate(calc.examples):
        where = ("examples", index)
        problems = check_inputs(model, example.players, example.settings)
        if problems:
            yield from (((*where, "players"), p) for p in problems)
            continue
        result = score(model, example.players, example.settings)
        totals = [p.total for p in result.players]
        if totals != example.totals:
            yield (*where, "totals"), f"expected totals {example.totals}, the rules give {totals}"
        if result.winners != example.winners:
            yield (
                (*where, "winners"),
                f"expected winners {example.winners}, the rules give {result.winners}",
            )
        for player, expected in enumerate(example.breakdown or []):
            for term, points in expected.items():
                actual = result.players[player].breakdown.get(term)
                if actual != points:
                    yield (
                        (*where, "breakdown", player, term),
                        f"expected {term} = {points}, the rules give {actual}",
                    )
