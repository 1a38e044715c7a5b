"""The calculator at the table (issue 19): the sheet first, names that fit, the result panel,
the breakdown picture and solo sheets, in headless Chromium at 360 × 740 in every language.

Calculators, their pages, labels and numbers come from data/ (and ``rulesite score``), so a
fourth game passes too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulesite.catalog import load_catalog
from rulesite.engine.projects import site_path
from rulesite.model import Calculator
from rulesite.project import Project
from rulesite.scoring.command import score_input
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import input_values, setting_flags
from rulesite.scoring.expr import evaluate
from tests.helpers import PHONE, REPO, SCHEMES, accepting_dialogs, light_in_each_dark_in_one
from tests.projects import REAL
from tests.site_checks import REAL_SITE, label
from tests.test_accessibility import axe_options, scheme_rules

pytestmark = pytest.mark.browser

CATALOG = load_catalog(Project(REAL))
LANGS = {language.code: site_path(language) for language in CATALOG.site.languages}
"""Each language's folder under the site root."""
GAMES = [game for game in CATALOG.games if game.scoring]
CALCULATORS = {calc.id: calc for game in GAMES for calc in game.scoring}
PAGES = {calc.id: f"games/{game.slug}/score/" for game in GAMES for calc in game.scoring}
VECTORS = json.loads((REPO / "tests" / "data" / "scoring-vectors.json").read_text("utf-8"))
CASES = {
    calc_id: [c for c in VECTORS["cases"] if c["model"] == calc_id and not c["conflicts"]]
    for calc_id in CALCULATORS
}
"""The shared vectors of each calculator on the site (cases with conflicts never score)."""
LONG_NAMES = ["王小明", "Maximilian"]
"""A three-character Chinese name and a ten-letter English one."""


def say(key: str, lang: str, **values: object) -> str:
    return label(REAL_SITE, key, lang, **{k: str(v) for k, v in values.items()})


@pytest.fixture
def phone(shared_phone):
    """The worker's one phone page, storage cleared for each test (tests/conftest.py);
    dialogs accepted (loading over a sheet asks first)."""
    return accepting_dialogs(shared_phone)


def root(calc_id: str) -> str:
    return f".rs-calc[data-calculator='{calc_id}']"


def open_page(page, site_url: str, lang: str, calc_id: str) -> None:
    page.goto(site_url + LANGS[lang] + PAGES[calc_id])


def load(page, calc_id: str, players: list[dict], settings: dict) -> None:
    """Put players on the sheet as the page loads a worked example (names, cells, settings)."""
    page.evaluate(
        "([sel, players, settings]) => document.querySelector(sel).rsCalculator"
        ".load({players: players, settings: settings})",
        [root(calc_id), players, settings],
    )


def rulesite_score(calc: Calculator, players: list[dict], settings: dict) -> dict[str, Any]:
    """What `rulesite score` prints for these players."""
    return score_input(calc, json.dumps({"players": players, **settings}).encode())


def text(page, selector: str) -> list[str]:
    return page.locator(selector).all_inner_texts()


# ---- 1. The sheet comes first -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_sheet_is_on_the_first_screen(phone, site_url, lang: str, game) -> None:
    calc = game.scoring[0]
    open_page(phone, site_url, lang, calc.id)
    count = phone.locator(f"#rs-count-{calc.id}").bounding_box()
    first = phone.locator(f"{root(calc.id)} [data-field='{calc.inputs[0].id}'][data-player='0']")
    row = first.bounding_box()
    assert count["y"] >= 0 and count["y"] + count["height"] <= PHONE["height"], count
    assert row["y"] + row["height"] <= PHONE["height"], row
    # The notes come after the sheet; what it leaves out is folded until asked for.
    for notes in phone.locator(".rs-calc__notes").all():
        assert notes.evaluate("d => d.tagName === 'DETAILS' && !d.open")
    if calc.leaves_out:
        folded = phone.locator(".rs-calc__notes").first.bounding_box()
        assert folded["y"] > row["y"]


# ---- 2. Names fit -------------------------------------------------------------------------------

