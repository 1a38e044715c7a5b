"""What a reader sees and clicks, in headless Debian Chromium against the built site."""

from __future__ import annotations

import pytest

from tests.test_site import GAMES, LANGS, PAGES

pytestmark = pytest.mark.browser


def search(page, query: str) -> list[str]:
    page.click("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.keyboard.press("End")  # Material searches on keyup; filling CJK text sends none
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    return [a.get_attribute("href") for a in page.query_selector_all(".md-search-result__item > a")]


def test_chinese_search_finds_the_ruling_and_no_english_page(page, site_url) -> None:
    page.goto(site_url + "games/nations/faq/")
    hrefs = search(page, "战争强度")
    assert any(
        h.split("?")[0].endswith("/games/nations/faq/") and h.endswith("#war-vs-battle")
        for h in hrefs
    ), hrefs
    assert not any("/en/" in h for h in hrefs), hrefs
    assert page.problems == []


def test_english_search_lists_only_english_pages(page, site_url) -> None:
    page.goto(site_url + "en/games/nations/faq/")
    hrefs = search(page, "strength")
    assert any("#war-vs-battle" in h for h in hrefs), hrefs
    assert all("/rulesite/en/" in h for h in hrefs), hrefs


def test_language_switch_keeps_the_ruling_anchor(page, site_url) -> None:
    page.goto(site_url + "games/nations/faq/#war-vs-battle")
    page.click(".md-header__option .md-select button")
    page.click('a.md-select__link[hreflang="en"]')
    page.wait_for_url("**/en/games/nations/faq/#war-vs-battle")
    heading = page.locator("#war-vs-battle")
    assert "battle" in heading.inner_text().lower()
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    assert page.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_overview_fits_a_360px_phone(browser, site_url, slug, lang) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 780}, device_scale_factor=2)
    phone = context.new_page()
    phone.goto(site_url + LANGS[lang] + f"games/{slug}/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 360


def test_no_console_errors_or_failed_requests_on_any_page(page, site_url) -> None:
    paths = ["", "games/"] + [f"games/{slug}/{p}" for slug in GAMES for p in PAGES.values()]
    for lang_prefix in LANGS.values():
        for path in paths:
            page.goto(site_url + lang_prefix + path)
            page.wait_for_load_state("networkidle")
    assert page.problems == []
