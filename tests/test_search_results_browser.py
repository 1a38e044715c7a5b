"""What search shows, in a phone-sized Chromium: result titles without the zero-width spaces of
Chinese word splitting (the index keeps them, so the search still finds the words), and, when
nothing is found, links to the topic index and the glossary."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rulesite.pages import registry
from tests.helpers import light_in_each_dark_in_one
from tests.site_checks import LANGS, label
from tests.test_site import CATALOG

pytestmark = pytest.mark.browser

READY = """() => {
  const meta = document.querySelector('.md-search-result__meta');
  return meta && !/初始化|Initializing/.test(meta.textContent);
}"""
ANSWERED = """text => {
  const meta = document.querySelector('.md-search-result__meta');
  const field = document.querySelector('input.md-search__input');
  return field.value === text && meta && /\\d|没有|No matching/.test(meta.textContent);
}"""


@pytest.fixture
def phone(shared_phone):
    """The worker's one phone page, storage cleared for each test (tests/conftest.py)."""
    return shared_phone


def search(page, text: str) -> None:
    page.locator("label.md-header__button[for='__search']").click()
    field = page.locator("input.md-search__input")
    page.wait_for_function(READY, timeout=30_000)
    field.fill(text)
    page.keyboard.press("End")  # Material searches on keyup; filling CJK text sends none
    page.wait_for_function(ANSWERED, arg=text, timeout=10_000)


@pytest.mark.parametrize("start", ["", "games/{slug}/rules/"])
def test_chinese_result_titles_carry_no_zero_width_spaces(phone, site_url, start) -> None:
    game = CATALOG.games[0]
    # A rule section's title of several words: jieba splits it in the index.
    words = max((s.title.get("zh") for s in game.rules), key=len)
    phone.goto(site_url + LANGS["zh"] + start.format(slug=game.slug))
    search(phone, words)
    titles = phone.eval_on_selector_all(
        ".md-search-result__item h1, .md-search-result__item h2",
        "hs => hs.map(h => h.textContent)",
    )
    assert titles, words
    assert not [t for t in titles if "\u200b" in t], titles
    assert any(words in t for t in titles), (words, titles)
    # What the reader copies is the clean title too.
    text = phone.locator(".md-search-result__list").inner_text()
    assert "\u200b" not in text
    assert phone.problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_found_suggests_the_topic_index_and_the_glossary(phone, site_url, lang) -> None:
    root = site_url + LANGS[lang]
    phone.goto(root)
    search(phone, "qqxqzzv")
    help_box = phone.locator(".rs-search-help")
    help_box.wait_for()
    assert help_box.is_visible()
    assert help_box.locator("p").inner_text() == label(CATALOG.site, "search_empty_hint", lang)
    links = help_box.locator("a").evaluate_all("ls => ls.map(a => [a.href, a.textContent])")
    assert links == [
        [root + registry.kind(kind).url(), label(CATALOG.site, f"page_{kind}", lang)]
        for kind in ("topics", "glossary")
    ]
    # Found something: the suggestion goes.
    field = phone.locator("input.md-search__input")
    title = CATALOG.games[0].title.get(lang)
    field.fill(title)
    phone.keyboard.press("End")
    phone.wait_for_function(ANSWERED, arg=title, timeout=10_000)
    # The results and the suggestion are redrawn by different observers: wait, do not peek.
    expect(phone.locator(".rs-search-help")).to_have_count(0)
    assert phone.problems == []


@pytest.mark.parametrize("lang, scheme", light_in_each_dark_in_one(LANGS))
def test_the_results_with_snippets_pass_axe(phone, site_url, axe_script, lang, scheme) -> None:
    from tests.test_accessibility import serious_violations

    phone.emulate_media(color_scheme=scheme)
    phone.goto(site_url + LANGS[lang])
    # A game's title: its overview, rules and rulings, each with a snippet and its marks.
    search(phone, CATALOG.games[0].title[lang])
    assert phone.locator(".md-search-result__article p mark").count() > 0
    assert serious_violations(phone, axe_script) == []
