"""What a reader sees and clicks, in headless Debian Chromium against the built site."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulesite.engine.search_split import WORDS, WORDS_FIELD, game_of
from tests.helpers import DESKTOP, PHONE, recording
from tests.site_checks import LANGS, page_paths
from tests.test_site import CATALOG, GAMES

pytestmark = pytest.mark.browser

RULING = "games/nations/faq/#war-vs-battle"
"""The ruling the search and language tests look for (named once: the rest is derived)."""
RULING_PAGE, _, RULING_ID = RULING.partition("#")
RULING_SHARD = f"search/shards/{game_of(RULING)}.json"


def search(page, query: str) -> list[str]:
    page.click("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.keyboard.press("End")  # Material searches on keyup; filling CJK text sends none
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    return [a.get_attribute("href") for a in page.query_selector_all(".md-search-result__item > a")]


def test_chinese_search_finds_the_ruling_and_no_english_page(page, site_url) -> None:
    page.goto(site_url + RULING_PAGE)
    hrefs = search(page, "战争强度")
    assert any(
        h.split("?")[0].endswith("/" + RULING_PAGE) and h.endswith("#" + RULING_ID) for h in hrefs
    ), hrefs
    assert not any("/en/" in h for h in hrefs), hrefs
    assert page.problems == []


def test_english_search_lists_only_english_pages(page, site_url) -> None:
    page.goto(site_url + "en/" + RULING_PAGE)
    hrefs = search(page, "strength")
    assert any("#" + RULING_ID in h for h in hrefs), hrefs
    assert all("/rulesite/en/" in h for h in hrefs), hrefs


# Search is split (scripts/rulesite/search_split.py): the site-level index has every game's
# titles, questions and glossary words; a game's pages merge in its full-text shard.
_WORD = re.compile(r"[\u4e00-\u9fff]{2,}|[A-Za-z]{4,}")
"""Han words (jieba's, split by zero-width spaces) and Latin words, as search matches them."""


def index_words(site_dir: Path, lang: str, name: str) -> tuple[dict[str, dict], set[str]]:
    """An index file's documents by location, and the words of their titles and texts."""
    index = json.loads((site_dir / LANGS[lang] / "search" / name).read_text(encoding="utf-8"))
    docs = {d["location"]: d for d in index["docs"]}
    text = " ".join(searched(d) for d in docs.values()).replace("\u200b", " ")
    return docs, {w.lower() for w in _WORD.findall(text)}


def searched(doc: dict) -> str:
    """Every text search looks at in a document: title, text and the split's search words."""
    return " ".join([doc["title"], doc["text"], *(doc.get(f, "") for f in WORDS_FIELD)])


def shard_only_word(site_dir: Path, lang: str) -> str:
    """A word of the ruling's answer that the site-level index has nowhere, not even a word
    beginning the same (the stemmer): only the game's shard can find it. The longest, first."""
    _, site_words = index_words(site_dir, lang, "search_index.json")
    shard, _ = index_words(site_dir, lang, f"shards/{game_of(RULING)}.json")
    answer = re.sub(r"<[^>]+>", " ", shard[RULING]["text"]).replace("\u200b", " ")
    stems = {w[:5] for w in site_words}
    words = [w for w in _WORD.findall(answer) if w.lower() not in site_words]
    words = [w for w in words if not (w.isascii() and w.lower()[:5] in stems)]
    assert words, "the ruling's answer has no word of its own"
    return max(words, key=len)


def site_level_words(site_dir: Path, lang: str) -> list[str]:
    """The words the site-level index gives the ruling: the most telling (in the fewest
    documents) of its question, and of its terms when the language has any."""
    docs, _ = index_words(site_dir, lang, "search_index.json")

    def documents_with(word: str) -> int:
        return sum(word.lower() in searched(d).lower() for d in docs.values())

    def most_telling(text: str) -> list[str]:
        words = _WORD.findall(text.replace("\u200b", " "))
        return [min(words, key=lambda word: (documents_with(word), -len(word)))] if words else []

    return most_telling(docs[RULING]["title"]) + most_telling(docs[RULING].get(WORDS, ""))


def requests_to(page, part: str) -> list[str]:
    return [url for url in page.requested if part in url]


@pytest.fixture
def watched(page):
    """``page``, remembering the URL of every request it makes."""
    page.requested = []
    page.on("request", lambda request: page.requested.append(request.url))
    return page


@pytest.mark.parametrize("lang", LANGS)
def test_search_on_a_game_page_finds_its_full_text_from_its_shard_alone(
    watched, site_url, site_dir, lang
) -> None:
    word = shard_only_word(site_dir, lang)
    root = site_url + LANGS[lang]
    watched.goto(root + RULING_PAGE)
    hrefs = search(watched, word)
    assert any(h.endswith("#" + RULING_ID) for h in hrefs), (word, hrefs)
    found = watched.locator(f'.md-search-result__item > a[href$="#{RULING_ID}"]').text_content()
    assert word in found.replace("\u200b", ""), found  # the answer's text, not just its title
    assert requests_to(watched, "/search/shards/") == [root + RULING_SHARD]
    assert requests_to(watched, "search_index.json") == [root + "search/search_index.json"]
    assert watched.problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_search_elsewhere_finds_every_games_questions_and_terms_without_shards(
    watched, site_url, site_dir, lang
) -> None:
    words = site_level_words(site_dir, lang)
    # Its question, and a glossary word it uses (every language has them).
    assert len(words) == 2, words
    for word in words:
        watched.goto(site_url + LANGS[lang])
        hrefs = search(watched, word)
        assert any(
            h.split("?")[0].endswith("/" + RULING_PAGE) and h.endswith("#" + RULING_ID)
            for h in hrefs
        ), (word, hrefs)
    assert requests_to(watched, "/search/shards/") == []
    assert watched.problems == []


def test_language_switch_keeps_the_ruling_anchor(page, site_url) -> None:
    page.goto(site_url + RULING)
    page.click(".md-header__option .md-select button")
    page.click('a.md-select__link[hreflang="en"]')
    page.wait_for_url(f"**/en/{RULING}")
    heading = page.locator("#" + RULING_ID)
    assert "battle" in heading.inner_text().lower()
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    assert page.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_overview_fits_a_360px_phone(browser, site_url, slug, lang) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    phone = context.new_page()
    phone.goto(site_url + LANGS[lang] + f"games/{slug}/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 360


TABS = 8
"""Pages loaded at once by the test below: each waits for half a second without requests
(networkidle), and those waits overlap instead of adding up."""


def test_no_console_errors_or_failed_requests_on_any_page(browser, site_url) -> None:
    paths = page_paths(CATALOG.games)
    urls = [site_url + lang_prefix + path for lang_prefix in LANGS.values() for path in paths]
    context = browser.new_context(viewport=DESKTOP)
    tabs = [recording(context.new_page()) for _ in range(TABS)]
    for start in range(0, len(urls), TABS):
        batch = list(zip(tabs, urls[start : start + TABS], strict=False))
        for tab, url in batch:
            tab.goto(url, wait_until="commit")
        for tab, _ in batch:
            tab.wait_for_load_state("networkidle")
    problems = [problem for tab in tabs for problem in tab.problems]
    context.close()
    assert problems == []
