"""Shared fixtures: a real build of the real data, and headless Debian Chromium."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench.measure import PRIME_JIEBA
from rulesite.catalog import load_catalog
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import (
    AXE,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    SITE_URL,
    WorkersBlocked,
    forgetting,
    recording,
    remembering_origins,
    serve_site,
)
from tests.page_survey import Survey
from tests.projects import (
    REAL,
    built_once,
    copy_built,
    make_project,
    real_games,
    shared_temp,
    use_compiled_templates,
    use_jieba_cache,
    with_jieba_cache,
)
from tests.site_checks import LANGS, page_paths

INSTALL_HINT = (
    "install Debian's browser and CJK fonts: sudo apt-get install chromium fonts-noto-cjk"
)


@pytest.fixture(scope="session", autouse=True)
def _warm_builds() -> None:
    """Load once in this test process what every language process of a build loads (MkDocs,
    Material's search, pypinyin's readings, jieba's stock word table: ``search_terms.warm_up``,
    as ``rulesite serve`` does before it forks its builds). The builds tests run in this
    process fork from it and skip that work: a test file of builds took 66 -> 41 CPU s
    (tests/test_build_cache.py on 2 cores). Builds run through the command line
    (``subprocess``) still load everything themselves, as a user's do."""
    import material.plugins.search.plugin  # noqa: F401
    import mkdocs.commands.build  # noqa: F401
    import pypinyin  # noqa: F401

    from rulesite.engine.search_terms import warm_up

    warm_up()


