"""The games index in a phone-sized Chromium: filters for the time the group has and the best
player count, the state in the address (reload, back, a shared link), the name order in each
language, sortable headings; the rows a large catalogue builds from ``games/rows.json``; and
old links into the one-page glossary and topic index, forwarded to the pages that replaced them.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from rulesite.catalog import load_catalog
from rulesite.collate import reading_key
from rulesite.pages import indexes
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import PHONE, serve_site
from tests.projects import good_game_text, make_project, other_game
from tests.site_checks import LANGS, label
from tests.test_site import CATALOG

pytestmark = pytest.mark.browser

GAMES = CATALOG.games


@pytest.fixture
def phone(shared_phone):
    """The worker's one phone page, storage cleared for each test (tests/conftest.py)."""
    return shared_phone


def shown_titles(page) -> list[str]:
    return page.eval_on_selector_all(
        "#rs-games tbody tr", "rows => rows.filter(r => !r.hidden).map(r => r.dataset.title)"
    )


def query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def open_index(page, site_url: str, lang: str, search: str = "") -> None:
    page.goto(f"{site_url}{LANGS[lang]}games/{search}")
    page.wait_for_selector("#rs-filter")


# --- The order of names ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_first_order_is_the_name_order_of_the_language(phone, site_url, lang) -> None:
    open_index(phone, site_url, lang)
    first = shown_titles(phone)
    assert sorted(first) == sorted(g.title.get(lang) for g in GAMES)
    # The browser's own collator for the language's sort locale (Chinese: pinyin).
    locale = label(CATALOG.site, "sort_locale", lang)
    by_collator = phone.evaluate(
        "([titles, locale]) => titles.slice().sort(new Intl.Collator(locale).compare)",
        [first, locale],
    )
    assert first == by_collator
    title = phone.locator('#rs-games th[data-sort="title"]')
    assert title.get_attribute("aria-sort") == "ascending"
    # Sorting by name, the other way and back, gives the same first order.
    # The new order is read once the heading says it is sorted (a loaded machine can be slow).
    title.locator("button").click()
    expect(title).to_have_attribute("aria-sort", "descending")
    assert shown_titles(phone) == first[::-1]
    title.locator("button").click()
    expect(title).to_have_attribute("aria-sort", "ascending")
    assert shown_titles(phone) == first
    assert phone.problems == []


def test_pinyin_order_differs_from_code_points_and_the_page_follows_it(phone, site_url) -> None:
    # Proof that the collation is pinyin's: 中 (zhōng) before 北 (běi) by code point, after it
    # by pinyin; and Chinese names come before Latin ones (code points: the other way).
    open_index(phone, site_url, "zh")
    locale = label(CATALOG.site, "sort_locale", "zh")
    order = phone.evaluate(
        "locale => ['中', '北', 'A'].sort(new Intl.Collator(locale).compare)", locale
    )
    assert order == ["北", "中", "A"]


# --- Headings look sortable -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_sortable_headings_are_buttons_with_an_arrow_and_aria_sort(phone, site_url, lang) -> None:
    open_index(phone, site_url, lang)
    headings = phone.locator("#rs-games th[data-sort]")
    assert headings.count() == 4
    for index in range(headings.count()):
        heading = headings.nth(index)
        button = heading.locator("button.rs-sort")
        assert button.count() == 1 and button.is_visible()
        arrow = button.evaluate("b => getComputedStyle(b, '::after').content")
        assert arrow not in ("none", "normal", '""'), arrow
    weight = phone.locator('#rs-games th[data-sort="weight"]')
    weight.locator("button").click()
    assert weight.get_attribute("aria-sort") == "ascending"
    assert phone.locator('#rs-games th[data-sort="title"]').get_attribute("aria-sort") is None
    assert [
        w
        for w in phone.eval_on_selector_all(
            "#rs-games tbody tr", "rows => rows.map(r => Number(r.dataset.weight))"
        )
    ] == sorted(g.card.weight for g in GAMES)


