"""What a reader sees and clicks, in headless Debian Chromium against the built site."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesite.engine.search_split import game_of
from tests.helpers import PHONE
from tests.site_checks import LANGS
from tests.test_site import CATALOG, GAMES

pytestmark = pytest.mark.browser

RULING = "games/nations/faq/#war-vs-battle"
"""The ruling the search and language tests look for (named once: the rest is derived)."""
RULING_PAGE, _, RULING_ID = RULING.partition("#")


def search(page, query: str) -> list[str]:
    page.click("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.keyboard.press("End")  # Material searches on keyup; filling CJK text sends none
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    return [a.get_attribute("href") for a in page.query_selector_all(".md-search-result__item > a")]


def test_chinese_search_finds_the_ruling_and_no_english_page(shared_page, site_url) -> None:
    page = shared_page
    page.goto(site_url + RULING_PAGE)
    hrefs = search(page, "战争强度")
    assert any(
        h.split("?")[0].endswith("/" + RULING_PAGE) and h.endswith("#" + RULING_ID) for h in hrefs
    ), hrefs
    assert not any("/en/" in h for h in hrefs), hrefs
    assert page.problems == []


def test_english_search_lists_only_english_pages(shared_page, site_url) -> None:
    page = shared_page
    page.goto(site_url + "en/" + RULING_PAGE)
    hrefs = search(page, "strength")
    assert any("#" + RULING_ID in h for h in hrefs), hrefs
    assert all("/rulesite/en/" in h for h in hrefs), hrefs


# Search reads one index cut into chunks (engine/search_chunks.py): every page fetches the same
# files for a query, so a query finds the same wherever it is typed, and every hit shows a
# snippet of its text and its game.


def index_of(site_dir: Path, lang: str) -> tuple[list[list[str]], dict[str, set[str]]]:
    from tests.test_search import chunked_postings

    return chunked_postings(site_dir / LANGS[lang] / "search")


def answer_word(site_dir: Path, lang: str) -> str:
    """The word of the ruling's answer, not of its question, that finds the fewest documents."""
    docs, found = index_of(site_dir, lang)
    _, title, text, _ = next(d for d in docs if d[0] == RULING)
    words = [
        w
        for w, where in found.items()
        if RULING in where and w in text.lower() and w not in title.lower() and len(w) > 1
    ]
    assert words, "the ruling's answer has no word of its own"
    return min(words, key=lambda w: (len(found[w]), -len(w), w))


def requests_to(page, part: str) -> list[str]:
    return [url for url in page.requested if part in url]


@pytest.fixture
def watched(page):
    """``page``, remembering the URL of every request it makes."""
    page.requested = []
    page.on("request", lambda request: page.requested.append(request.url))
    return page


def without_highlight(href: str) -> str:
    return re.sub(r"\?h=[^#]*", "", href)


@pytest.mark.parametrize("lang", LANGS)
def test_a_query_finds_the_same_from_every_page(watched, site_url, site_dir, lang) -> None:
    docs, _ = index_of(site_dir, lang)
    question = next(d for d in docs if d[0] == RULING)[1]
    other = next(game.slug for game in CATALOG.games if game.slug != game_of(RULING))
    starts = ["", "games/", RULING_PAGE, f"games/{other}/rules/"]
    root = site_url + LANGS[lang]
    # A word only the ruling's answer has, and the ruling's question as a reader would ask it.
    for query in (answer_word(site_dir, lang), question):
        found = []
        for start in starts:
            watched.goto(root + start)
            found.append([without_highlight(h) for h in search(watched, query)])
        assert all(hrefs == found[0] for hrefs in found), (query, found)
        assert any(h.endswith("/" + RULING) for h in found[0]), (query, found[0])
    word = answer_word(site_dir, lang)
    link = watched.locator(f'.md-search-result__item > a[href$="#{RULING_ID}"]')
    watched.goto(root)
    search(watched, word)
    assert word in link.text_content().lower(), word  # the answer's text, not just its title
    assert requests_to(watched, "/search/shards/") == []
    assert watched.problems == []


def many_games_word(site_dir: Path, lang: str) -> str:
    """A word that finds sections of the most games (then the fewest documents)."""
    _, found = index_of(site_dir, lang)

    def games(word: str) -> int:
        return len({game_of(where) for where in found[word]} - {None})

    return min((w for w in found if len(w) > 1), key=lambda w: (-games(w), len(found[w]), w))


@pytest.mark.parametrize("lang", LANGS)
def test_every_hit_shows_a_snippet_and_its_game(shared_page, site_url, site_dir, lang) -> None:
    page = shared_page
    titles = {game.slug: game.title[lang] for game in CATALOG.games}
    page.goto(site_url + LANGS[lang])
    search(page, many_games_word(site_dir, lang))
    items = page.eval_on_selector_all(
        ".md-search-result__item",
        """items => items.map(item => ({
          href: item.querySelector('a').getAttribute('href'),
          heading: item.querySelector('article h1').textContent,
          snippets: [...item.querySelectorAll('article p')].map(p => p.textContent.trim())
        }))""",
    )
    assert len({game_of(i["href"].split("/rulesite/")[-1].removeprefix("en/")) for i in items}) > 1
    for item in items:
        slug = game_of(item["href"].split("/rulesite/")[-1].removeprefix("en/"))
        if slug:
            assert titles[slug] in item["heading"].replace("\u200b", ""), item
        assert any(item["snippets"]), item
    assert page.problems == []


def test_language_switch_keeps_the_ruling_anchor(shared_page, site_url) -> None:
    page = shared_page
    page.goto(site_url + RULING)
    page.click(".md-header__option .md-select button")
    page.click('a.md-select__link[hreflang="en"]')
    page.wait_for_url(f"**/en/{RULING}")
    heading = page.locator("#" + RULING_ID)
    assert "battle" in heading.inner_text().lower()
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    assert page.evaluate("document.documentElement.lang") == "en"


@pytest.fixture(scope="module")
def sharp_phone(browser) -> Iterator[object]:
    """A 360 px phone with a phone's pixel density (2), one page for the module's tests: each
    only loads a page and measures it."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_overview_fits_a_360px_phone(sharp_phone, site_url, slug, lang) -> None:
    sharp_phone.goto(site_url + LANGS[lang] + f"games/{slug}/")
    assert sharp_phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_no_console_errors_or_failed_requests_on_any_page(page_survey) -> None:
    # Every page of every language, loaded once in the run (tests/page_survey.py); a score page
    # with a worked example filled in too.
    problems = {path: page.problems for path, page in page_survey.items() if page.problems}
    assert page_survey and problems == {}


@pytest.mark.parametrize("lang", LANGS.values())
def test_a_page_load_fetches_no_sitemap(shared_page, site_url, lang) -> None:
    """Material fetches ``sitemap.xml`` beside every ``<link rel="alternate">`` it finds (its
    language alternates); the feed's discovery link must not be taken for one: the sitemap
    grows with the catalogue and the map built from it would never be used."""
    page = shared_page
    fetched: list[str] = []

    def note(request) -> None:
        fetched.append(request.url)

    page.on("request", note)  # the worker's page: the listener goes with the test
    try:
        page.goto(site_url + lang + f"games/{CATALOG.games[0].slug}/", wait_until="networkidle")
    finally:
        page.remove_listener("request", note)
    assert fetched, "the page load made no request at all"
    assert [url for url in fetched if url.split("?")[0].endswith("sitemap.xml")] == []
