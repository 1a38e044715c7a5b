"""Game nights in headless Chromium at 360 × 740, in both languages: finishing a game saves it
on the device, the history per calculator and across games, a new game with the same players,
undo, CSV and JSON export, JSON import on another device, old and damaged stores, hostile
names, and axe-core on the new views. Calculators and their worked examples come from data/."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from rulesite.pages import registry
from tests.helpers import PHONE, accepting_dialogs, light_in_each_dark_in_one
from tests.site_checks import REAL_SITE, label
from tests.test_accessibility import axe_options, scheme_rules, settled
from tests.test_scoring_engine import CATALOG

pytestmark = pytest.mark.browser

GAME_OF = {calc.id: game for game in CATALOG.games for calc in game.scoring}
CALCS = {calc.id: calc for game in CATALOG.games for calc in game.scoring}
LANGS = {"zh": "", "en": "en/"}
"""Each language's folder under the site root."""
HISTORY = registry.kind("history").url()
KEY = "rulesite.history"
TODAY = (
    "(() => { const d = new Date(), two = n => String(n).padStart(2, '0');"
    " return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; })()"
)
"""The device's local date, as the page must write it."""
HOSTILE = "<img src=x onerror=alert(1)>"


def say(key: str, lang: str, **values: object) -> str:
    return label(REAL_SITE, key, lang, **{k: str(v) for k, v in values.items()})


def score_url(site_url: str, lang: str, calc_id: str) -> str:
    return site_url + LANGS[lang] + registry.kind("score").url(GAME_OF[calc_id].slug)


def calc_sel(calc_id: str) -> str:
    return f".rs-calc[data-calculator='{calc_id}']"


def hist_sel(calc_id: str) -> str:
    return f".rs-hist[data-calculator='{calc_id}']"


def expected_row(calc_id: str, lang: str) -> tuple[str, str]:
    """The scores and winner a saved play of the calculator's first example shows."""
    calc, example = CALCS[calc_id], CALCS[calc_id].examples[0]
    names = [
        str(p.get("name") or say("calc_player_default", lang, n=i + 1))
        for i, p in enumerate(example.players)
    ]
    scores = " · ".join(f"{n} {t}" for n, t in zip(names, example.totals, strict=True))
    if not calc.declare_winner or len(names) == 1:
        return scores, say("hist_no_winner", lang)
    if len(example.winners) == 1:
        return scores, example.winners[0]
    return scores, say("hist_tie", lang, names=say("hist_list_join", lang).join(example.winners))


@pytest.fixture
def phone(shared_phone):
    """The worker's one phone page (downloads on), storage cleared for each test
    (tests/conftest.py); dialogs (confirm) accepted and recorded; no script or console error."""
    yield accepting_dialogs(shared_phone)
    assert shared_phone.problems == []


def finish_example(page, site_url: str, lang: str, calc_id: str) -> None:
    page.goto(score_url(site_url, lang, calc_id))
    page.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    page.locator(f"{hist_sel(calc_id)} [data-hist='finish']").click()
    today = page.evaluate(TODAY)
    note = page.locator(f"{hist_sel(calc_id)} .rs-hist__note")
    assert note.text_content() == say("hist_saved", lang, date=today)


def history_rows(page, where: str) -> list[list[str]]:
    return page.locator(f"{where} .rs-hist__plays tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", sorted(CALCS))
