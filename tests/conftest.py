"""Shared fixtures: a real build of the real data, and headless Debian Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import (
    AXE,
    CHROMIUM,
    CHROMIUM_ARGS,
    make_project,
    real_games,
    serve_site,
)

INSTALL_HINT = (
    "install Debian's browser and CJK fonts: sudo apt-get install chromium fonts-noto-cjk"
)


@pytest.fixture(scope="session")
def real_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A copy of this repository's project (config, templates, real games), built once.

    With RULESITE_TEST_EXTRA_GAME=1 the copy also holds the extra fixture game (tests/helpers.py).
    """
    root = make_project(
        tmp_path_factory.mktemp("real") / "project", games=real_games(), real_games=True
    )
    project = Project(root)
    build(project)
    return project


@pytest.fixture(scope="session")
def site_dir(real_project: Project) -> Path:
    """The built site of the real data."""
    return real_project.site_dir


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """The built site served over HTTP under a sub-path, as a publisher might host it."""
    with serve_site(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium through Playwright; skipped (or failed under CI) when missing."""
    if not (Path(CHROMIUM).exists() and shutil.which(CHROMIUM)):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{CHROMIUM} is missing under CI; {INSTALL_HINT}")
        pytest.skip(f"{CHROMIUM} not found; {INSTALL_HINT}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A fresh desktop-sized page that records console errors and failed requests."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    new_page = context.new_page()
    new_page.problems = []
    new_page.on("console", lambda m: m.type == "error" and new_page.problems.append(m.text))
    new_page.on("pageerror", lambda e: new_page.problems.append(str(e)))
    # A reload or navigation aborts requests still in flight (ERR_ABORTED): not a problem.
    new_page.on(
        "requestfailed",
        lambda r: (
            "ERR_ABORTED" not in (r.failure or "")
            and new_page.problems.append(f"failed {r.url}: {r.failure}")
        ),
    )
    new_page.on(
        "response", lambda r: r.status >= 400 and new_page.problems.append(f"{r.status} {r.url}")
    )
    yield new_page
    context.close()


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core from tests/a11y (installed by `make test` with npm); missing: a failure under CI."""
    if not AXE.exists():
        message = "axe-core missing: run `make test` (it installs tests/a11y with npm)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return AXE
