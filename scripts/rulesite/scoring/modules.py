"""Scoring lines tagged with a module: each module a calculator's lines use becomes a yes/no
setting of that calculator, and its lines count only while the setting is on.

This is done once, at validation, by rewriting the calculator record: the setting is an ordinary
yes/no setting (on by default, labelled with the module's name) and a tagged line's ``when``
becomes ``<flag> * (<when>)``, which is not 0 exactly when the flag is 1 and the line's own
condition holds. So the checks, the bounds proof, both engines, `rulesite score` and the page
all see the module as a setting they already know, and nothing else has to learn about modules.
"""

from __future__ import annotations

from collections.abc import Iterator

from rulesite.errors import KeyPath
from rulesite.model import Calculator, Game, Module, ScoreTerm, Setting
from rulesite.scoring.check import RESERVED_NAMES
from rulesite.scoring.expr import FormulaError, parse

MAX_SETTINGS = 10
"""Settings a calculator may have, the modules' included (``Calculator.settings``)."""


def module_flag(module_id: str) -> str:
    """The setting (and formula name) a module gives: ``two-player`` → ``two_player``."""
    return module_id.replace("-", "_")


def used_modules(calc: Calculator) -> list[str]:
    """Ids of the modules the calculator's lines are tagged with, in the order first used."""
    return list(dict.fromkeys(t.module for t in calc.terms if t.module is not None))


def module_setting_problems(calc: Calculator) -> Iterator[tuple[KeyPath, str]]:
    """A module's setting must not take a name the calculator already uses, and the settings
    with the modules' must stay within the limit (paths start at the calculator's keys)."""
    taken = {
        *(spec.id for spec in calc.inputs),
        *(term.id for term in calc.terms),
        *(setting.id for setting in calc.settings),
        *(f"{s.id}_{o.id}" for s in calc.settings for o in s.options or ()),
    }
    first_use: dict[str, int] = {}
    for index, term in enumerate(calc.terms):
        if term.module is not None:
            first_use.setdefault(term.module, index)
    for module_id, index in first_use.items():
        flag = module_flag(module_id)
        if flag in RESERVED_NAMES:
            yield (
                ("terms", index, "module"),
                f"module {module_id!r} would give the calculator a setting {flag!r}, a reserved "
                f"name ({', '.join(RESERVED_NAMES)}); choose another module id",
            )
        elif flag in taken:
            yield (
                ("terms", index, "module"),
                f"module {module_id!r} gives the calculator a yes/no setting {flag!r}, but an "
                f"input, line or setting is already named {flag!r}; rename it",
            )
    count = len(calc.settings) + len(first_use)
    if first_use and count > MAX_SETTINGS:
        last = max(first_use.values())
        yield (
            ("terms", last, "module"),
            f"the calculator has {len(calc.settings)} settings and {len(first_use)} modules "
            f"(each module is a setting); at most {MAX_SETTINGS} in all",
        )


def with_module_settings(game: Game) -> Game:
    """The game with each calculator's module lines switched by a setting of the module's name.

    Needs modules that resolve (validated first). A tagged line whose own ``when`` does not parse
    is left as it is, so its syntax error is reported on what the editor wrote.
    """
    if not any(t.module for calc in game.scoring for t in calc.terms):
        return game
    modules = {m.id: m for m in game.modules}
    scoring = [_with_settings(calc, modules) for calc in game.scoring]
    return game.model_copy(update={"scoring": scoring})


def _with_settings(calc: Calculator, modules: dict[str, Module]) -> Calculator:
    used = used_modules(calc)
    if not used:
        return calc
    settings = [*calc.settings, *(_setting(modules[module_id]) for module_id in used)]
    terms = [_switched(term) for term in calc.terms]
    return calc.model_copy(update={"settings": settings, "terms": terms})


def _setting(module: Module) -> Setting:
    # On by default: like the rules and FAQ pages, which show every module until the reader hides
    # one, the calculator counts a module's lines until the reader switches it off.
    return Setting(id=module_flag(module.id), label=module.name, default=True)


def _switched(term: ScoreTerm) -> ScoreTerm:
    if term.module is None:
        return term
    flag = module_flag(term.module)
    if term.when is None:
        return term.model_copy(update={"when": flag})
    try:
        parse(term.when)
    except FormulaError:
        return term
    return term.model_copy(update={"when": f"{flag} * ({term.when})"})