def test_finish_saves_the_play_and_both_histories_list_it(
    phone, site_url, lang: str, calc_id: str
) -> None:
    finish_example(phone, site_url, lang, calc_id)
    scores, winner = expected_row(calc_id, lang)
    today = phone.evaluate(TODAY)
    assert history_rows(phone, hist_sel(calc_id)) == [[today, scores, winner]]
    # Finishing the same game again does not save it twice.
    phone.locator(f"{hist_sel(calc_id)} [data-hist='finish']").click()
    assert phone.locator(f"{hist_sel(calc_id)} .rs-hist__note").text_content() == say(
        "hist_already", lang
    )
    phone.reload()
    assert history_rows(phone, hist_sel(calc_id)) == [[today, scores, winner]]
    # Every game night: the same play, with the game's name.
    phone.goto(site_url + LANGS[lang] + HISTORY)
    rows = history_rows(phone, ".rs-history")
    assert len(rows) == 1 and rows[0][0] == today and rows[0][2:] == [scores, winner]
    assert rows[0][1].startswith(GAME_OF[calc_id].title.get(lang))
    stored = json.loads(phone.evaluate(f"localStorage.getItem('{KEY}')"))
    assert stored["version"] == 1 and len(stored["plays"]) == 1
    play = stored["plays"][0]
    assert [p["total"] for p in play["players"]] == CALCS[calc_id].examples[0].totals
    assert play["date"] == today and play["calculator"] == calc_id


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_keeps_names_clears_numbers_and_undo_restores(phone, site_url, lang) -> None:
    calc_id = sorted(CALCS)[0]
    finish_example(phone, site_url, lang, calc_id)
    cells = phone.locator(f"{calc_sel(calc_id)} .rs-calc__input")
    names = phone.locator(f"{calc_sel(calc_id)} .rs-calc__name")
    before_cells = cells.evaluate_all("n => n.map(i => i.value)")
    before_names = names.evaluate_all("n => n.map(i => i.value)")
    phone.locator(f"{hist_sel(calc_id)} [data-hist='new-game']").click()
    assert set(cells.evaluate_all("n => n.map(i => i.value)")) == {""}
    assert names.evaluate_all("n => n.map(i => i.value)") == before_names
    phone.reload()  # the cleared sheet is the saved one
    assert set(cells.evaluate_all("n => n.map(i => i.value)")) == {""}
    assert names.evaluate_all("n => n.map(i => i.value)") == before_names
    # Undo (as long as the page is open and nothing was typed since): clear again, then undo.
    phone.goto(score_url(site_url, lang, calc_id))
    phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    phone.locator(f"{hist_sel(calc_id)} [data-hist='new-game']").click()
    undo = phone.locator(f"{hist_sel(calc_id)} [data-hist='undo']")
    assert undo.is_visible()
    undo.click()
    assert cells.evaluate_all("n => n.map(i => i.value)") == before_cells
    assert not undo.is_visible()
    assert phone.locator(f"{hist_sel(calc_id)} .rs-hist__note").text_content() == say(
        "hist_restored", lang
    )


def test_the_sheets_own_reset_can_be_undone(phone, site_url) -> None:
    calc_id = sorted(CALCS)[-1]
    phone.goto(score_url(site_url, "en", calc_id))
    phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    cells = phone.locator(f"{calc_sel(calc_id)} .rs-calc__input")
    before = cells.evaluate_all("n => n.map(i => i.value)")
    phone.locator(f"{calc_sel(calc_id)} [data-action='reset']").click()
    assert phone.dialogs == ["confirm"]
    assert set(cells.evaluate_all("n => n.map(i => i.value)")) == {""}
    phone.locator(f"{hist_sel(calc_id)} [data-hist='undo']").click()
    assert cells.evaluate_all("n => n.map(i => i.value)") == before


@pytest.mark.parametrize("clear", ["new-game", "reset"])
def test_loading_an_example_after_a_clear_drops_the_undo(phone, site_url, clear) -> None:
    # The example replaces the sheet: undoing the clear now would throw the example away.
    calc_id = sorted(CALCS)[0]
    phone.goto(score_url(site_url, "en", calc_id))
    example = phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first
    example.click()
    if clear == "new-game":
        phone.locator(f"{hist_sel(calc_id)} [data-hist='new-game']").click()
    else:
        phone.locator(f"{calc_sel(calc_id)} [data-action='reset']").click()
    undo = phone.locator(f"{hist_sel(calc_id)} [data-hist='undo']")
    assert undo.is_visible()
    example.click()
    cells = phone.locator(f"{calc_sel(calc_id)} .rs-calc__input")
    loaded = cells.evaluate_all("n => n.map(i => i.value)")
    assert set(loaded) != {""}
    assert not undo.is_visible()
    assert phone.locator(f"{hist_sel(calc_id)} .rs-hist__note").text_content() == ""
    # Undo stays gone: nothing brings the cleared sheet's numbers back over the example.
    phone.evaluate(f"document.querySelector(\"{hist_sel(calc_id)} [data-hist='undo']\").click()")
    assert cells.evaluate_all("n => n.map(i => i.value)") == loaded