@pytest.fixture(scope="session", autouse=True)
def _warm_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every project a test makes starts with the caches a user's project has after its first
    build (``projects.with_warm_caches``): the compiled templates of the fixture project's build
    (``built_fixture``), made when the run's first project is, and jieba's word table."""
    base = shared_temp(tmp_path_factory)
    use_compiled_templates(
        lambda: built_once(base, FIXTURE_PROJECT, _build_fixture) / "project" / ".cache" / "jinja"
    )
    use_jieba_cache(
        lambda: built_once(base, "jieba-cache", _make_jieba_cache) / "jieba" / "jieba.cache"
    )
    yield
    use_compiled_templates(None)
    use_jieba_cache(None)


def _make_jieba_cache(folder: Path) -> None:
    """jieba's cached word table in ``folder/jieba``, made as a build makes a project's
    ``.cache/jieba`` (the benchmark's priming, ``bench.measure.PRIME_JIEBA``): in a process of
    its own (this one initialized jieba already)."""
    command = [sys.executable, "-c", PRIME_JIEBA, str(folder)]
    subprocess.run(command, check=True, timeout=300)


def _build_real(folder: Path) -> None:
    root = make_project(folder, games=real_games(), real_games=True)
    build(Project(root))


@pytest.fixture(scope="session")
def real_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A copy of this repository's project (config, templates, real games), built.

    Built once per run (``built_once``): xdist's workers each get a copy of that one build, which
    their tests may rebuild in place. With RULESITE_TEST_EXTRA_GAME=1 the copy also holds the
    extra fixture game (tests/projects.py).
    """
    built = built_once(shared_temp(tmp_path_factory), "real-project", _build_real)
    return Project(copy_built(built, tmp_path_factory.mktemp("real") / "project"))


def _build_addressed(folder: Path) -> None:
    root = make_project(folder / "project", games=real_games(), real_games=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULESITE_SITE_URL", SITE_URL)
        build(Project(root), site_dir=folder / "site")


@pytest.fixture(scope="session")
def addressed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real project's site built with ``RULESITE_SITE_URL=SITE_URL`` (canonical links,
    sitemaps, print footers), once per run for every worker (``built_once``): read it only."""
    return built_once(shared_temp(tmp_path_factory), "addressed-site", _build_addressed) / "site"


FIXTURE_PROJECT = "fixture-project"
"""``built_fixture``'s folder in the run's shared temporary folder."""


def _build_fixture(folder: Path) -> None:
    # Compiles its templates: the other projects start with them (_warm_caches). Its copies
    # (copy_built) are built projects, with jieba's cache as one has.
    report = build(Project(with_jieba_cache(make_project(folder / "project", warm=False))))
    (folder / "pages.txt").write_text(str(report.pages), encoding="utf-8")


@pytest.fixture(scope="session")
def built_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture project (``make_project``'s default game) built once per run, at
    ``built_fixture / "project"``; ``pages.txt`` beside it holds the build's page count.

    Shared by every worker (``built_once``): never use it in place (a build or ``assemble``
    takes a lock file in it); copy it (``copy_built``) once per module and read or change that.
    """
    return built_once(shared_temp(tmp_path_factory), FIXTURE_PROJECT, _build_fixture)


@pytest.fixture(scope="session")
def site_dir(real_project: Project) -> Path:
    """The built site of the real data."""
    return real_project.site_dir


SESSION_SITE_MAX_AGE = 24 * 3600
"""Seconds the browsers keep the session site's files (longer than any run)."""


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """The built site served over HTTP under a sub-path, as a publisher might host it, with
    caching headers: the site does not change during a run, and without them a browser asks
    again for every file of every page it loads (a site built seconds ago looks fresh for
    seconds only): in the one-tap and checklist tests, 1,791 of 2,786 requests were such
    re-asks (each answered "not modified")."""
    with serve_site(site_dir, max_age=SESSION_SITE_MAX_AGE) as url:
        yield url


@pytest.fixture(scope="session")
def page_survey(browser, site_url: str, tmp_path_factory) -> Iterator[Survey]:
    """What every page of the real site showed on a phone, each loaded once in the run
    (tests/page_survey.py), by path from the site's root (``en/games/<slug>/faq/``)."""
    pages = page_paths(load_catalog(Project(REAL)).games)
    survey = Survey(shared_temp(tmp_path_factory), browser, site_url, list(LANGS.values()), pages)
    yield survey
    survey.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium through Playwright; skipped (or failed under CI) when missing.
    Its contexts block service workers unless asked (``helpers.WorkersBlocked``)."""
    if not (Path(CHROMIUM).exists() and shutil.which(CHROMIUM)):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{CHROMIUM} is missing under CI; {INSTALL_HINT}")
        pytest.skip(f"{CHROMIUM} not found; {INSTALL_HINT}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield WorkersBlocked(chromium)
        chromium.close()


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A fresh desktop-sized page that records console errors and failed requests."""
    context = browser.new_context(viewport=DESKTOP)
    yield recording(context.new_page())
    context.close()


@contextlib.contextmanager
def _worker_view(
    browser, viewport: dict[str, int], watch: Callable[[object], object], **options: object
) -> Iterator[object]:
    """A page in a context of its own, ``watch``-ed, that a worker's tests share (each through
    ``helpers.forgetting``, which restores ``viewport``); ``options`` go to the context."""
    context = browser.new_context(viewport=viewport, **options)
    try:
        shared = remembering_origins(watch(context.new_page()))
        shared.home_viewport = viewport
        yield shared
    finally:
        context.close()


# Session-scoped: a worker keeps its shared pages from one test file to the next (a module
# scope made them again each time a worker went on to a test of another file, which with the
# split files (SPLIT below) was often: a new profile and every file fetched again, about a
# second of CPU each time).
@pytest.fixture(scope="session")
def _worker_page(browser) -> Iterator[object]:
    with _worker_view(browser, DESKTOP, recording) as shared:
        yield shared


@pytest.fixture
def shared_page(_worker_page) -> object:
    """The worker's one desktop page (as ``page``; storage and problems cleared for each
    test: ``helpers.forgetting``). A test that adds its own event handlers (a dialog answered
    once) or needs other context options takes ``page`` or a context of its own."""
    return forgetting(_worker_page)


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


@pytest.fixture(scope="session")
def _worker_phone(browser) -> Iterator[object]:
    with _worker_view(browser, PHONE, _watched, accept_downloads=True) as shared:
        yield shared


@pytest.fixture
def shared_phone(_worker_phone) -> object:
    """The worker's one 360 × 740 page (as ``phone``; storage, problems and what it
    emulated cleared for each test: ``helpers.forgetting``). A test that answers a dialog
    itself or needs other context options (touch, permissions) takes ``phone`` or a context of
    its own."""
    return forgetting(_worker_phone)


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core from tests/a11y (installed by `make test` with npm); missing: a failure under CI."""
    if not AXE.exists():
        message = "axe-core missing: run `make test` (it installs tests/a11y with npm)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return AXE


# --- Work for xdist's workers: whole files, and the fine-grained work last ----------------------
# `make test` runs xdist with --dist loadfile, which here means (pytest_xdist_make_scheduler): a
# worker is handed one group of tests at a time, and a group's tests run on one worker in
# collection order. A test file is one group (its module-scoped builds and pages are made
# once), except the files in SPLIT: their tests make nothing for the module that is costly to
# make again, so each test (in test_accessibility, each page kind) is a group of
# its own and the workers share the file. The whole files are handed out first, slowest first
# (by each file's seconds in the last full run, pytest's cache); the split files' tests come
# last and keep every worker busy to the end, so that no worker is left alone with a long file
# (the tail) while the others idle.

MODULE_SECONDS = "rulesite/module-seconds"
"""pytest's cache key: seconds each test file took (setup, call and teardown) in the last full
run."""
SLOW_WITHOUT_TIMINGS = (
    "tests/test_build_cache.py",
    "tests/test_hostile_round3.py",
    "tests/test_incremental.py",
    "tests/test_offline_browser.py",
    "tests/test_table_details_browser.py",
)
"""The slowest whole files when this was written: first in a checkout with no timings (CI)."""


def _each_test(nodeid: str) -> str:
    return nodeid


def _page_kind(nodeid: str) -> str:
    # test_no_serious_violations[light-<kind>-<lang>] and [dark-<kind>]: one group per page
    # kind, its light check in each language and its dark one, which read the same pieces of
    # the page survey (a piece is one kind in one language).
    name, _, params = nodeid.partition("[")
    if not name.endswith("::test_no_serious_violations"):
        return nodeid
    scheme, _, rest = params.rstrip("]").partition("-")
    kind = rest.rpartition("-")[0] if scheme == "light" else rest
    return f"{name}[{kind}]"


SPLIT: dict[str, Callable[[str], str]] = {
    # A fresh copy of the built world for each test; the one shared reference is built once
    # per run (built_once).
    "tests/test_build_safety.py": _each_test,
    # Each test starts its own preview or server.
    "tests/test_serve.py": _each_test,
    # Each row is typed afresh; a worker opens its own search pages (search_page).
    "tests/test_search_queries.py": _each_test,
    "tests/test_accessibility.py": _page_kind,
    # Browser files whose tests share a page only through shared_page / shared_phone (which
    # clear what an earlier test left: helpers.forgetting) or take a fresh one (page, phone).
    "tests/test_calculator_browser.py": _each_test,
    "tests/test_calculator_result_browser.py": _each_test,
    "tests/test_onetap_browser.py": _each_test,
    "tests/test_browser.py": _each_test,
    "tests/test_setup_checklist_browser.py": _each_test,
    "tests/test_history_browser.py": _each_test,
}
"""Test files whose tests may run on different workers, and each test's group (by node id)."""


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def work_group(nodeid: str) -> str:
    """The group a test is handed to a worker with: its file, or SPLIT's choice."""
    module = _module(nodeid)
    return SPLIT[module](nodeid) if module in SPLIT else module


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # optional: xdist may be off (-p no:xdist)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """--dist loadfile: xdist's scheduling by scope, with work_group's groups as the scopes."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_group(nodeid)

    return ByGroup(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each file's tests together and in their order: whole files first, the slowest first
    (never-timed files first of all: they may be slow), then the split files' tests (SPLIT);
    without timings, SLOW_WITHOUT_TIMINGS first."""
    # No cache under -p no:cacheprovider: then the order without timings.
    cache = getattr(config, "cache", None)
    seconds: dict[str, float] = cache.get(MODULE_SECONDS, {}) if cache else {}
    if not seconds:
        seconds = {
            name: len(SLOW_WITHOUT_TIMINGS) - i for i, name in enumerate(SLOW_WITHOUT_TIMINGS)
        }
        unknown = 0.0
    else:
        unknown = float("inf")
    first = {}
    for index, item in enumerate(items):
        first.setdefault(_module(item.nodeid), index)

    def order(item: pytest.Item) -> tuple[bool, float, int]:
        module = _module(item.nodeid)
        return module in SPLIT, -seconds.get(module, unknown), first[module]

    items.sort(key=order)


_measured: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up each file's seconds (under xdist, in the controlling process from the workers'
    reports)."""
    _measured[_module(report.nodeid)] = _measured.get(_module(report.nodeid), 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Keep the timings of a whole run (every file, no -k or -m) for the next run's order."""
    config = session.config
    whole = (
        config.args_source is pytest.Config.ArgsSource.TESTPATHS
        and not config.option.keyword
        and not config.option.markexpr
    )
    cache = getattr(config, "cache", None)
    if whole and cache is not None and not hasattr(config, "workerinput") and _measured:
        cache.set(MODULE_SECONDS, {name: round(t, 1) for name, t in _measured.items()})