WIDE = [c.id for c in CALCULATORS.values() if c.players.max >= 5]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", WIDE)
def test_long_names_are_not_clipped_at_five_players(
    phone, site_url, lang: str, calc_id: str
) -> None:
    open_page(phone, site_url, lang, calc_id)
    phone.select_option(f"#rs-count-{calc_id}", "5")
    for p, name in enumerate(LONG_NAMES):
        phone.locator(f"{root(calc_id)} [data-name='{p}']").fill(name)
    phone.locator(f"{root(calc_id)} [data-field]").first.focus()
    fits = phone.evaluate(
        "sel => [...document.querySelectorAll(sel + ' .rs-calc__name, ' + sel + ' thead th')]"
        ".filter(e => e.offsetParent)"
        ".map(e => [e.value || e.textContent, e.scrollWidth <= e.clientWidth])",
        root(calc_id),
    )
    assert all(ok for _, ok in fits), fits
    heads = text(phone, f"{root(calc_id)} thead [data-column]")
    assert [h.replace("\n", "") for h in heads[:2]] == LONG_NAMES
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A name longer than its field shows in full while it is being typed.
    field = phone.locator(f"{root(calc_id)} [data-name='2']")
    field.fill("Bartholomew Fitzgerald-Smith")
    assert field.evaluate("e => e.scrollWidth <= e.clientWidth")
    field.blur()
    assert field.evaluate("e => e.scrollWidth > e.clientWidth")  # it gave the room back


# ---- 3 and 4. The result panel and the breakdown equal `rulesite score` -------------------------


def best_columns(calc: Calculator, result: dict) -> list[int]:
    """The columns highlighted as the winner's: a single winner, or all sharing first place."""
    if not calc.declare_winner or len(result["players"]) == 1:
        return []
    if result["outcome"] in ("single", "tiebreak"):
        return [i for i, p in enumerate(result["players"]) if p["rank"] == 1][:1]
    return [i for i, p in enumerate(result["players"]) if p["rank"] == 1]


def check_panel(page, calc: Calculator, lang: str, result: dict) -> None:
    sel = root(calc.id)
    assert page.locator(f"{sel} .rs-calc__panel").is_visible()
    players = result["players"]
    if len(players) == 1:  # solo: the score, no ranks
        solo = say("calc_solo_score", lang, total=players[0]["total"])
        assert page.locator(f"{sel} .rs-calc__result").inner_text() == solo
        assert page.locator(f"{sel} [data-standing]").count() == 0
        return
    for i, player in enumerate(players):
        item = page.locator(f"{sel} [data-standing='{i}']")
        assert item.locator(".rs-calc__standing-name").inner_text() == player["name"]
        assert item.locator(".rs-calc__standing-total").inner_text() == str(player["total"])
        if calc.declare_winner:
            assert item.locator(".rs-calc__standing-rank").inner_text() == str(player["rank"])
    best = page.evaluate(
        "sel => [...document.querySelectorAll(sel + ' tfoot .rs-calc__best')]"
        ".map(c => Number(c.dataset.column))",
        sel,
    )
    assert sorted(set(best)) == best_columns(calc, result)
    if calc.declare_winner:  # the winner's total is highlighted, at body size in its rank row
        size = page.locator(f"{sel} [data-rank='0']").evaluate("e => getComputedStyle(e).fontSize")
        assert float(size[:-2]) >= 16


def check_breakdown(page, calc: Calculator, result: dict) -> None:
    sel = root(calc.id)
    bars = page.evaluate(
        "sel => [...document.querySelectorAll(sel + ' [data-bar]')].map(b => ({"
        " total: b.querySelector('[data-bar-total]').textContent,"
        " segs: [...b.querySelectorAll('[data-term]')].map(g => [g.dataset.term,"
        " Number(g.dataset.value), g.querySelector('text') && g.querySelector('text').textContent"
        "])}))",
        sel,
    )
    assert len(bars) == len(result["players"])
    for i, (bar, player) in enumerate(zip(bars, result["players"], strict=True)):
        shown = {term: value for term, value, _ in bar["segs"]}
        assert shown == {k: v for k, v in player["breakdown"].items() if v != 0}
        assert sum(shown.values()) == player["total"] == int(bar["total"])
        for term, value, written in bar["segs"]:
            assert written in (None, str(value))
            table = page.locator(f"{sel} output[data-term='{term}'][data-player='{i}']")
            assert table.inner_text() == str(value)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", [c for c in CALCULATORS if CASES[c]])
