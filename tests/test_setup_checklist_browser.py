"""The player aid and the setup checklist in headless Chromium on a 360 × 740 phone, in every
language (issue 19, items 8 and 9): the aid on the first screens with its drawing visible and
readable, its links landing on sections, one printed page for it; the checklist's count
chooser, ticks that survive a reload, a reset that asks first; no serious axe-core violation.
Games and steps are read from data/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.engine.projects import site_path
from rulesite.model import Game
from rulesite.project import Project
from tests.helpers import PHONE, light_in_each_dark_in_one
from tests.projects import REAL
from tests.test_accessibility import axe_options, scheme_rules, settled

pytestmark = pytest.mark.browser

CATALOG = load_catalog(Project(REAL))
LANGS = [site_path(language) for language in CATALOG.site.languages]
AID_GAMES = [game for game in CATALOG.games if game.aid and game.aid.phases]
CHECKLIST_GAMES = [g for g in CATALOG.games if g.setup or (g.aid and g.aid.setup_steps)]
A4_PRINTABLE = {"width": 688, "height": 1031}
"""An A4 page inside the print style's 12 mm × 14 mm margins, in CSS pixels (96 per inch)."""
SMALLEST_TEXT = 11
"""Smallest drawn size, in CSS pixels, of the diagram's phase titles on the phone."""


def step_count(game: Game, players: int) -> int:
    """How many checklist steps the data gives for ``players``."""
    steps = game.aid.setup_steps if game.aid else []
    count = sum(
        1
        for step in steps
        if step.players is None or step.players.min <= players <= step.players.max
    )
    return count + sum(
        len(table.columns) for table in game.setup for row in table.rows if row.players == players
    )


def counts_with_steps(game: Game) -> list[int]:
    players = range(game.card.players.min, game.card.players.max + 1)
    return [count for count in players if step_count(game, count)]


BEHAVIOUR_GAME = max(CHECKLIST_GAMES, key=lambda game: len(counts_with_steps(game)))
"""The game whose checklist the tests of its behaviour use: the one with the most player counts
that have steps (switching between counts is exercised). The checklist is one script on every
game; which steps each game lists is checked on every game without a browser
(``test_player_aid.py::test_the_checklist_lists_every_step_with_its_player_counts``), and its
markup under axe on every game below."""


def rules_url(site_url: str, lang: str, game: Game) -> str:
    return f"{site_url}{lang}games/{game.slug}/rules/"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", AID_GAMES, ids=lambda game: game.slug)
def test_the_aid_is_on_the_first_screens_with_a_readable_drawing(
    shared_phone, site_url, lang: str, game: Game
) -> None:
    shared_phone.goto(rules_url(site_url, lang, game))
    aid = shared_phone.locator("section.rs-aid")
    box = aid.bounding_box()
    assert box is not None and box["y"] < PHONE["height"]  # it starts on the first screen
    svg = aid.locator("svg.rs-aid__diagram")
    assert svg.is_visible()
    drawn = svg.bounding_box()
    assert drawn is not None and drawn["y"] < PHONE["height"]
    assert drawn["x"] >= 0 and drawn["x"] + drawn["width"] <= PHONE["width"]
    for name in svg.locator("text.rs-aid__name").all():
        assert name.bounding_box()["height"] >= SMALLEST_TEXT
    # The whole round's structure (drawing and list) fits in the first two screens.
    phases = aid.locator("ol.rs-aid__phases").bounding_box()
    assert phases["y"] + phases["height"] <= 2 * PHONE["height"]
    assert shared_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert shared_phone.problems == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", AID_GAMES, ids=lambda game: game.slug)
