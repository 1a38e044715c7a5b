"""Shared test helpers: the browser pages' watchers and cleaners, serving a built site, waiting,
reading HTML and comparing built trees. Projects to build are made in ``tests/projects.py``."""

from __future__ import annotations

import contextlib
import hashlib
import signal
import time
from collections.abc import Callable, Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import TypeVar

from bench import static_server

REPO = Path(__file__).resolve().parent.parent


CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium; tests never download a browser."""


PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""The Chromium features Playwright (1.65) turns off in every browser it launches. Chromium
obeys only the last ``--disable-features`` switch, and Playwright's comes first, so ours
(``CHROMIUM_ARGS``) repeats them: ``test_our_feature_switch_keeps_playwrights`` fails when a
new Playwright turns off one more that is not here."""

LIGHTER_NAVIGATION = ("RenderDocument", "SpareRendererForSitePerProcess")
"""Chromium features whose work a test pays for on every page it loads and no page can see:
a new frame in the renderer for each navigation of a tab (RenderDocument) and a renderer
process started ahead for the next one (SpareRendererForSitePerProcess). Off, a page load on a
kept page took about a tenth less CPU (Chromium, the driver and the test's Python: 237 ->
204 ms median of three runs of 32 loads of eight kinds of page; an empty page 69 -> 38 ms),
and a first load in a new context about as much as before."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, *LIGHTER_NAVIGATION)),
]
"""Flags for a sandboxed, offline CI machine (no background calls to Google's hosts), and
page loads without work no test looks at (``LIGHTER_NAVIGATION``)."""


class WorkersBlocked:
    """A Playwright browser whose new contexts and pages block service workers unless a test
    asks for them (``service_workers="allow"``): the offline worker answers every request of a
    page it controls, which doubles the CPU time of a page load (measured: a game page 566 ->
    264 ms on 2 cores), and only the offline and preview tests are about it."""

    def __init__(self, browser: object) -> None:
        self._browser = browser

    def new_context(self, **options: object) -> object:
        options.setdefault("service_workers", "block")
        return self._browser.new_context(**options)

    def new_page(self, **options: object) -> object:
        options.setdefault("service_workers", "block")
        return self._browser.new_page(**options)

    def __getattr__(self, name: str) -> object:
        return getattr(self._browser, name)


SCHEMES = {"light": "default", "dark": "slate"}
"""The colour scheme the system asks for (``emulate_media``), and the one Material's palette
then shows (``body[data-md-color-scheme]``) when the reader has chosen none."""


A, B, C = TypeVar("A"), TypeVar("B"), TypeVar("C")


def each_pair(firsts: list[A], seconds: list[B], thirds: list[C]) -> list[tuple[A, B, C]]:
    """Cases that hold every pair of values of the three factors (all-pairs testing), not
    their every combination: each ``(first, second)`` once, with the thirds taken in turn (a
    Latin square), so each first and each second meets every third. A check of three factors
    grows with the largest two instead of all three (3 games, 3 kinds of page, 2 languages:
    9 cases instead of 18). With more thirds than firsts or seconds, in turn would leave pairs
    out: then every combination."""
    if len(thirds) > min(len(firsts), len(seconds)):
        return [
            (first, second, third) for first in firsts for second in seconds for third in thirds
        ]
    return [
        (first, second, thirds[(i + j) % len(thirds)])
        for i, first in enumerate(firsts)
        for j, second in enumerate(seconds)
    ]


def light_in_each_dark_in_one(langs: Iterable[str]) -> list[tuple[str, str]]:
    """``(language, scheme)`` for a check of colours or an axe run whose dark scheme reads only
    colours: the light scheme in each of ``langs``, the dark one in the first. No style sheet
    sets a colour by language (``test_accessibility.test_no_colour_is_set_by_language``), so
    the dark scheme in a second language would check the same colours again."""
    langs = list(langs)
    return [(lang, "light") for lang in langs] + [(langs[0], "dark")]


DESKTOP = {"width": 1280, "height": 900}
"""The desktop window of the ``page`` fixtures."""


PHONE = {"width": 360, "height": 740}
"""A phone's screen in CSS pixels: the one size every phone test uses (``phone`` fixtures)."""


AXE = REPO / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core for the accessibility checks (from npm, pinned by tests/a11y/package-lock.json)."""


GOOD = REPO / "tests" / "data" / "good"


BAD = REPO / "tests" / "data" / "bad"


EXTRA_GAME = REPO / "tests" / "fixtures" / "extra-game" / "extra-game.yaml"
"""A valid game with a calculator, whose slug and calculator id no real game uses."""


EXTRA_IMAGES = EXTRA_GAME.parent / "images"
"""The extra game's pictures: ``make_project`` copies them to ``data/images/`` with the game."""


SITE_URL = "https://example.org/boardgames/"
"""The address (under a sub-path) the ``addressed_site`` fixture's build is published at."""


GAME_SCHEMA_LINE = "# yaml-language-server: $schema=../schema/game.schema.json"
"""The first line of every file in ``data/games/``."""


def recording(page) -> object:
    """``page`` recording in ``page.problems`` console errors, script errors, failed requests
    and HTTP errors."""
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    # A reload or navigation aborts requests still in flight (ERR_ABORTED): not a problem.
    page.on(
        "requestfailed",
        lambda r: (
            "ERR_ABORTED" not in (r.failure or "")
            and page.problems.append(f"failed {r.url}: {r.failure}")
        ),
    )
    page.on("response", lambda r: r.status >= 400 and page.problems.append(f"{r.status} {r.url}"))
    return page


def remembering_origins(page) -> object:
    """``page`` noting in ``page.origins`` every site (scheme, host and port) it opens, so that
    ``forgetting`` can clear what each of them stored."""
    page.origins = set()

    def on_navigation(frame) -> None:
        if frame.url.startswith("http"):
            page.origins.add("/".join(frame.url.split("/", 3)[:3]))

    page.on("framenavigated", on_navigation)
    return page


STORED = "local_storage,indexeddb,cache_storage,cookies"
"""What a site stored that ``forgetting`` clears (Chromium's ``Storage.clearDataForOrigin``)."""


def forgetting(page) -> object:
    """``page`` on a blank page, with what earlier tests left removed: what every site it opened
    stored (``remembering_origins``; the last one's session storage too), media emulation, a
    changed window size, recorded problems, dialogs and the handler that accepted them. As good
    as a new context's page for a test, at less than half the cost of one (no new profile; the
    site's files already in its cache)."""
    if page.url.startswith("http"):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.goto("about:blank")
    if getattr(page, "origins", None):
        session = page.context.new_cdp_session(page)
        for origin in sorted(page.origins):
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": STORED})
        session.detach()
    # What an earlier test emulated: undone (a PDF then prints with print styles again).
    page.emulate_media(media="null", color_scheme="null")
    if page.viewport_size != page.home_viewport:
        page.set_viewport_size(page.home_viewport)
    page.problems.clear()
    if hasattr(page, "dialogs"):
        page.remove_listener("dialog", page.on_dialog)
        del page.dialogs, page.on_dialog
    return page


def accepting_dialogs(page) -> object:
    """``page``, accepting every dialog it opens (a confirm says yes) and recording each one's
    type in ``page.dialogs``; once per page, however often it is asked."""
    if not hasattr(page, "dialogs"):
        page.dialogs = []

        def on_dialog(dialog) -> None:
            page.dialogs.append(dialog.type)
            dialog.accept()

        page.on_dialog = on_dialog  # for forgetting to take away
        page.on("dialog", on_dialog)
    return page


T = TypeVar("T")


def poll_until(condition: Callable[[], T], what: str, timeout: float = 60, every: float = 0.3) -> T:
    """The first true value of ``condition()``, asked every ``every`` seconds: for what another
    process or thread brings about (a preview's rebuild); fails saying ``what`` after
    ``timeout`` seconds. A wait, not a measure: the time is a ceiling no passing run nears."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(every)
    return found


def interruptible() -> None:
    """``preexec_fn`` of a program a test will interrupt: Ctrl-C's signal as a terminal gives it.

    A program started in the background of a shell without job control (``make test &`` in a
    script) inherits SIGINT ignored, and Python then installs no KeyboardInterrupt for it: the
    test's SIGINT would do nothing, and a test of what Ctrl-C does would fail for the wrong
    reason.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def serve_site(
    site_dir: Path, mount: str = "rulesite", max_age: int | None = None
) -> contextlib.AbstractContextManager[str]:
    """Serve ``site_dir`` at ``http://127.0.0.1:<port>/<mount>/``; yields that base URL (the
    benchmark's server, ``scripts/bench/static_server.py``: one server for both). ``max_age``:
    seconds a browser may keep each file without asking again (for a site no test changes)."""
    return static_server.serve(site_dir, mount, max_age)


class _ElementCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


def elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """(tag, attributes) of every element of ``html``, as a browser would read them."""
    collector = _ElementCollector()
    collector.feed(html)
    return collector.found


def tree_digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (its path relative to it) and the SHA-256 of its bytes: two
    builds compared file for file."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
