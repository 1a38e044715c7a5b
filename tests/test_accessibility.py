"""axe-core in headless Chromium: no serious or critical violations on any kind of page, in the
light and the dark colour scheme."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.project import Project
from tests.helpers import REAL
from tests.site_checks import page_paths

pytestmark = pytest.mark.browser

PAGES = page_paths(load_catalog(Project(REAL)).games)
"""Home, the games index and every page of every game in data/."""


def serious_violations(page, axe_script: Path) -> list[str]:
    page.add_script_tag(path=str(axe_script))
    violations = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


# The scheme the system asks for, and the one Material's palette must then show.
SCHEMES = {"light": "default", "dark": "slate"}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", ["", "en/"])
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_violations(
    page, site_url, axe_script, lang: str, path: str, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(site_url + lang + path)
    assert page.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]
    if path.endswith("score/"):
        page.locator(".rs-calc__try").first.click()  # check the filled-in state too
    assert serious_violations(page, axe_script) == []


@pytest.mark.parametrize(
    "lang, to_dark, to_light",
    [
        ("", "切换到深色模式", "切换到浅色模式"),
        ("en/", "Switch to dark mode", "Switch to light mode"),
    ],
)
def test_the_scheme_toggle_is_named_in_the_page_language(
    page, site_url, lang: str, to_dark: str, to_light: str
) -> None:
    page.emulate_media(color_scheme="light")
    page.goto(site_url + lang + "games/nations/")
    toggle = page.locator('form[data-md-component="palette"] label:visible')
    assert toggle.get_attribute("title") == to_dark
    toggle.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    assert toggle.get_attribute("title") == to_light
    # The choice is kept for the next page.
    page.goto(site_url + lang + "games/nations/faq/")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
