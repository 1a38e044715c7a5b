"""One tap to any ruling (issue 11, item 2) and the typography fixes, in headless Chromium:
jump lists, topic tags and the topic index, the games index's filters and sorting (and the plain
table without JavaScript), the ¶ share link, tap targets and unbroken ranges at 360 px."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.helpers import PHONE
from tests.site_checks import LANGS, PAGES, label, page_kinds, page_paths
from tests.test_site import CATALOG

pytestmark = pytest.mark.browser

GAMES = CATALOG.games
LISTED = {
    "rules": lambda game: (
        [s.id for s in game.rules]
        + [t.id for t in game.setup if not t.rule]
        + (["glossary"] if game.glossary else [])
    ),
    "faq": lambda game: [r.id for r in game.faq],
}
"""The anchors each page kind's jump list links, in order (the rules page: its sections, then
the setup tables of their own and the glossary)."""


@pytest.fixture
def phone(shared_phone):
    """Every check here only loads and reads pages (a filter is reset, a sort is a click): the
    worker's one phone page (tests/conftest.py)."""
    return shared_phone


def script_errors(page) -> list[str]:
    """Script errors a page met, without failed requests (test_browser.py checks those)."""
    return [p for p in page.problems if not re.match(r"\d{3} |failed |Failed to load", p)]


def game_url(site_url: str, lang: str, game, kind: str) -> str:
    return f"{site_url}{LANGS[lang]}games/{game.slug}/{PAGES[kind]}"


# --- Jump lists -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", LISTED)
@pytest.mark.parametrize("lang", LANGS)
def test_jump_list_reaches_every_section_in_one_tap_on_a_phone(
    phone, site_url, lang: str, kind: str
) -> None:
    for game in GAMES:
        ids = LISTED[kind](game)
        phone.goto(game_url(site_url, lang, game, kind))
        jump = phone.locator("nav.rs-jump")
        assert jump.is_visible()
        links = jump.locator("a")
        assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
            f"#{id}" for id in ids
        ]
        # The list opens above the fold: the first link is on the first screen, or, on a rules
        # page that starts with the player aid (issue 19: the aid comes first, its phases
        # linked), on the screen that follows the aid.
        aid = phone.locator(".rs-aid")
        fold = PHONE["height"]
        if aid.count():
            box = aid.bounding_box()
            fold = box["y"] + box["height"] + PHONE["height"]
        assert links.first.bounding_box()["y"] < fold
        links.last.click()
        phone.wait_for_url(f"**#{ids[-1]}")
        top = phone.locator(f"#{ids[-1]}").bounding_box()["y"]
        assert 0 <= top < PHONE["height"] - 40, (game.slug, top)  # on screen
    assert script_errors(phone) == []


def test_jump_list_works_by_keyboard_and_gives_way_to_the_toc_on_a_desktop(
    phone, page, site_url
) -> None:
    game = GAMES[0]
    phone.goto(game_url(site_url, "zh", game, "faq"))
    # Tab from the top of the page: the list's first link comes within a few steps.
    for _ in range(30):
        phone.keyboard.press("Tab")
        if phone.evaluate("!!document.activeElement.closest('nav.rs-jump')"):
            break
    assert phone.evaluate("document.activeElement.getAttribute('href')") == f"#{game.faq[0].id}"
    phone.keyboard.press("Enter")
    phone.wait_for_url(f"**#{game.faq[0].id}")
    # A desktop has Material's table of contents at the right: the jump list is not shown.
    page.goto(game_url(site_url, "zh", game, "faq"))
    assert not page.locator("nav.rs-jump").is_visible()
    assert page.locator(".md-sidebar--secondary .md-nav__link").first.is_visible()


# --- Topic tags and the topic index ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_topic_tag_lands_on_a_page_listing_its_ruling(
    page_survey, shared_page, site_url, lang
) -> None:
    # Read from every page as the run's survey saw it (tests/page_survey.py), by path from the
    # server's root: each tag under a ruling, and the rulings each topic page lists.
    site = urlsplit(site_url).path

    def links(path: str) -> list[list[str]]:
        return page_survey[path.removeprefix(site)].topic_links

    tags: dict[str, set[str]] = {}  # topic path -> the rulings tagged with it
    for game in GAMES:
        faq = urlsplit(game_url(site_url, lang, game, "faq")).path
        found = links(faq)
        for ruling in game.faq:
            hrefs = [href for where, href in found if where == ruling.id][: len(ruling.tags)]
            assert [h.rstrip("/").rsplit("/", 1)[1] for h in hrefs] == list(ruling.tags)
            for href in hrefs:
                tags.setdefault(href, set()).add(f"{faq}#{ruling.id}")
    for href, rulings in tags.items():
        listed = {link for where, link in links(href) if where == "listed"}
        assert rulings <= listed, (href, rulings - listed)
    # And back: a ruling listed under a topic opens at its question.
    page = shared_page
    page.goto(site_url + next(iter(tags)).removeprefix(site))
    first = page.locator(".rs-topic-list a").first
    target = first.get_attribute("href").rsplit("#", 1)[1]
    first.click()
    page.wait_for_url(f"**/faq/#{target}")
    assert 0 <= page.locator(f"#{target}").bounding_box()["y"] < 450
    assert script_errors(page) == []


