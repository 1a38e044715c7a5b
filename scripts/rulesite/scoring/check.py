"""Cross checks of scoring calculators: formulas, names, cycles, tables, exactness, worked
examples.

Field checks (types, required keys) happen in the records; these need the whole calculator. The
formulas are parsed here (once: see :mod:`rulesite.scoring.compiler`), so a formula that does not
parse is reported with the other scoring problems, where it is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import Calculator, Game, ScoreTerm
from rulesite.scoring.bounds import Span, check_bounds, span
from rulesite.scoring.compiler import (
    CycleError,
    compile_calculator,
    compile_terms,
    evaluation_order,
    syntax_problems,
    term_formulas,
)
from rulesite.scoring.engine import FLOOR_TERM, Model, Term, score, setting_flags
from rulesite.scoring.expr import FUNCTIONS, Tree, names, parse
from rulesite.scoring.inputs import check as check_inputs

BUILTIN_NAMES = ("players",)
"""Names every formula may use: ``players`` is the number of players."""
RESERVED_NAMES = (*BUILTIN_NAMES, "name", "total", FLOOR_TERM, *FUNCTIONS, "constructor")
"""Names no input, line or setting may take: the built-in ``players`` (also the key of the
player list in `rulesite score` input, beside the settings), ``name`` (each player's name in that
input), ``total`` and ``floor`` (a player's total and the floor line), the functions, and
``constructor``, which every JavaScript object has (``__proto__`` and the other names of
JavaScript's objects already fail the id pattern: they have capitals or start with ``_``)."""


def check_scoring(game: Game, doc: Document) -> list[Problem]:
    """Every problem in a game's calculators (rule references are checked with the game's)."""
    problems = []
    for index, calculator in enumerate(game.scoring):
        path: KeyPath = ("scoring", index)
        found = list(calculator_problems(calculator))
        found += list(_left_out_links(calculator, game))
        problems += [doc.problem((*path, *where), message) for where, message in found]
    return problems


def calculator_problems(calc: Calculator) -> Iterator[tuple[KeyPath, str]]:
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
    if structural:  # the rest only makes sense for a calculator that can run
        return
    model = compile_calculator(calc)
    unsound = list(_counts(calc, model)) + check_bounds(model, ())
    yield from unsound
    if not unsound:  # worked examples of a calculator the page cannot run would mislead
        yield from _examples(calc, model)


# --- Names ---------------------------------------------------------------------------------------


def _names(calc: Calculator, terms: list[Term]) -> Iterator[tuple[KeyPath, str]]:
    flags = _flag_names(calc)
    declared: list[tuple[KeyPath, str]] = [
        *((("inputs", i, "id"), spec.id) for i, spec in enumerate(calc.inputs)),
        *((("terms", i, "id"), term.id) for i, term in enumerate(calc.terms)),
    ]
    counts = Counter([*(name for _, name in declared), *flags])
    for where, name in declared:
        if name in RESERVED_NAMES:
            yield where, _reserved(name)
        elif counts[name] > 1:
            yield where, f"name {name!r} is used more than once"
    for index, setting in enumerate(calc.settings):  # keys beside "players" in score input
        if setting.id in RESERVED_NAMES:
            yield ("settings", index, "id"), _reserved(setting.id)
    known = set(counts) | set(BUILTIN_NAMES)
    game_names = set(flags) | set(BUILTIN_NAMES)
    for index, (term, compiled) in enumerate(zip(calc.terms, terms, strict=True)):
        for key, text, tree in _term_formulas(term, compiled):
            where = ("terms", index, *key)
            yield from _unknown(text, tree, known, where)
            if key == ("when",):
                for name in sorted((names(tree) & known) - game_names):
                    yield where, f"when may use only settings and players, not {name!r}"
        inputs = {spec.id for spec in calc.inputs}
        for where, message in term.line.name_problems(term.value, inputs):
            yield ("terms", index, term.kind, *where), message
    for index, breaker in enumerate(calc.tiebreakers):
        where = ("tiebreakers", index, "by")
        yield from _unknown(breaker.by, parse(breaker.by), known, where)
    yield from _unused_hidden_helpers(calc, terms)


def _reserved(name: str) -> str:
    return f"{name!r} is a reserved name ({', '.join(RESERVED_NAMES)}); choose another"


def _flag_names(calc: Calculator) -> list[str]:
    """The names settings give formulas: ``<setting>_<option>``, or a yes/no setting's id (a
    setting id used twice is reported on its own)."""
    flags = []
    for setting in {s.id: s for s in reversed(calc.settings)}.values():
        if setting.options is None:
            flags.append(setting.id)
        else:
            flags += [f"{setting.id}_{option.id}" for option in setting.options]
    return flags


def _term_formulas(term: ScoreTerm, compiled: Term) -> Iterator[tuple[KeyPath, str, Tree]]:
    for key, text in term_formulas(term):
        yield key, text, compiled["when" if key == ("when",) else "tree"]


def _unknown(
    text: str, tree: Tree, known: set[str], where: KeyPath
) -> Iterator[tuple[KeyPath, str]]:
    for name in sorted(names(tree) - known):
        yield where, f"unknown name {name!r} in formula {text!r}"


def _unused_hidden_helpers(calc: Calculator, terms: list[Term]) -> Iterator[tuple[KeyPath, str]]:
    used: set[str] = set()
    for compiled in terms:
        for key in ("tree", "when"):
            if key in compiled:
                used |= names(compiled[key])
    for breaker in calc.tiebreakers:
        used |= names(parse(breaker.by))
    for index, term in enumerate(calc.terms):
        if term.helper == "hidden" and term.id not in used:
            message = "a hidden helper no line or tie-breaker uses does nothing: use or show it"
            yield ("terms", index, "helper"), message


# --- Shapes --------------------------------------------------------------------------------------


def _shapes(calc: Calculator) -> Iterator[tuple[KeyPath, str]]:
    seen: set[str] = set()
    for index, setting in enumerate(calc.settings):
        if setting.id in seen:
            yield ("settings", index, "id"), f"setting id {setting.id!r} is used more than once"
        seen.add(setting.id)
        options = [o.id for o in setting.options or []]
        for option_index, option in enumerate(options):
            if option in options[:option_index]:
                where = ("settings", index, "options", option_index, "id")
                yield where, f"option id {option!r} is used more than once"
        where = ("settings", index, "default")
        if setting.options is None and not isinstance(setting.default, bool):
            yield where, "a yes/no setting (one without options) takes true or false"
        elif setting.options is not None and isinstance(setting.default, bool):
            yield where, "a setting with options takes the id of one of them, not true or false"
        elif setting.options is not None and setting.default not in {o.id for o in setting.options}:
            yield where, f"no option {setting.default!r}"
    for index, spec in enumerate(calc.inputs):
        where = ("inputs", index)
        if spec.unique and spec.at_most_one:
            yield (*where, "at_most_one"), "an input is either unique or at_most_one, not both"
        if spec.unique and spec.max - spec.min + 1 < calc.players.max:
            yield (
                (*where, "max"),
                (
                    f"{calc.players.max} players need {calc.players.max} different values; "
                    f"{spec.min}–{spec.max} has {spec.max - spec.min + 1}"
                ),
            )
    for index, term in enumerate(calc.terms):
        for where, message in term.line.shape_problems(term.value):
            yield ("terms", index, term.kind, *where), message


def _counts(calc: Calculator, model: Model) -> Iterator[tuple[KeyPath, str]]:
    """What each line's kind checks for the player counts the line can apply with (a rank line
    needs exactly one award table for each); counts where it never applies (its ``players``, a
    ``when`` that is 0 there) are left out."""
    for index, (term, compiled) in enumerate(zip(calc.terms, model["terms"], strict=True)):
        counts = [
            count
            for count in range(calc.players.min, calc.players.max + 1)
            if _may_apply(compiled, count, model)
        ]
        for where, message in term.line.count_problems(term.value, counts):
            yield ("terms", index, term.kind, *where), message


def _may_apply(term: Term, count: int, model: Model) -> bool:
    """Whether a line can count with ``count`` players, for some choice of settings."""
    if "players" in term and not term["players"][0] <= count <= term["players"][1]:
        return False
    if "when" not in term:
        return True
    game = {name: Span.of(0, 1) for name in setting_flags({}, model)}
    game["players"] = Span.of(count, count)
    condition = span(term["when"], game)
    return not condition.low == condition.high == 0


def _left_out_links(calc: Calculator, game: Game) -> Iterator[tuple[KeyPath, str]]:
    rules = {r.id for r in game.rules}
    rulings = {r.id for r in game.faq}
    for index, item in enumerate(calc.leaves_out):
        where = ("leaves_out", index)
        if item.rule is not None and item.rule not in rules:
            known = ", ".join(sorted(rules))
            yield (*where, "rule"), f"no rule section with id {item.rule!r} (known: {known})"
        if item.ruling is not None and item.ruling not in rulings:
            known = ", ".join(sorted(rulings)) or "none"
            yield (*where, "ruling"), f"no FAQ ruling with id {item.ruling!r} (known: {known})"


# --- Worked examples -----------------------------------------------------------------------------


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
            if player >= len(result.players):
                yield (*where, "breakdown", player), "there is no such player in the example"
                continue
            scored = result.players[player]
            for term, points in expected.items():
                actual = scored.breakdown.get(term, scored.helpers.get(term))
                if actual != points:
                    yield (
                        (*where, "breakdown", player, term),
                        f"expected {term} = {points}, the rules give {actual}",
                    )