@pytest.mark.parametrize("lang", LANGS)
def test_each_history_table_scrolls_in_a_named_box_a_keyboard_reaches(
    phone, site_url, lang
) -> None:
    # A table wider than a phone scrolls sideways in its box (axe: scrollable-region-focusable).
    calc_id = sorted(CALCS)[0]
    finish_example(phone, site_url, lang, calc_id)
    pages = {hist_sel(calc_id): score_url(site_url, lang, calc_id)}
    pages[".rs-history"] = site_url + LANGS[lang] + HISTORY
    for where, url in pages.items():
        phone.goto(url)
        boxes = phone.locator(f"{where} .rs-hist__scroll")
        boxes.first.wait_for()
        assert boxes.count() >= 2
        for box in boxes.all():
            assert box.get_attribute("tabindex") == "0"
            assert box.get_attribute("role") == "region"
            caption = box.locator("caption")
            name = box.get_attribute("aria-label")
            assert name and (not caption.count() or name == caption.text_content())


def test_names_typed_before_are_offered_and_shown_as_text(phone, site_url) -> None:
    calc_id = sorted(CALCS)[0]
    phone.goto(score_url(site_url, "en", calc_id))
    phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    name = phone.locator(f"{calc_sel(calc_id)} .rs-calc__name").first
    name.fill(HOSTILE)
    phone.locator(f"{hist_sel(calc_id)} [data-hist='finish']").click()
    offered = phone.locator("datalist#rs-hist-names option").evaluate_all(
        "o => o.map(x => x.value)"
    )
    assert HOSTILE in offered
    assert name.get_attribute("list") == "rs-hist-names"
    for where in (hist_sel(calc_id), ".rs-history"):
        if where == ".rs-history":
            phone.goto(site_url + "en/" + HISTORY)
        box = phone.locator(where)
        assert HOSTILE in box.text_content()
        assert box.locator("img").count() == 0
    assert "alert" not in phone.dialogs


def write_store(page, site_url: str, value: str) -> None:
    page.goto(site_url + "en/" + HISTORY)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, value])
    page.reload()


VERSION_0 = [
    {
        "date": "2025-03-01",
        "game": GAME_OF[sorted(CALCS)[0]].slug,
        "calculator": sorted(CALCS)[0],
        "players": [
            {"name": "Ann", "scores": {"x": 30}, "total": 30},
            {"name": "Bo", "scores": {"x": 25}, "total": 25},
        ],
        "winner": "Ann",
    }
]
"""A store as the first version wrote it: a bare list, per-line points as ``scores``."""