@pytest.mark.parametrize("lang", LANGS)
def test_topic_index_is_in_the_navigation_and_linked_from_home(phone, site_url, lang) -> None:
    phone.goto(site_url + LANGS[lang])
    home_link = phone.locator('.md-content a[href="topics/"]')
    assert home_link.count() == 1 and home_link.is_visible()
    phone.locator("label.md-header__button[for='__drawer']").click()
    drawer = phone.locator('.md-nav--primary a.md-nav__link[href="topics/"]')
    assert drawer.is_visible()
    assert drawer.inner_text().strip() == label(CATALOG.site, "page_topics", lang)


# --- The games index ------------------------------------------------------------------------------


def shown_titles(page) -> list[str]:
    return page.eval_on_selector_all(
        "#rs-games tbody tr", "rows => rows.filter(r => !r.hidden).map(r => r.dataset.title)"
    )


def titles_where(lang: str, keep) -> set[str]:
    return {game.title.get(lang) for game in GAMES if keep(game.card)}


@pytest.mark.parametrize("lang", LANGS)
def test_filter_by_player_count_shows_only_the_games_for_that_count(phone, site_url, lang):
    phone.goto(site_url + LANGS[lang] + "games/")
    select = phone.locator("#rs-filter-players")
    assert select.is_visible()
    values = select.locator("option").evaluate_all("options => options.map(o => o.value)")
    assert values[0] == "" and len(values) > 2
    for value in values[1:]:
        select.select_option(value)
        expected = titles_where(
            lang, lambda card, n=int(value): card.players.min <= n <= card.players.max
        )
        assert set(shown_titles(phone)) == expected, value
        status = phone.locator(".rs-filter__status").inner_text()
        if expected:
            assert status == label(
                CATALOG.site, "filter_shown", lang, shown=str(len(expected)), total=str(len(GAMES))
            )
        else:
            assert status == label(CATALOG.site, "filter_none", lang)
    phone.locator(".rs-filter__reset").click()
    phone.wait_for_function("document.querySelectorAll('#rs-games tbody tr[hidden]').length === 0")
    assert script_errors(phone) == []


def test_filters_combine_and_keyboard_reaches_them(phone, site_url) -> None:
    phone.goto(site_url + "en/games/")
    game = max(GAMES, key=lambda g: g.card.weight)
    mechanic = game.card.mechanics[0]
    phone.locator("#rs-filter-mechanic").select_option(mechanic)
    assert set(shown_titles(phone)) == titles_where("en", lambda c: mechanic in c.mechanics)
    # The lightest weight offered leaves out the heaviest game.
    weights = phone.eval_on_selector_all(
        "#rs-filter-weight option", "options => options.map(o => o.value).filter(Boolean)"
    )
    phone.locator("#rs-filter-weight").select_option(weights[0])
    limit = float(weights[0])
    expected = titles_where("en", lambda c: mechanic in c.mechanics and c.weight <= limit)
    assert set(shown_titles(phone)) == expected and game.title.get("en") not in expected
    phone.locator("#rs-filter-time").focus()
    phone.keyboard.press("Shift+Tab")
    assert phone.evaluate("document.activeElement.id") == "rs-filter-players"


@pytest.mark.parametrize("lang", LANGS)
def test_sorting_by_a_column_heading(shared_page, site_url, lang) -> None:
    page = shared_page
    page.goto(site_url + LANGS[lang] + "games/")
    weight = page.locator('#rs-games th[data-sort="weight"]')
    by_weight = [g.title.get(lang) for g in sorted(GAMES, key=lambda g: g.card.weight)]
    weight.locator("button").click()
    assert shown_titles(page) == by_weight
    assert weight.get_attribute("aria-sort") == "ascending"
    weight.locator("button").press("Enter")  # a button: the keyboard sorts too
    assert shown_titles(page) == by_weight[::-1]
    assert weight.get_attribute("aria-sort") == "descending"
    players = page.locator('#rs-games th[data-sort="players"]')
    players.locator("button").click()
    key = lambda g: (g.card.players.min, g.card.players.max)  # noqa: E731
    assert [key(g) for g in sorted(GAMES, key=key)] == [
        key(next(g for g in GAMES if g.title.get(lang) == title)) for title in shown_titles(page)
    ]
    assert weight.get_attribute("aria-sort") is None
    assert script_errors(page) == []


