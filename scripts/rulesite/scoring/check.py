"""Cross checks of scoring calculators: names, cycles, award tables, exactness, worked examples.

Field checks (types, formula syntax) happen in the model; these need the whole calculator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rulesite.errors import Problem
from rulesite.load import Document, KeyPath
from rulesite.model import Calculator, Game
from rulesite.scoring.bounds import check_bounds
from rulesite.scoring.engine import CycleError, compile_calculator, evaluation_order, score
from rulesite.scoring.expr import names, parse
from rulesite.scoring.inputs import check as check_inputs

BUILTIN_NAMES = {"players"}
"""Names every formula may use: ``players`` is the number of players."""


def check_scoring(game: Game, doc: Document) -> list[Problem]:
    """Every problem in a game's calculators (rule references are checked with the game's)."""
    problems = []
    for index, calculator in enumerate(game.scoring):
        path: KeyPath = ("scoring", index)
        found = list(_check_calculator(calculator, path))
        problems += [doc.problem(where, message) for where, message in found]
    return problems


def _check_calculator(calc: Calculator, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    structural = list(_names(calc, path))
    structural += list(_shapes(calc, path))
    try:
        evaluation_order(calc.terms)
    except CycleError as cycle:
        index = next(i for i, t in enumerate(calc.terms) if t.id == cycle.cycle[0])
        structural.append(
            ((*path, "terms", index), f"terms depend on each other in a cycle: {cycle}")
        )
    yield from structural
    if not structural:  # these only make sense for a calculator that can run
        yield from check_bounds(calc, path)
        yield from _examples(calc, path)


def _names(calc: Calculator, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    inputs = [i.id for i in calc.inputs]
    terms = [t.id for t in calc.terms]
    flags = [f"{s.id}_{o.id}" for s in calc.settings for o in s.options]
    counts = Counter(inputs + terms + flags + sorted(BUILTIN_NAMES))
    for kind, ids in (("inputs", inputs), ("terms", terms)):
        for index, name in enumerate(ids):
            if counts[name] > 1:
                yield (*path, kind, index, "id"), f"name {name!r} is used more than once"
    known = set(counts)
    for index, term in enumerate(calc.terms):
        for key in ("formula", "fewer"):
            text = getattr(term, key)
            if text is not None:
                yield from _unknown(text, known, (*path, "terms", index, key))
        if term.rank is not None:
            yield from _unknown(term.rank.by, known, (*path, "terms", index, "rank", "by"))
        if term.rarity is not None:
            for kind_index, kind in enumerate(term.rarity.kinds):
                if kind not in inputs:
                    where = (*path, "terms", index, "rarity", "kinds", kind_index)
                    yield where, f"unknown input {kind!r}"
    for index, breaker in enumerate(calc.tiebreakers):
        yield from _unknown(breaker.by, known, (*path, "tiebreakers", index, "by"))


def _unknown(text: str, known: set[str], where: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    for name in sorted(names(parse(text)) - known):
        yield where, f"unknown name {name!r} in formula {text!r}"


def _shapes(calc: Calculator, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    for index, setting in enumerate(calc.settings):
        if setting.default not in {o.id for o in setting.options}:
            yield (*path, "settings", index, "default"), f"no option {setting.default!r}"
    for index, term in enumerate(calc.terms):
        where = (*path, "terms", index)
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


def _examples(calc: Calculator, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    model = compile_calculator(calc)
    for index, example in enumerate(calc.examples):
        where = (*path, "examples", index)
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
