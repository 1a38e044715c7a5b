"""Print in headless Chromium: rules and FAQ as a compact reference, calculators as their sheet
or, empty, as a score pad (tests/test_print_pad.py)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def page(shared_page):
    """Every test here takes the worker's one desktop page, storage cleared for each test
    (tests/conftest.py), instead of a new context's."""
    return shared_page


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
def test_a_filled_in_calculator_prints_its_sheet_not_its_controls(
    page, site_url, path: str
) -> None:
    """What the sheet holds prints as a plain copy (tests/test_print_pad.py checks its rows);
    the interactive sheet, its controls and the worked examples stay off paper."""
    page.goto(site_url + path)
    page.locator(".rs-calc__try").first.click()
    calc = page.locator(".rs-calc").first
    filled = calc.locator(".rs-calc__input").evaluate_all("nodes => nodes.map(n => n.value)")
    assert any(filled)
    page.emulate_media(media="print")
    assert set(displays(page, ".rs-calc")) == {"none"}
    assert set(displays(page, ".rs-calc__examples")) == {"none"}
    # The link to the rules after the intro would print as words that lead nowhere.
    assert set(displays(page, "article a.rs-calc__rules-link")) == {"none"}
    assert page.locator(".rs-print[data-filled] .rs-print__sheet").first.is_visible()
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


# Each print rule of a stylesheet: its selectors, and whether some element it matches sits in a
# part of the page that prints (no ancestor with display: none). A rule for elements that never
# print is dead weight.
_PRINT_RULES = """sheet => {
  const rules = [];
  for (const s of document.styleSheets) {
    if (!s.href || !s.href.endsWith(sheet)) continue;
    for (const media of s.cssRules) {
      if (!(media instanceof CSSMediaRule) || !media.media.mediaText.includes("print")) continue;
      for (const rule of media.cssRules) {
        if (!rule.selectorText) continue;
        for (const selector of rule.selectorText.split(",")) {
          const live = Array.from(document.querySelectorAll(selector)).some(node => {
            for (let up = node.parentElement; up; up = up.parentElement) {
              if (getComputedStyle(up).display === "none") return false;
            }
            return true;
          });
          rules.push([selector.trim(), live]);
        }
      }
    }
  }
  return rules;
}"""


def test_the_calculators_print_rules_style_what_prints(page, site_url) -> None:
    # The sheet never prints (history.css): calculator.css keeps no print rule for its parts.
    page.goto(site_url + "games/clans-of-caledonia/score/")
    page.locator(".rs-calc__try").first.click()
    page.emulate_media(media="print")
    rules = page.evaluate(_PRINT_RULES, "assets/calculator.css")
    assert rules
    assert [selector for selector, live in rules if not live] == []
