"""Modules (expansions, variants, modes, promos): the record, the tags, the calculator's module
settings and what the pages show. The bad-data corpus has the located errors
(``tests/data/bad/module-*``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from rulesite.catalog import check_game_file
from rulesite.model import Calculator, Game, Module
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import score
from rulesite.scoring.modules import (
    MAX_SETTINGS,
    module_flag,
    module_setting_problems,
    with_module_settings,
)
from tests.golden import rendered_fixture_pages
from tests.projects import good_game_text
from tests.scoring_vectors import make_calculator

LABEL = {"zh": "标签", "en": "Label"}
CITIES = Module.model_validate(
    {"id": "big-city", "name": {"zh": "大城市", "en": "Big city"}, "kind": "expansion",
     "in_scope": True}
)  # fmt: skip


def calculator(**fields: Any) -> Calculator:
    fields.setdefault("inputs", [{"id": "x"}, {"id": "debt"}])
    fields.setdefault(
        "terms", [{"id": "base", "formula": "x"}, {"id": "debt_vp", "formula": "-debt"}]
    )
    return make_calculator("calc", **fields)


def game_with(calc: Calculator, modules: list[Module] | None = None) -> Game:
    """The good fixture game with ``calc`` as its only calculator."""
    import yaml

    data = yaml.safe_load(good_game_text())
    data["scoring"] = [calc.model_dump(exclude_none=True)]
    data["modules"] = [m.model_dump(exclude_none=True) for m in modules or [CITIES]]
    return Game.model_validate(data)


def tagged_terms() -> list[dict[str, Any]]:
    return [
        {"id": "base", "formula": "x"},
        {"id": "debt_vp", "formula": "-debt", "module": "big-city"},
    ]


def test_a_module_flag_is_its_id_with_underscores() -> None:
    assert module_flag("big-city") == "big_city"
    assert module_flag("solo") == "solo"


def test_a_tagged_line_gets_a_yes_no_setting_named_after_its_module_on_by_default() -> None:
    game = with_module_settings(game_with(calculator(terms=tagged_terms())))
    calc = game.scoring[0]
    (setting,) = calc.settings
    assert (setting.id, setting.yes_no, setting.default) == ("big_city", True, True)
    assert setting.label.get("en") == "Big city"
    assert setting.label.get("zh") == "大城市"
    assert [t.when for t in calc.terms] == [None, "big_city"]


def test_a_tagged_line_keeps_its_own_condition_beside_the_modules() -> None:
    terms = tagged_terms()
    terms[1]["when"] = "funded"
    calc = calculator(terms=terms, settings=[{"id": "funded", "default": False}])
    switched = with_module_settings(game_with(calc)).scoring[0]
    assert switched.terms[1].when == "big_city * (funded)"
    model = compile_calculator(switched)
    players = [{"name": "A", "x": 5, "debt": 2}]
    totals = {
        (funded, on): score(model, players, {"funded": funded, "big_city": on}).players[0].total
        for funded in (True, False)
        for on in (True, False)
    }
    # The line counts only when both the module is on and its own condition holds.
    assert totals == {(True, True): 3, (True, False): 5, (False, True): 5, (False, False): 5}


def test_switching_a_module_off_leaves_its_lines_out_of_the_breakdown() -> None:
    switched = with_module_settings(game_with(calculator(terms=tagged_terms()))).scoring[0]
    model = compile_calculator(switched)
    players = [{"name": "A", "x": 5, "debt": 2}, {"name": "B", "x": 4}]
    on = score(model, players, {}).players  # the default: on
    off = score(model, players, {"big_city": False}).players
    assert [p.total for p in on] == [3, 4] and on[0].breakdown == {"base": 5, "debt_vp": -2}
    assert [p.total for p in off] == [5, 4] and off[0].breakdown == {"base": 5}


def test_a_game_without_tagged_lines_is_left_as_it_is() -> None:
    game = game_with(calculator())
    assert with_module_settings(game) is game


def test_a_line_whose_condition_does_not_parse_keeps_what_the_editor_wrote() -> None:
    terms = tagged_terms()
    terms[1]["when"] = "funded +"
    switched = with_module_settings(game_with(calculator(terms=terms))).scoring[0]
    assert switched.terms[1].when == "funded +"


def test_module_settings_count_toward_the_limit_of_settings() -> None:
    settings = [{"id": f"s{n}", "default": False} for n in range(MAX_SETTINGS)]
    calc = calculator(terms=tagged_terms(), settings=settings)
    assert list(module_setting_problems(calc)) == [
        (
            ("terms", 1, "module"),
            f"the calculator has {MAX_SETTINGS} settings and 1 modules (each module is a "
            f"setting); at most {MAX_SETTINGS} in all",
        )
    ]
    assert list(module_setting_problems(calculator(terms=tagged_terms()))) == []


def test_a_module_flag_may_not_take_a_choices_flag() -> None:
    settings = [{"id": "big", "options": ["city", "town"], "default": "city"}]
    calc = calculator(terms=tagged_terms(), settings=settings)
    ((where, message),) = module_setting_problems(calc)
    assert where == ("terms", 1, "module")
    assert "already named 'big_city'" in message


def _checked(text: str) -> tuple[Game | None, list[str]]:
    checked = check_game_file(text.encode(), "data/games/mini-game.yaml", "mini-game", None, _day())
    return checked.game, [p.message for p in checked.problems]


def _day() -> dt.date:
    return dt.date(2026, 6, 1)


def test_validation_hands_on_the_game_with_its_module_settings() -> None:
    text = good_game_text().replace(
        "        formula: cards\n", "        formula: cards\n        module: big-hands\n", 1
    )
    game, problems = _checked(text)
    assert problems == []
    assert game is not None
    assert [s.id for s in game.scoring[0].settings] == ["big_hands"]


def test_an_unknown_module_stops_the_module_settings_but_not_the_other_checks() -> None:
    text = good_game_text().replace(
        "        formula: cards\n", "        formula: cards\n        module: big-hand\n", 1
    )
    game, problems = _checked(text)
    assert problems == ["no module with id 'big-hand' (did you mean 'big-hands'?)"]
    assert game is not None and game.scoring[0].settings == []


# --- Pages ---------------------------------------------------------------------------------------

PAGES = rendered_fixture_pages()


@pytest.mark.parametrize(
    ("lang", "chip"), [("zh", "仅限大手牌变体"), ("en", "Big-hands variant only")]
)
def test_a_tagged_ruling_shows_its_module_under_its_heading(lang: str, chip: str) -> None:
    faq = PAGES[f"{lang}/games/mini-game/faq.md"]
    heading = faq.index("{#tie-breaker}")
    tag = faq.index('<p class="rs-module-tag" data-rs-module="big-hands">')
    assert faq.index("{#hand-limit}") < heading < tag < faq.index('<div class="rs-text">', heading)
    assert faq.count('class="rs-module-tag"') == 1  # the untagged ruling has none
    assert chip in faq[tag:]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_filter_lists_the_pages_modules_and_waits_for_its_script(lang: str) -> None:
    faq = PAGES[f"{lang}/games/mini-game/faq.md"]
    assert '<fieldset class="rs-module-filter" data-rs-game="mini-game" hidden>' in faq
    assert 'data-rs-module-option="big-hands">' in faq
    assert "<input" not in faq  # the script makes the checkboxes: no form field in the page
    assert 'value="first-expansion"' not in faq  # not covered: nothing is tagged with it
    assert "assets/module-filter.js" in faq
    rules = PAGES[f"{lang}/games/mini-game/rules.md"]
    assert "rs-module-filter" not in rules  # no tagged section there: no control


@pytest.mark.parametrize(
    ("lang", "items"),
    [
        ("zh", ["大手牌变体（变体，本页涵盖）：每人多拿 2 张牌。", "第一扩展（扩展，本页不含）"]),
        ("en", ["Big-hands variant (variant, covered here): Each player takes 2 more cards.",
                "First expansion (expansion, not covered)"]),
    ],
)  # fmt: skip
def test_the_overview_lists_every_module_after_what_is_not_covered(
    lang: str, items: list[str]
) -> None:
    overview = PAGES[f"{lang}/games/mini-game/index.md"]
    excludes = overview.index("所有扩展。" if lang == "zh" else "All expansions.")
    for item in items:
        assert overview.index(f"- {item}\n") > excludes


# --- The real data -------------------------------------------------------------------------------


def test_every_tagged_section_and_ruling_of_the_real_data_shows_its_tag() -> None:
    from rulesite.catalog import load_catalog
    from rulesite.project import Project
    from rulesite.render.renderer import Renderer
    from tests.projects import REAL

    project = Project(REAL)
    catalog = load_catalog(project)
    renderer = Renderer(project, catalog)
    tagged = 0
    for game in catalog.games:
        for kind, items in (("rules", game.rules), ("faq", game.faq)):
            for lang in ("zh", "en"):
                page = renderer.game_page(kind, game, lang)
                for item in items:
                    heading = page.index(f"{{#{item.id}}}")
                    next_heading = page.find("\n## ", heading)
                    section = page[heading : next_heading if next_heading > 0 else None]
                    tag = f'data-rs-module="{item.module}"'
                    assert (tag in section) == (item.module is not None), (game.slug, item.id)
                    tagged += item.module is not None
    assert tagged >= 4  # Nations' solo and five-player sections and solo ruling, the solo rules
