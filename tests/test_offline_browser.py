"""Offline reading in headless Chromium: a game opened once reads with no network; updates arrive.

"No network" is both Playwright's offline mode and a server that stops answering (it closes
every connection): Chromium's offline emulation does not reach a service worker's own requests
in every version, and a worker that quietly still reached the server would pass for an offline
one. The site is served under a sub-path, as a publisher might host it.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import good_game_text, make_project, other_game
from tests.site_checks import LANGS, REAL_SITE
from tests.test_browser import search

pytestmark = pytest.mark.browser

GAME = "mini-game"
OTHER = "other-game"
TITLES = {"zh": "迷你游戏", "en": "Mini Game"}
"""The fixture game's title in each language it is written in."""
QUERIES = {"zh": "平手", "en": "tie"}
"""A word of one of its rulings."""
READY = f"html[data-offline-ready='{GAME}']"
"""sw-register.js marks the page once the worker has stored the game."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def handle(self) -> None:
        if self.server.down.is_set():  # type: ignore[attr-defined]
            return  # the connection closes unanswered: the browser sees a network error
        super().handle()


class Server:
    """``site_dir`` served at ``http://127.0.0.1:<port>/rulesite/``; ``down`` stops answering."""

    def __init__(self, root: Path) -> None:
        self.down = threading.Event()
        handler = functools.partial(_Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.down = self.down  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/rulesite/"


@contextlib.contextmanager
def serving(site_dir: Path) -> Iterator[Server]:
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "rulesite").symlink_to(site_dir.resolve(), target_is_directory=True)
        server = Server(Path(root))
        thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield server
        finally:
            server.httpd.shutdown()
            server.httpd.server_close()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """Two games: one the reader opens, one never opened."""
    games = {f"{GAME}.yaml": good_game_text(), f"{OTHER}.yaml": other_game(OTHER)}
    project = Project(make_project(tmp_path_factory.mktemp("offline") / "p", games=games))
    build(project)
    return project


@pytest.fixture(scope="module")
def server(project: Project) -> Iterator[Server]:
    with serving(project.site_dir) as running:
        yield running


@pytest.fixture
def context(browser, server: Server) -> Iterator[object]:
    """A fresh browser profile (no worker, no caches) with the server answering."""
    server.down.clear()
    new_context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield new_context
    new_context.close()
    server.down.clear()


def go_offline(context, server: Server) -> None:
    context.set_offline(True)
    server.down.set()