# --- Filters ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_time_choices_say_how_much_time_the_group_has(phone, site_url, lang) -> None:
    open_index(phone, site_url, lang)
    options = phone.eval_on_selector_all(
        "#rs-filter-time option", "os => os.map(o => [o.value, o.textContent])"
    )[1:]
    assert options
    for value, text in options:
        minutes = int(value)
        if minutes >= 120 and minutes % 60 == 0:
            expected = label(CATALOG.site, "filter_have_hours", lang, hours=str(minutes // 60))
        else:
            expected = label(CATALOG.site, "filter_have_minutes", lang, minutes=value)
        assert text == expected
        phone.locator("#rs-filter-time").select_option(value)
        kept = {g.title.get(lang) for g in GAMES if g.card.play_time.min <= minutes}
        assert set(shown_titles(phone)) == kept, value


@pytest.mark.parametrize("lang", LANGS)
def test_every_player_count_and_best_at_that_count(phone, site_url, lang) -> None:
    open_index(phone, site_url, lang)
    counts = phone.eval_on_selector_all(
        "#rs-filter-players option", "os => os.map(o => o.value).filter(Boolean)"
    )
    every = {n for g in GAMES for n in range(g.card.players.min, g.card.players.max + 1)}
    assert {int(n) for n in counts} == every
    best = phone.locator("#rs-filter-best")
    assert best.is_disabled()  # until a count is chosen
    for n in sorted(every):
        phone.locator("#rs-filter-players").select_option(str(n))
        if not best.is_checked():
            best.check()
        kept = {
            g.title.get(lang)
            for g in GAMES
            if g.card.best_players.min <= n <= g.card.best_players.max
        }
        assert set(shown_titles(phone)) == kept, n
        best.uncheck()
        plays = {g.title.get(lang) for g in GAMES if g.card.players.min <= n <= g.card.players.max}
        assert set(shown_titles(phone)) == plays, n
    assert phone.problems == []


# --- The address keeps the state ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_filters_and_sort_survive_reload_back_and_a_shared_link(
    browser, phone, site_url, lang
) -> None:
    open_index(phone, site_url, lang)
    assert query(phone) == {}
    game = max(GAMES, key=lambda g: g.card.players.max)
    n = str(game.card.best_players.min)
    phone.locator("#rs-filter-players").select_option(n)
    phone.locator("#rs-filter-best").check()
    weight = phone.locator('#rs-games th[data-sort="weight"]')
    weight.locator("button").click()
    weight.locator("button").click()  # heaviest first
    assert query(phone) == {"players": [n], "best": ["1"], "sort": ["-weight"]}
    state = shown_titles(phone)
    assert game.title.get(lang) in state

    def same_state(page) -> None:
        assert page.locator("#rs-filter-players").input_value() == n
        assert page.locator("#rs-filter-best").is_checked()
        heading = page.locator('#rs-games th[data-sort="weight"]')
        assert heading.get_attribute("aria-sort") == "descending"
        assert shown_titles(page) == state

    phone.reload()
    phone.wait_for_selector("#rs-filter")
    same_state(phone)
    # Back: one step before the last click (sorted by weight, lightest first).
    phone.go_back()
    phone.wait_for_function("() => new URL(location.href).searchParams.get('sort') === 'weight'")
    assert weight.get_attribute("aria-sort") == "ascending"
    phone.go_back()
    phone.wait_for_function("() => !new URL(location.href).searchParams.has('sort')")
    assert phone.locator('#rs-games th[data-sort="title"]').get_attribute("aria-sort") == (
        "ascending"
    )
    assert phone.locator("#rs-filter-best").is_checked()
    phone.go_forward()
    phone.go_forward()
    phone.wait_for_function("() => new URL(location.href).searchParams.get('sort') === '-weight'")
    same_state(phone)
    # A shared link opens in the same state elsewhere.
    other = browser.new_context(viewport=PHONE)
    shared = other.new_page()
    shared.goto(phone.url)
    shared.wait_for_selector("#rs-filter")
    same_state(shared)
    other.close()
    # Unknown values in an address are ignored, not an error.
    open_index(phone, site_url, lang, "?players=99&time=abc&sort=nonsense")
    assert phone.locator("#rs-filter-players").input_value() == ""
    assert len(shown_titles(phone)) == len(GAMES)
    assert phone.problems == []


# --- A large catalogue: rows from games/rows.json -------------------------------------------------


@pytest.fixture(scope="module")
def large_site(tmp_path_factory):
    """A fixture site built as if its catalogue were over the table's limit (one row)."""
    games = {"mini-game.yaml": good_game_text(), "plain-game.yaml": other_game("plain-game")}
    project = Project(make_project(tmp_path_factory.mktemp("large") / "p", games))
    patch = pytest.MonkeyPatch()
    patch.setattr(indexes, "TABLE_ROWS", 1)
    try:
        build(project)
    finally:
        patch.undo()
    with serve_site(project.site_dir) as url:
        yield url, load_catalog(project)


@pytest.mark.parametrize("lang", LANGS)
def test_a_large_catalogue_builds_its_rows_and_lists_games_plainly_without_js(
    browser, shared_phone, large_site, lang
) -> None:
    url, catalog = large_site
    page = shared_phone
    page.goto(f"{url}{LANGS[lang]}games/")
    page.wait_for_selector("#rs-games tbody tr")
    assert page.locator(".rs-games-plain").is_hidden()
    titles = shown_titles(page)
    assert sorted(titles) == sorted(g.title.get(lang) for g in catalog.games)
    for game in catalog.games:
        row = page.locator(f'#rs-games tbody tr[data-title="{game.title.get(lang)}"]')
        hrefs = row.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        tabs = ["", "rules/", "faq/"] + (["score/"] if game.scoring else [])
        assert hrefs == [f"{game.slug}/{tab}" for tab in tabs]
        # Each link lands on a page.
        for href in hrefs:
            assert page.request.get(f"{url}{LANGS[lang]}games/{href}").ok, href
    most = max(g.card.players.max for g in catalog.games)
    page.locator("#rs-filter-players").select_option(str(most))
    assert set(shown_titles(page)) == {
        g.title.get(lang) for g in catalog.games if g.card.players.max == most
    }
    plain = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    plain.goto(f"{url}{LANGS[lang]}games/")
    assert plain.locator("#rs-games").is_hidden()
    links = plain.locator(".rs-games-plain a")
    assert links.count() == len(catalog.games)
    assert links.evaluate_all("ls => ls.map(a => a.getAttribute('href'))") == [
        f"{g.slug}/"
        for g in sorted(catalog.games, key=lambda g: reading_key(g.title.get(lang), lang))
    ]
    plain.context.close()


# --- Old links into the one-page glossary and topic index -----------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_an_old_glossary_link_lands_on_the_term_on_its_games_page(phone, site_url, lang) -> None:
    game = next(g for g in GAMES if g.glossary)
    term = game.glossary[-1]
    root = f"{site_url}{LANGS[lang]}"
    phone.goto(f"{root}glossary/#{game.slug}--{term.id}")
    phone.wait_for_url(f"{root}glossary/{game.slug}/#term-{term.id}")
    box = phone.locator(f"#term-{term.id}").bounding_box()
    assert box and 0 <= box["y"] < PHONE["height"]
    # An old link to a game's part of the glossary lands on its page.
    phone.goto(f"{root}glossary/#{game.slug}")
    phone.wait_for_url(f"{root}glossary/{game.slug}/")
    # An unknown anchor stays on the index.
    phone.goto(f"{root}glossary/#no-such-game--x")
    phone.wait_for_timeout(300)
    assert phone.url == f"{root}glossary/#no-such-game--x"
    assert phone.problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_an_old_topic_link_lands_on_the_topics_page(phone, site_url, lang) -> None:
    tag = next(tag for g in GAMES for r in g.faq for tag in r.tags)
    root = f"{site_url}{LANGS[lang]}"
    phone.goto(f"{root}topics/#{tag}")
    phone.wait_for_url(f"{root}topics/{tag}/")
    assert phone.locator(".rs-topic-list a").count() >= 1
    assert phone.problems == []


def test_the_large_fixture_is_really_over_the_limit(tmp_path: Path) -> None:
    # What large_site relies on: the real limit lets the real site's table be written whole.
    assert len(GAMES) <= indexes.TABLE_ROWS < 300
