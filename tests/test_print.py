"""Print in headless Chromium: rules and FAQ as a compact reference, calculators as empty pads."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

# Site chrome and links that mean nothing on paper.
HIDDEN_ON_PAPER = [
    ".md-header",
    ".md-sidebar--primary",
    ".md-sidebar--secondary",
    ".md-footer",
    ".rs-tabs",
]


def displays(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => getComputedStyle(n).display)"
    )


@pytest.mark.parametrize("path", ["games/nations/rules/", "en/games/nations/faq/"])
def test_rules_and_faq_print_without_navigation(page, site_url, path: str) -> None:
    page.goto(site_url + path)
    page.emulate_media(media="print")
    for selector in HIDDEN_ON_PAPER:
        shown = displays(page, selector)
        assert shown and set(shown) == {"none"}, (selector, shown)
    assert set(displays(page, ".md-typeset .md-button")) <= {"none"}  # links to the calculator
    # Related-ruling lines go as a whole, not leaving "Related rulings:" behind.
    related = displays(page, "article .rs-related, article p:has(> .rs-related)")
    assert related and set(related) == {"none"}
    # A ruling's question stays with its answer and the answer is not split.
    style = page.eval_on_selector(
        "article h2",
        "h => [getComputedStyle(h).breakAfter, getComputedStyle(h.nextElementSibling).breakInside]",
    )
    assert style == ["avoid", "avoid"]


@pytest.mark.parametrize("selector", ["article .rs-card__item dt", "article p"])
def test_print_is_dark_on_white_in_the_dark_scheme(page, site_url, selector: str) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto(site_url + "en/games/nations/")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    screen = page.eval_on_selector(selector, "e => getComputedStyle(e).color")
    page.emulate_media(media="print", color_scheme="dark")
    paper = page.eval_on_selector(selector, "e => getComputedStyle(e).color")
    assert brightness(screen) > 150 > 100 > brightness(paper), (screen, paper)


def brightness(css_color: str) -> float:
    red, green, blue = (float(v) for v in re.findall(r"[\d.]+", css_color)[:3])
    return (red + green + blue) / 3


@pytest.mark.parametrize("path", ["en/games/nations/score/", "games/clans-of-caledonia/score/"])
def test_a_filled_in_calculator_prints_as_an_empty_pad(page, site_url, path: str) -> None:
    page.goto(site_url + path)
    page.locator(".rs-calc__try").first.click()
    calc = page.locator(".rs-calc").first
    filled = calc.locator(".rs-calc__input").evaluate_all("nodes => nodes.map(n => n.value)")
    assert any(filled)
    page.emulate_media(media="print")
    inputs = calc.locator("input").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n).color)"
    )
    assert inputs and set(inputs) == {"rgba(0, 0, 0, 0)"}
    outputs = calc.locator("output").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n).visibility)"
    )
    assert outputs and set(outputs) == {"hidden"}
    ranks = calc.locator(".rs-calc__rank td").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n).color)"
    )
    assert ranks and set(ranks) == {"rgba(0, 0, 0, 0)"}
    # A column for every player count the game allows, whatever the screen was set to.
    columns = calc.locator("thead th[data-column]")
    shown = columns.evaluate_all("nodes => nodes.map(n => getComputedStyle(n).display)")
    assert len(shown) >= 4 and set(shown) == {"table-cell"}
    for part in (".rs-calc__controls", ".rs-calc__actions", ".rs-calc__terms", ".rs-calc__help"):
        assert set(displays(page, f".rs-calc {part}")) <= {"none"}, part
    assert set(displays(page, ".rs-calc__examples")) == {"none"}
    # The screen's sheet is only hidden on paper, never cleared.
    page.emulate_media(media="screen")
    assert (
        calc.locator(".rs-calc__input").evaluate_all("nodes => nodes.map(n => n.value)") == filled
    )


def test_pdf_of_a_rules_page_and_a_score_pad(page, site_url) -> None:
    for path in ("games/nations/rules/", "en/games/nations/score/"):
        page.goto(site_url + path)
        pdf = page.pdf(format="A4")
        assert pdf.startswith(b"%PDF")
        assert len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 1