@pytest.mark.parametrize("lang", LANGS)
def test_a_store_of_the_older_version_still_opens(phone, site_url, lang) -> None:
    write_store(phone, site_url, json.dumps(VERSION_0))
    phone.goto(site_url + LANGS[lang] + HISTORY)
    rows = history_rows(phone, ".rs-history")
    assert [r[0] for r in rows] == ["2025-03-01"] and rows[0][2:] == ["Ann 30 · Bo 25", "Ann"]
    wins = phone.locator(".rs-history .rs-hist__names tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert wins == [["Ann", "1", "1", "30"], ["Bo", "1", "0", "25"]]
    # Reading migrates in memory; the stored text is rewritten only by the next save.
    assert phone.evaluate(f"localStorage.getItem('{KEY}')") == json.dumps(VERSION_0)


@pytest.mark.parametrize(
    "stored, key", [("{not json", "hist_damaged"), ('{"version": 99, "plays": []}', "hist_newer")]
)
def test_a_store_it_cannot_read_is_reported_and_kept(phone, site_url, stored, key) -> None:
    write_store(phone, site_url, stored)
    assert phone.locator(".rs-history .rs-hist__problem").text_content() == say(key, "en")
    calc_id = sorted(CALCS)[0]
    phone.goto(score_url(site_url, "en", calc_id))
    phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    phone.locator(f"{hist_sel(calc_id)} [data-hist='finish']").click()
    assert phone.locator(f"{hist_sel(calc_id)} .rs-hist__note").text_content() == say(
        "hist_blocked", "en"
    )
    assert phone.evaluate(f"localStorage.getItem('{KEY}')") == stored
    if key == "hist_damaged":  # the reader may start again, after a question
        phone.goto(site_url + "en/" + HISTORY)
        with phone.expect_download() as raw:
            phone.locator("[data-hist='download-raw']").click()
        assert Path(raw.value.path()).read_bytes().decode("utf-8") == stored
        phone.locator("[data-hist='start-over']").click()
        assert phone.dialogs[-1] == "confirm"
        assert json.loads(phone.evaluate(f"localStorage.getItem('{KEY}')"))["plays"] == []
        assert phone.locator(".rs-history").text_content().count(say("hist_empty", "en")) == 1


def download(page, action: str) -> str:
    with page.expect_download() as info:
        page.locator(f"[data-hist='{action}']").click()
    return Path(info.value.path()).read_bytes().decode("utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_export_csv_and_json_then_import_on_another_device(browser, phone, site_url, lang) -> None:
    calc_ids = sorted(CALCS)[:2]
    for calc_id in calc_ids:
        finish_example(phone, site_url, lang, calc_id)
    phone.goto(site_url + LANGS[lang] + HISTORY)
    shown = history_rows(phone, ".rs-history")
    text = download(phone, "export-csv")
    assert text.startswith("\ufeff") and "\r\n" in text
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    head = rows[0]
    fixed = ["date", "game", "calculator", "player"]
    assert head[:4] == [say(f"hist_csv_{k}", lang) for k in fixed]
    assert head[-3:] == [say(f"hist_csv_{k}", lang) for k in ("total", "rank", "winner")]
    players = sum(len(CALCS[c].examples[0].players) for c in calc_ids)
    assert len(rows) == 1 + players
    for calc_id in calc_ids:
        mine = [r for r in rows[1:] if r[2] == calc_id]
        assert [int(r[-3]) for r in mine] == CALCS[calc_id].examples[0].totals
    exported = download(phone, "export-json")
    data = json.loads(exported)
    assert data["version"] == 1 and len(data["plays"]) == len(calc_ids)
    # Another device: a fresh browser profile, the file imported there.
    other = browser.new_context(viewport=PHONE)
    try:
        page = other.new_page()
        page.goto(site_url + LANGS[lang] + HISTORY)
        assert page.locator(".rs-history .rs-hist__plays").count() == 0
        page.locator("[data-hist='import']").set_input_files(
            files=[{"name": "h.json", "mimeType": "application/json", "buffer": exported.encode()}]
        )
        note = page.locator(".rs-history .rs-hist__note")
        # A file is read asynchronously: wait for the page to say so.
        expect(note).to_have_text(say("hist_imported", lang, added=len(calc_ids), same=0))
        assert history_rows(page, ".rs-history") == shown
        # The same file again adds nothing.
        page.locator("[data-hist='import']").set_input_files(
            files=[{"name": "h.json", "mimeType": "application/json", "buffer": exported.encode()}]
        )
        expect(note).to_have_text(say("hist_imported", lang, added=0, same=len(calc_ids)))
        assert history_rows(page, ".rs-history") == shown
    finally:
        other.close()


def test_csv_quotes_fields_and_defuses_formulas(phone, site_url) -> None:
    calc_id = sorted(CALCS)[0]
    phone.goto(score_url(site_url, "en", calc_id))
    phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    names = phone.locator(f"{calc_sel(calc_id)} .rs-calc__name")
    names.nth(0).fill('=HYPERLINK("x")')
    names.nth(1).fill('Bo, "the" @one')
    phone.locator(f"{hist_sel(calc_id)} [data-hist='finish']").click()
    phone.goto(site_url + "en/" + HISTORY)
    text = download(phone, "export-csv")
    assert '"\'=HYPERLINK(""x"")"' in text  # quoted (it holds quotes), and a quote first
    assert '"Bo, ""the"" @one"' in text
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert [r[3] for r in rows[1:3]] == ['\'=HYPERLINK("x")', 'Bo, "the" @one']


GOOD_PLAY = {
    "id": "a1",
    "date": "2026-01-02",
    "game": "g",
    "calculator": "c",
    "players": [{"name": "Ann", "lines": {"x": 1}, "total": 1, "rank": 1}],
    "winners": [],
    "outcome": "none",
}


def bad_files() -> list[tuple[str, str]]:
    def with_play(**change: object) -> str:
        return json.dumps({"version": 1, "plays": [{**GOOD_PLAY, **change}]})

    return [
        ("not json at all", "hist_bad_json"),
        ('{"plays": "many"}', "hist_bad_shape"),
        (with_play(date="yesterday"), "hist_bad_shape"),
        (
            with_play(players=[{"name": "Ann", "lines": {}, "total": "9", "rank": 1}]),
            "hist_bad_shape",
        ),
        (with_play(winners=["Nobody"], outcome="single"), "hist_bad_shape"),
        (with_play(game="../x"), "hist_bad_shape"),
        (json.dumps({"version": 7, "plays": []}), "hist_bad_version"),
    ]


@pytest.mark.parametrize("text, reason", bad_files())
def test_a_malformed_import_is_refused_with_a_message(phone, site_url, text, reason) -> None:
    good = json.dumps({"format": "rulesite-history", "version": 1, "plays": [GOOD_PLAY]})
    write_store(phone, site_url, good)
    phone.locator("[data-hist='import']").set_input_files(
        files=[{"name": "x.json", "mimeType": "application/json", "buffer": text.encode()}]
    )
    note = phone.locator(".rs-history .rs-hist__note")
    expect(note).to_have_text(say("hist_import_bad", "en", reason=say(reason, "en")))
    assert phone.evaluate(f"localStorage.getItem('{KEY}')") == good


VIEW_AND_PAGE = """async ([view, options]) => (await axe.run(document, options)).violations
  .map(v => [v, ['serious', 'critical'].includes(v.impact) ? v.nodes
    : v.nodes.filter(n => document.querySelector(n.target[0])?.closest(view))])
  .filter(([v, nodes]) => nodes.length)
  .map(([v, nodes]) => `${v.id} (${v.impact}): ${nodes.map(n => n.target).slice(0, 3)}`)"""
"""axe over the whole page once: its serious and critical findings anywhere, and its findings
of any impact inside ``view``."""


def violations(page, axe_script: Path, view: str, rules: list[str] | None = None) -> list[str]:
    """axe's serious and critical findings on the page, and every finding of any impact inside
    ``view`` (the new views), in one run: of every rule, or of ``rules``."""
    settled(page)
    page.add_script_tag(path=str(axe_script))
    return list(page.evaluate(VIEW_AND_PAGE, [view, axe_options(rules)]))


@pytest.mark.parametrize("lang, scheme", light_in_each_dark_in_one(LANGS))
def test_the_history_views_pass_axe(phone, site_url, axe_script, lang, scheme) -> None:
    phone.emulate_media(color_scheme=scheme)
    rules = scheme_rules(scheme)
    calc_id = sorted(CALCS)[0]
    finish_example(phone, site_url, lang, calc_id)
    phone.locator(f"{hist_sel(calc_id)} [data-hist='new-game']").click()  # the undo shows
    assert violations(phone, axe_script, hist_sel(calc_id), rules) == []
    phone.goto(site_url + LANGS[lang] + HISTORY)
    assert phone.locator(".rs-history .rs-hist__plays").count() == 1
    assert violations(phone, axe_script, ".rs-history", rules) == []