def test_panel_and_breakdown_equal_rulesite_score(phone, site_url, lang: str, calc_id: str) -> None:
    calc = CALCULATORS[calc_id]
    open_page(phone, site_url, lang, calc_id)
    for case in CASES[calc_id]:
        load(phone, calc_id, case["players"], case["settings"])
        result = rulesite_score(calc, case["players"], case["settings"])
        totals = text(phone, f"{root(calc_id)} output[data-total]")
        assert totals[: len(result["players"])] == [str(p["total"]) for p in result["players"]]
        check_panel(phone, calc, lang, result)
        check_breakdown(phone, calc, result)
    assert phone.problems == []


# ---- 3. Ties: the tie-breaker that separated each pair ------------------------------------------


def tiebreak_values(
    calc: Calculator, players: list[dict], settings: dict, result: dict
) -> list[list[int]]:
    """Each player's tie-breaker values, evaluated over the inputs and the lines' points."""
    model = compile_calculator(calc)
    game = {**setting_flags(settings, model), "players": len(players)}
    rows = input_values(model, players)
    return [
        [
            evaluate(tb["by"], {**game, **row, **p["breakdown"], **p["helpers"]})
            for tb in model["tiebreakers"]
        ]
        for row, p in zip(rows, result["players"], strict=True)
    ]


def expected_tie_lines(
    calc: Calculator, lang: str, result: dict, values: list[list[int]]
) -> list[str]:
    """Players with equal totals, in rank order: between two ranks, the first tie-breaker whose
    values differ; on one rank, that nothing separates them."""
    players = result["players"]
    order = sorted(range(len(players)), key=lambda i: (players[i]["rank"], i))
    lines = []
    for total in dict.fromkeys(players[i]["total"] for i in order):
        run = [i for i in order if players[i]["total"] == total]
        levels = [
            [i for i in run if players[i]["rank"] == r]
            for r in dict.fromkeys(players[i]["rank"] for i in run)
        ]
        for k, level in enumerate(levels):
            if k:
                a, b = levels[k - 1][-1], level[0]
                pos = next(t for t in range(len(values[a])) if values[a][t] != values[b][t])
                lines.append(say(
                    "calc_tie_pair", lang, upper=players[a]["name"], lower=players[b]["name"],
                    total=total, by=calc.tiebreakers[pos].label.get(lang),
                    upper_value=values[a][pos], lower_value=values[b][pos],
                ))  # fmt: skip
            if len(level) > 1:
                names = say("calc_list_join", lang).join(players[i]["name"] for i in level)
                lines.append(say(
                    "calc_tie_level", lang, names=names, total=total, rank=players[level[0]]["rank"]
                ))  # fmt: skip
    return lines


TIED: dict[str, list[dict]] = {}
"""Each calculator's vectors where two players have the same total."""
for _calc_id, _cases in CASES.items():
    for _case in _cases:
        _totals = [p["total"] for p in _case["result"]["players"]]
        if CALCULATORS[_calc_id].declare_winner and len(set(_totals)) < len(_totals):
            TIED.setdefault(_calc_id, []).append(_case)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", TIED)
def test_each_tie_names_its_tie_breaker(phone, site_url, lang: str, calc_id: str) -> None:
    """Every tied vector of a calculator, loaded one after another on one page: each load
    replaces the sheet, so a line left from the vector before fails too."""
    calc = CALCULATORS[calc_id]
    open_page(phone, site_url, lang, calc_id)
    shown, expected = {}, {}
    for case in TIED[calc_id]:
        load(phone, calc_id, case["players"], case["settings"])
        result = rulesite_score(calc, case["players"], case["settings"])
        values = tiebreak_values(calc, case["players"], case["settings"], result)
        shown[case["name"]] = text(phone, f"{root(calc_id)} .rs-calc__ties li")
        expected[case["name"]] = expected_tie_lines(calc, lang, result, values)
    assert shown == expected
    assert all(shown.values())  # every vector here has a tie to explain


# ---- 6. Solo ------------------------------------------------------------------------------------