def test_each_phase_link_lands_on_its_section(
    shared_phone, site_url, lang: str, game: Game
) -> None:
    shared_phone.goto(rules_url(site_url, lang, game))
    links = shared_phone.locator("ol.rs-aid__phases a")
    assert links.count() == len(game.aid.phases)
    for index, phase in enumerate(game.aid.phases):
        assert links.nth(index).get_attribute("href") == f"#{phase.rule}"
        assert shared_phone.locator(f"[id='{phase.rule}']").count() == 1
    last = game.aid.phases[-1]
    links.nth(len(game.aid.phases) - 1).click()
    shared_phone.wait_for_function("id => location.hash === '#' + id", arg=last.rule)
    heading = shared_phone.locator(f"[id='{last.rule}']").bounding_box()
    assert heading is not None and 0 <= heading["y"] < PHONE["height"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", AID_GAMES, ids=lambda game: game.slug)
def test_printed_the_aid_fits_one_page_of_its_own(
    shared_page, site_url, lang: str, game: Game
) -> None:
    page = shared_page  # the module's page, back to its own size and media for the next test
    page.set_viewport_size(A4_PRINTABLE)
    page.emulate_media(media="print")
    page.goto(rules_url(site_url, lang, game))
    aid = page.locator("section.rs-aid")
    box = aid.bounding_box()
    assert box is not None and box["y"] + box["height"] <= A4_PRINTABLE["height"]
    assert page.locator("svg.rs-aid__diagram").is_visible()
    assert aid.evaluate("a => getComputedStyle(a).breakAfter") == "page"
    assert not page.locator("details.rs-checklist").is_visible()  # a control means nothing on paper


def pdf_pages(pdf: bytes) -> int:
    """Pages of a PDF Chromium wrote (each is an uncompressed ``/Type /Page`` object)."""
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", AID_GAMES, ids=lambda game: game.slug)
def test_printed_to_a4_the_aid_is_the_first_page(
    shared_page, site_url, lang: str, game: Game
) -> None:
    shared_page.goto(rules_url(site_url, lang, game))
    # The title and the aid alone: one page, so the aid fits one.
    shared_page.evaluate(
        """() => { const aid = document.querySelector("section.rs-aid");
            while (aid.nextElementSibling) aid.nextElementSibling.remove(); }"""
    )
    assert pdf_pages(shared_page.pdf(format="A4")) == 1
    # One short line after it starts a second page: the rules follow on their own.
    shared_page.evaluate(
        """() => document.querySelector("section.rs-aid").after(document.createElement("p"))"""
    )
    shared_page.evaluate(
        """() => { document.querySelector("section.rs-aid + p").textContent = "x"; }"""
    )
    assert pdf_pages(shared_page.pdf(format="A4")) == 2


def open_checklist(page):
    checklist = page.locator("details.rs-checklist")
    checklist.wait_for(state="visible")
    if checklist.get_attribute("open") is None:
        checklist.locator("summary").click()
    return checklist


def visible_steps(checklist):
    return checklist.locator("li[data-step]:visible")


@pytest.mark.parametrize("lang", LANGS)
def test_ticks_survive_a_reload_and_reset_asks_first(phone, site_url, lang: str) -> None:
    game = BEHAVIOUR_GAME
    counts = counts_with_steps(game)
    chosen, other = counts[-1], counts[0]
    phone.goto(rules_url(site_url, lang, game))
    checklist = open_checklist(phone)
    checklist.locator(f".rs-checklist__count[data-players='{chosen}']").click()
    assert (
        checklist.locator(f".rs-checklist__count[data-players='{chosen}']").get_attribute(
            "aria-pressed"
        )
        == "true"
    )
    steps = visible_steps(checklist)
    assert steps.count() == step_count(game, chosen)
    first = steps.first.locator("input[type=checkbox]")
    first.check()
    progress = checklist.locator(".rs-checklist__progress")
    assert "1" in progress.text_content()

    phone.reload()
    checklist = phone.locator("details.rs-checklist")
    checklist.wait_for(state="visible")
    assert checklist.get_attribute("open") is not None  # left open, as the reader left it
    steps = visible_steps(checklist)
    assert steps.count() == step_count(game, chosen)
    assert steps.first.locator("input").is_checked()

    # Ticks belong to a player count: another count starts unticked, and coming back keeps them.
    if other != chosen:
        checklist.locator(f".rs-checklist__count[data-players='{other}']").click()
        assert visible_steps(checklist).count() == step_count(game, other)
        assert not visible_steps(checklist).first.locator("input").is_checked()
        checklist.locator(f".rs-checklist__count[data-players='{chosen}']").click()
        assert visible_steps(checklist).first.locator("input").is_checked()

    questions = []

    def answer(accept: bool):
        def handle(dialog) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return handle

    reset = checklist.locator(".rs-checklist__reset")
    phone.once("dialog", answer(False))
    reset.click()
    assert questions == [checklist.get_attribute("data-confirm")]
    assert visible_steps(checklist).first.locator("input").is_checked()  # cancel keeps them
    phone.once("dialog", answer(True))
    reset.click()
    assert len(questions) == 2
    assert not visible_steps(checklist).first.locator("input").is_checked()
    phone.reload()
    checklist = open_checklist(phone)
    assert checklist.locator("li[data-step]:visible input:checked").count() == 0
    assert phone.problems == []


@pytest.mark.parametrize("game", CHECKLIST_GAMES[:1], ids=lambda game: game.slug)
def test_without_javascript_the_setup_tables_stay_and_no_checklist_shows(
    browser, site_url, game: Game
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(rules_url(site_url, LANGS[0], game))
    assert not page.locator("details.rs-checklist").is_visible()
    for table in game.setup:
        assert page.locator(f"[id='{table.id}']").is_visible()
    context.close()


@pytest.mark.parametrize(
    "lang, game, scheme",
    # Every game in the light scheme in each language; the dark one (its colours only) on one
    # game in one language (helpers.light_in_each_dark_in_one).
    [
        (lang, game, scheme)
        for lang, scheme in light_in_each_dark_in_one(LANGS)
        for game in (CHECKLIST_GAMES if scheme == "light" else [BEHAVIOUR_GAME])
    ],
    ids=lambda value: getattr(value, "slug", value),
)
def test_axe_finds_nothing_serious_with_the_checklist_open(
    shared_phone, site_url, axe_script: Path, lang: str, game: Game, scheme: str
) -> None:
    shared_phone.emulate_media(color_scheme=scheme)
    shared_phone.goto(rules_url(site_url, lang, game))
    checklist = open_checklist(shared_phone)
    visible_steps(checklist).first.locator("input").check()
    settled(shared_phone)  # the colours as they end up, not halfway through a transition
    # In the dark scheme only the rules about colour, and on one game: the scheme changes
    # colours, not markup (as test_accessibility.py checks it); every game's markup is checked
    # in the light one.
    only = axe_options(scheme_rules(scheme))
    # The whole page: nothing serious, but for one thing that is not this view's: on a phone a
    # wide setup table scrolls sideways in Material's wrapper, which takes no keyboard focus
    # (scrollable-region-focusable; on the desktop, where test_accessibility looks, it fits).
    shared_phone.add_script_tag(path=str(axe_script))
    found = shared_phone.evaluate(
        """async only => (await axe.run(document, {...only, rules: {"scrollable-region-focusable":
            {enabled: false}}})).violations.filter(v => ["serious", "critical"].includes(v.impact))
            .map(v => v.id + ": " + v.help)""",
        only,
    )
    assert found == []
    # The new views themselves: no violation of any impact.
    found = shared_phone.evaluate(
        """async only => (await axe.run({include: [["section.rs-aid"], ["details.rs-checklist"]]},
            only)).violations.map(v => v.id + ": " + v.help + " " + v.nodes.map(n => n.target)
            .join())""",
        only,
    )
    assert found == []
