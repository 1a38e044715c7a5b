"""Modules in a real browser: the rules/FAQ filter (keyboard, memory, links to hidden sections)
on the real site, and a calculator's module switch on the scoring gallery."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_calculator_browser import cell, total
from tests.test_gallery_browser import PAGE, gallery_url  # noqa: F401 - the gallery fixture

pytestmark = pytest.mark.browser


@pytest.fixture
def page(shared_page):
    """Every test here takes the worker's one desktop page, storage cleared for each test
    (tests/conftest.py), instead of a new context's."""
    return shared_page


RULES = "games/nations/rules/"
FAQ = "games/nations/faq/"


def solo_box(page):
    return page.locator(".rs-module-filter input[value='solo']")


@pytest.mark.parametrize("lang", ["", "en/"])
def test_the_filter_hides_a_modules_sections_and_remembers_it(page, site_url, lang: str) -> None:
    page.goto(site_url + lang + RULES)
    solo_heading, five_heading = page.locator("h2#solo"), page.locator("h2#five-players")
    assert page.locator(".rs-module-filter").is_visible()
    assert solo_heading.is_visible() and five_heading.is_visible()
    assert page.locator("[data-rs-module='solo']").is_visible()  # the tag under the heading
    # Keyboard only: focus the checkbox, Space unticks it.
    solo_box(page).focus()
    page.keyboard.press("Space")
    assert not solo_box(page).is_checked()
    assert not solo_heading.is_visible()
    assert not page.locator("h2#solo ~ p").filter(has_text="1–4").first.is_visible()
    assert five_heading.is_visible() and page.locator("h2#final-scoring").is_visible()
    # The choice holds for the game's other page and after a reload.
    page.goto(site_url + lang + FAQ)
    assert not solo_box(page).is_checked()
    assert not page.locator("h2#solo-vs-multiplayer").is_visible()
    assert page.locator("h2#event-ties").is_visible()
    page.reload()
    assert not page.locator("h2#solo-vs-multiplayer").is_visible()
    solo_box(page).check()
    assert page.locator("h2#solo-vs-multiplayer").is_visible()
    assert page.problems == []


def test_a_link_to_a_hidden_section_shows_it(page, site_url) -> None:
    page.goto(site_url + FAQ)
    solo_box(page).uncheck()
    page.goto(site_url + RULES + "#solo")  # e.g. a friend's link, with solo hidden here
    assert not solo_box(page).is_checked()
    assert page.locator("h2#solo").is_visible()
    assert page.locator("h2#solo").evaluate("h => h.getBoundingClientRect().top < innerHeight")
    # Within the page too: the table of contents' link to a hidden ruling opens it.
    page.goto(site_url + FAQ)
    assert not page.locator("h2#solo-vs-multiplayer").is_visible()
    page.locator(".md-sidebar--secondary a[href='#solo-vs-multiplayer']").click()
    # The section opens on the hash change that follows the click: wait for it, not a moment.
    expect(page.locator("h2#solo-vs-multiplayer")).to_be_visible()
    # Ticking or unticking again applies the choice to every section.
    solo_box(page).check()
    solo_box(page).uncheck()
    assert not page.locator("h2#solo-vs-multiplayer").is_visible()
    assert page.problems == []


def test_storage_is_read_as_untrusted_input(page, site_url) -> None:
    page.goto(site_url + RULES)
    page.evaluate(
        'localStorage.setItem(\'rulesite:modules:nations\', \'{"solo": 1, "x": "<img>"}\')'
    )
    page.reload()
    assert solo_box(page).is_checked() and page.locator("h2#solo").is_visible()
    page.evaluate("localStorage.setItem('rulesite:modules:nations', '[\"nope\", \"solo\", 3]')")
    page.reload()
    assert not solo_box(page).is_checked()
    assert page.problems == []


def test_without_javascript_everything_shows(browser, site_url) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + RULES)
    assert page.locator("h2#solo").is_visible()
    assert not page.locator(".rs-module-filter").is_visible()  # a control that would do nothing
    context.close()


def test_a_calculators_module_switch_turns_its_line_on_and_off(
    page,
    gallery_url,  # noqa: F811 - the imported fixture
) -> None:
    page.goto(gallery_url + PAGE)
    calc = "seven-wonders"
    switch = page.locator("#rs-setting-seven-wonders-cities")
    assert switch.is_visible() and switch.is_checked()  # a module is played until switched off
    cell(page, calc, "civilian", 0).fill("20")
    cell(page, calc, "debt", 0).fill("3")
    assert total(page, calc, 0) == "17"
    switch.uncheck()
    assert total(page, calc, 0) == "20"
    row = page.locator(f".rs-calc[data-calculator='{calc}'] [data-term-row='debt_vp']")
    assert not row.is_visible()
    switch.check()
    assert total(page, calc, 0) == "17"
    assert page.problems == []