@pytest.mark.parametrize("lang", LANGS)
def test_without_javascript_the_games_table_is_complete(browser, site_url, lang) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    plain = context.new_page()
    plain.goto(site_url + LANGS[lang] + "games/")
    assert plain.locator("#rs-filter").count() == 0
    assert not plain.locator(".rs-filter-spec").is_visible()
    rows = plain.locator("#rs-games tbody tr")
    assert rows.count() == len(GAMES)
    for game in GAMES:
        row = plain.locator(f'#rs-games tbody tr[data-title="{game.title.get(lang)}"]')
        assert row.is_visible()
        hrefs = row.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        kinds = page_kinds(game)
        assert hrefs == [f"{game.slug}/{PAGES[kind]}" for kind in kinds]
    context.close()


# --- The ¶ share link -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_pilcrow_copies_the_rulings_link_and_says_so(browser, site_url, lang) -> None:
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone = context.new_page()
    game = GAMES[0]
    ruling = game.faq[-1]
    url = game_url(site_url, lang, game, "faq")
    phone.goto(url)
    toast = phone.locator(".rs-toast")
    assert not toast.is_visible()
    phone.locator(f"h2#{ruling.id} > a.headerlink").click()
    phone.wait_for_url(f"**#{ruling.id}")  # still an ordinary link
    toast.wait_for(state="visible")
    assert toast.inner_text() == label(CATALOG.site, "permalink_copied", lang)
    assert toast.get_attribute("role") == "status"
    assert phone.evaluate("navigator.clipboard.readText()") == f"{url}#{ruling.id}"
    context.close()


# --- Typography and tap targets at 360 px ---------------------------------------------------------

PATHS = [lang + path for lang in LANGS.values() for path in page_paths(GAMES)]


@pytest.mark.parametrize("path", PATHS)
def test_every_tap_target_is_at_least_24px_on_a_phone(page_survey, path: str) -> None:
    # As the page showed on a 360 px phone when the run's survey loaded it (tests/page_survey.py).
    targets = page_survey[path].targets
    small = [t for t in targets if t[2] < 24 - 0.01 or t[3] < 24 - 0.01]
    assert targets and small == [], small


HEADED = {
    LANGS[lang] + f"games/{game.slug}/{PAGES[kind]}"
    for lang in LANGS
    for game in GAMES
    for kind in ("rules", "faq")
}
"""The pages whose headings have permalinks whatever the data: each game's rules and FAQ."""


@pytest.mark.parametrize("path", PATHS)
def test_a_headings_pilcrow_never_wraps_onto_a_line_of_its_own(page_survey, path: str) -> None:
    # On the heading's first line, inside its box: never alone on a line below (as the run's
    # survey saw the page on a phone).
    headings = page_survey[path].headings
    for heading, offset, line, right in headings:
        assert 0 <= offset < line and right >= 0, (heading, offset, line, right)
    assert headings or path not in HEADED


RANGED = {
    LANGS[lang] + path
    for lang in LANGS
    for path in ["", "games/", *(f"games/{game.slug}/" for game in GAMES)]
}
"""The pages that show number ranges (player counts, playing times): each has some."""


@pytest.mark.parametrize("path", PATHS)
def test_number_ranges_never_break_across_lines(page_survey, path: str) -> None:
    ranges = page_survey[path].ranges
    assert all(ws == "nowrap" and lines == 1 for _, ws, lines in ranges), ranges
    assert ranges or path not in RANGED


def test_the_other_languages_title_is_a_quiet_subtitle(phone, site_url) -> None:
    root, other = list(LANGS)[:2]
    game = next(g for g in GAMES if g.title.get(root) != g.title.get(other))
    phone.goto(game_url(site_url, other, game, "overview"))
    title, alt = phone.locator("h1"), phone.locator(".rs-title-alt")
    assert alt.inner_text() == game.title.get(root)

    def size(selector: str) -> float:
        return phone.evaluate(
            f"parseFloat(getComputedStyle(document.querySelector('{selector}')).fontSize)"
        )

    assert size(".rs-title-alt") < size(".md-typeset") < size("h1")
    gap = alt.bounding_box()["y"] - (title.bounding_box()["y"] + title.bounding_box()["height"])
    assert 0 <= gap < 16