SOLO = [c.id for c in CALCULATORS.values() if c.players.min == 1]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", SOLO)
def test_a_solo_sheet_declares_no_winner(phone, site_url, lang: str, calc_id: str) -> None:
    calc = CALCULATORS[calc_id]
    open_page(phone, site_url, lang, calc_id)
    phone.select_option(f"#rs-count-{calc_id}", "1")
    phone.locator(f"{root(calc_id)} [data-field='{calc.inputs[0].id}'][data-player='0']").fill("40")
    total = phone.locator(f"{root(calc_id)} [data-total='0']").inner_text()
    sheet = phone.locator(root(calc_id)).inner_text()
    assert phone.locator(f"{root(calc_id)} .rs-calc__result").inner_text() == say(
        "calc_solo_score", lang, total=total
    )
    assert say("calc_winner", lang) not in sheet
    assert phone.locator(f"{root(calc_id)} .rs-calc__best").count() == 0
    assert not phone.locator(f"{root(calc_id)} .rs-calc__rank").is_visible()


# ---- The panel stays in view without hiding the field being typed in ---------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_panel_stays_in_view_and_clear_of_the_field(phone, site_url, lang: str) -> None:
    calc_id = max(CALCULATORS, key=lambda c: len(CALCULATORS[c].inputs))
    calc = CALCULATORS[calc_id]
    open_page(phone, site_url, lang, calc_id)
    load(phone, calc_id, next(e for e in calc.examples if len(e.players) > 1).players, {})
    phone.evaluate("window.scrollTo(0, 0)")
    panel = phone.locator(f"{root(calc_id)} .rs-calc__panel")
    fields = phone.locator(f"{root(calc_id)} [data-player='0'][data-field]")
    covered = None
    for i in range(fields.count()):
        box, pane = fields.nth(i).bounding_box(), panel.bounding_box()
        if box["y"] + box["height"] > pane["y"] and box["y"] < PHONE["height"]:
            covered = fields.nth(i)
            break
    assert covered is not None, "the panel covers no field: nothing to check"
    covered.focus()
    # The page scrolls the field clear (smoothly, so it takes a moment under load): wait for it,
    # up to 5 s, rather than look once.
    for _ in range(50):
        box, pane = covered.bounding_box(), panel.bounding_box()
        if box["y"] + box["height"] <= pane["y"]:
            break
        phone.wait_for_timeout(100)
    assert box["y"] + box["height"] <= pane["y"], (box, pane)
    assert pane["y"] + pane["height"] <= PHONE["height"]  # and the panel is still on screen
    covered.press_sequentially("7")
    assert panel.is_visible() and phone.locator(f"{root(calc_id)} .rs-calc__standing").count()


# ---- Accessibility of the new views -------------------------------------------------------------


@pytest.mark.parametrize(
    "game, lang, scheme",
    [
        pytest.param(game, lang, scheme, id=f"{game.slug}-{lang}-{scheme}")
        for game in GAMES
        for lang, scheme in light_in_each_dark_in_one(LANGS)
    ],
)
def test_filled_sheets_have_no_axe_violations(
    phone, site_url, axe_script, lang: str, scheme: str, game
) -> None:
    """Every calculator of the page filled (its largest worked example): panels, pictures, ties."""
    page = phone  # its storage cleared: the palette shown is the one the system asks for
    page.emulate_media(color_scheme=scheme)
    page.goto(site_url + LANGS[lang] + PAGES[game.scoring[0].id])
    assert page.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]
    for calc in game.scoring:
        example = max(calc.examples, key=lambda e: len(e.players))
        load(page, calc.id, example.players, example.settings)
        assert page.locator(f"{root(calc.id)} .rs-calc__panel").is_visible()
    views = [".rs-calc"]
    if page.locator(".rs-calc__notes").count():  # the folded notes, opened
        page.locator(".rs-calc__notes summary").first.click()
        views.append(".rs-calc__notes")
    page.add_script_tag(path=str(axe_script))
    violations = page.evaluate(
        "async ([views, options]) => (await axe.run({include: views.map(v => [v])}, options))"
        ".violations",
        [views, axe_options(scheme_rules(scheme))],
    )
    assert [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations] == []
