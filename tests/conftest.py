"""Shared fixtures: a real build of the real data, and headless Debian Chromium."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import (
    AXE,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    built_once,
    copy_built,
    forgetting,
    make_project,
    real_games,
    recording,
    serve_site,
    shared_temp,
)

INSTALL_HINT = (
    "install Debian's browser and CJK fonts: sudo apt-get install chromium fonts-noto-cjk"
)


def _build_real(folder: Path) -> None:
    root = make_project(folder, games=real_games(), real_games=True)
    build(Project(root))


@pytest.fixture(scope="session")
def real_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A copy of this repository's project (config, templates, real games), built.

    Built once per run (``built_once``): xdist's workers each get a copy of that one build, which
    their tests may rebuild in place. With RULESITE_TEST_EXTRA_GAME=1 the copy also holds the
    extra fixture game (tests/helpers.py).
    """
    built = built_once(shared_temp(tmp_path_factory), "real-project", _build_real)
    return Project(copy_built(built, tmp_path_factory.mktemp("real") / "project"))


def _build_fixture(folder: Path) -> None:
    report = build(Project(make_project(folder / "project")))
    (folder / "pages.txt").write_text(str(report.pages), encoding="utf-8")


@pytest.fixture(scope="session")
def built_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture project (``make_project``'s default game) built once per run, at
    ``built_fixture / "project"``; ``pages.txt`` beside it holds the build's page count.

    Shared by every worker (``built_once``): never use it in place (a build or ``assemble``
    takes a lock file in it); copy it (``copy_built``) once per module and read or change that.
    """
    return built_once(shared_temp(tmp_path_factory), "fixture-project", _build_fixture)


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
    context = browser.new_context(viewport=DESKTOP)
    yield recording(context.new_page())
    context.close()


@contextlib.contextmanager
def _module_view(
    browser, viewport: dict[str, int], watch: Callable[[object], object], **options: object
) -> Iterator[object]:
    """A page in a context of its own, ``watch``-ed, that a module's tests share (each through
    ``helpers.forgetting``, which restores ``viewport``); ``options`` go to the context."""
    context = browser.new_context(viewport=viewport, **options)
    try:
        shared = watch(context.new_page())
        shared.home_viewport = viewport
        yield shared
    finally:
        context.close()


@pytest.fixture(scope="module")
def _module_page(browser) -> Iterator[object]:
    with _module_view(browser, DESKTOP, recording) as shared:
        yield shared


@pytest.fixture
def shared_page(_module_page) -> object:
    """The test module's one desktop page (as ``page``; storage and problems cleared for each
    test: ``helpers.forgetting``). A test that adds its own event handlers (a dialog answered
    once) or needs other context options takes ``page`` or a context of its own."""
    return forgetting(_module_page)


def _watched(page) -> object:
    """``page`` recording what went wrong in ``page.problems``: script and console errors."""
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    return page


@pytest.fixture
def phone(browser) -> Iterator[object]:
    """A fresh 360 × 740 page in a context of its own (its own storage, downloads on) that
    records problems (``_watched``): for a test that answers dialogs itself or needs a context
    no other test used."""
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    yield _watched(context.new_page())
    context.close()


@pytest.fixture(scope="module")
def _module_phone(browser) -> Iterator[object]:
    with _module_view(browser, PHONE, _watched, accept_downloads=True) as shared:
        yield shared


@pytest.fixture
def shared_phone(_module_phone) -> object:
    """The test module's one 360 × 740 page (as ``phone``; storage, problems and what it
    emulated cleared for each test: ``helpers.forgetting``). A test that answers a dialog
    itself or needs other context options (touch, permissions) takes ``phone`` or a context of
    its own."""
    return forgetting(_module_phone)


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core from tests/a11y (installed by `make test` with npm); missing: a failure under CI."""
    if not AXE.exists():
        message = "axe-core missing: run `make test` (it installs tests/a11y with npm)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return AXE