def open_and_store(context, url: str):
    """Open a game's page online and wait until the worker has stored the game."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=30_000)
    return page


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_a_game_opened_once_reads_offline(context, server: Server, lang: str) -> None:
    base = server.url + LANGS[lang]
    page = open_and_store(context, base + f"games/{GAME}/")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    go_offline(context, server)

    page.goto(base + f"games/{GAME}/rules/")
    assert TITLES[lang] in page.title()
    assert page.locator("#setup").count() == 1
    page.goto(base + f"games/{GAME}/faq/?h=tie#tie-breaker")  # a search result's link
    assert page.locator("#tie-breaker").count() == 1
    # Search works from the stored index, shard and search worker. (Searched from the page
    # without its #fragment: Material closes the search panel 125 ms after a fragment target
    # settles, which under load could close it after the click that opened it.)
    page.goto(base + f"games/{GAME}/faq/")
    assert any(f"games/{GAME}/faq/" in href for href in search(page, QUERIES[lang]))
    page.goto(base + f"games/{GAME}/score/")
    calc = f".rs-calc[data-calculator='{GAME}']"
    page.fill(f"{calc} [data-field='cards'][data-player='0']", "5")
    page.fill(f"{calc} [data-field='cards'][data-player='1']", "3")
    assert page.locator(f"{calc} [data-total='0']").inner_text() == "8"
    assert page.locator(f"{calc} [data-total='1']").inner_text() == "3"

    # A game never opened, and a page outside the games: the offline page, in the language.
    for path in (f"games/{OTHER}/rules/", ""):
        page.goto(base + path)
        assert page.locator("h1").inner_text() == REAL_SITE.labels["offline_title"].get(lang)
        assert page.locator("html").get_attribute("lang") == REAL_SITE.language(lang).html_lang
    assert page.locator("a[href='']").inner_text() == REAL_SITE.labels["offline_retry"].get(lang)


def test_without_the_worker_nothing_opens_offline(browser, server: Server) -> None:
    # The check above can fail: with service workers blocked, the same visit reads nothing.
    server.down.clear()
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.goto(server.url + f"games/{GAME}/")
        go_offline(context, server)
        with pytest.raises(Exception, match="ERR_"):
            page.goto(server.url + f"games/{GAME}/rules/")
    finally:
        context.close()
        server.down.clear()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_offline_page_passes_axe(page, site_url, axe_script, lang: str, scheme: str) -> None:
    from tests.test_accessibility import serious_violations

    page.emulate_media(color_scheme=scheme)
    page.goto(site_url + LANGS[lang] + "offline.html")
    assert serious_violations(page, axe_script) == []
    assert page.problems == []


def worker_build(site_dir: Path, lang: str) -> str:
    text = (site_dir / LANGS[lang] / "sw.js").read_text(encoding="utf-8")
    return re.search(r'"build": "([0-9a-f]+)"', text).group(1)


def test_an_update_arrives_on_the_next_visit(context, server: Server, project: Project) -> None:
    scope = server.url + LANGS["en"]
    page = open_and_store(context, scope + f"games/{GAME}/")
    old_build = worker_build(project.site_dir, "en")
    assert "Each player takes 5 cards." in rules_text(page, scope)

    path = project.games_dir / f"{GAME}.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "en: Each player takes 5 cards.", "en: Each player takes 6 cards."
        ),
        encoding="utf-8",
    )
    build(project)
    new_build = worker_build(project.site_dir, "en")
    assert new_build != old_build

    # Online, the next visit shows the new text at once (pages come from the network first) ...
    assert "Each player takes 6 cards." in rules_text(page, scope)
    # ... and the new worker takes over: it stores the game again and drops the old cache.
    # (The browser looks for a new worker after a navigation; asked here, as a reader's next
    # visit would, so that the wait does not hang on when Chromium schedules its own look.)
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    # The next visit: the tab is closed and the site opened again. A worker waiting for the old
    # one's work to finish (skipWaiting waits for its open events; under load that took over a
    # minute) then takes over for certain, as it does for a reader who comes back.
    page.close()
    page = context.new_page()
    page.goto(scope + f"games/{GAME}/")
    mine = f"rulesite {scope} "
    assert wait_until(
        page,
        """([mine, current, marker]) => caches.keys().then(names => {
             const ours = names.filter(name => name.startsWith(mine));
             if (ours.length !== 1 || ours[0] !== current) return false;
             return caches.match(marker, {cacheName: current}).then(Boolean);
           })""",
        [mine, mine + new_build, scope + f"offline/stored/{GAME}"],
    ), page.evaluate(WORKERS)
    go_offline(context, server)
    text = rules_text(page, scope)
    assert "Each player takes 6 cards." in text and "5 cards" not in text


WORKERS = """navigator.serviceWorker.getRegistration().then(async r => ({
  caches: await caches.keys(),
  installing: r.installing && r.installing.state,
  waiting: r.waiting && r.waiting.state,
  active: r.active && r.active.state,
}))"""
"""What a failed wait reports: the caches and the registration's workers."""


def wait_until(page, predicate: str, arg: object) -> bool:
    """Whether the page's async ``predicate`` comes true within 60 s (checked every 100 ms)."""
    return page.evaluate(
        f"""async arg => {{
              const check = {predicate};
              for (let tries = 0; tries < 600; tries++) {{
                if (await check(arg)) return true;
                await new Promise(resolve => setTimeout(resolve, 100));
              }}
              return false;
            }}""",
        arg,
    )


def rules_text(page, scope: str) -> str:
    page.goto(scope + f"games/{GAME}/rules/")
    return page.locator("article").inner_text()
