"""axe-core in headless Chromium: no serious or critical violations on any kind of page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.validate import load_catalog
from tests.helpers import REPO
from tests.site_checks import page_paths

pytestmark = pytest.mark.browser

AXE = REPO / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
PAGES = page_paths(load_catalog(Project(REPO)).games)
"""Home, the games index and every page of every game in data/."""


@pytest.fixture(scope="module")
def axe_script() -> Path:
    if not AXE.exists():
        message = "axe-core missing: run `make test` (it installs tests/a11y with npm)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return AXE


def serious_violations(page, axe_script: Path) -> list[str]:
    page.add_script_tag(path=str(axe_script))
    violations = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", ["", "en/"])
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_violations(page, site_url, axe_script, lang: str, path: str) -> None:
    page.goto(site_url + lang + path)
    if path.endswith("score/"):
        page.locator(".rs-calc__try").first.click()  # check the filled-in state too
    assert serious_violations(page, axe_script) == []
