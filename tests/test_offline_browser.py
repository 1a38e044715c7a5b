"""Offline reading in headless Chromium at 360 × 740: a game saved on purpose reads with no network
in both languages (the language menu too), the site-wide pages after one visit, the offline page
lists the saved games, badges tell what is saved; updates arrive. The fixture site also sets a
feedback address: every ruling links to it.

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
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import PHONE, light_in_each_dark_in_one
from tests.projects import good_game_text, make_project, other_game
from tests.site_checks import LANGS, REAL_SITE
from tests.test_browser import search

pytestmark = pytest.mark.browser

GAME = "mini-game"
OTHER = "other-game"
TITLES = {"zh": "迷你游戏", "en": "Mini Game"}
"""The fixture game's title in each language it is written in."""
QUERIES = {"zh": "平手", "en": "tie"}
"""A word of one of its rulings."""


def ready(game: str) -> str:
    """offline-save.js marks a game's page once the game's marker is in the worker's cache."""
    return f"html[data-offline-ready='{game}']"


READY = ready(GAME)
"""The fixture game's page, marked stored."""
FEEDBACK = "https://example.org/issues/new?title={game}%20{ruling}&labels=rule_question"
"""The fixture site's feedback address (data/site.yaml feedback.url)."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def handle(self) -> None:
        if self.server.down.is_set():  # type: ignore[attr-defined]
            return  # the connection closes unanswered: the browser sees a network error
        super().handle()

    def do_GET(self) -> None:
        self.server.held.hold(self.path)  # type: ignore[attr-defined]
        super().do_GET()


class Hold:
    """Requests for paths under ``prefix`` wait (each in its own thread of the server) until
    ``release`` or ``HOLD_SECONDS``; ``arrived`` is set when the first one comes."""

    def __init__(self) -> None:
        self.prefix: str | None = None
        self.arrived = threading.Event()
        self.released = threading.Event()

    def start(self, prefix: str) -> None:
        self.arrived.clear()
        self.released.clear()
        self.prefix = prefix

    def hold(self, path: str) -> None:
        if self.prefix is not None and path.startswith(self.prefix):
            self.arrived.set()
            self.released.wait(HOLD_SECONDS)

    def release(self) -> None:
        self.prefix = None
        self.released.set()


HOLD_SECONDS = 25
"""Longest a held request waits (longer than a page load may take: ``SERVED_WITHIN``)."""
SERVED_WITHIN = 10
"""Seconds a page load may take while files it does not need are held."""


class Server:
    """``site_dir`` served at ``http://127.0.0.1:<port>/rulesite/``; ``down`` stops answering,
    ``held`` holds requests back."""

    def __init__(self, root: Path) -> None:
        self.down = threading.Event()
        self.held = Hold()
        handler = functools.partial(_Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.down = self.down  # type: ignore[attr-defined]
        self.httpd.held = self.held  # type: ignore[attr-defined]
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
    site_yaml = project.root / "data" / "site.yaml"
    text = site_yaml.read_text(encoding="utf-8")
    site_yaml.write_text(
        text.replace(
            "stale_after_days: 365\n", f'stale_after_days: 365\nfeedback: {{url: "{FEEDBACK}"}}\n'
        ),
        encoding="utf-8",
    )
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
    new_context = browser.new_context(viewport=PHONE, service_workers="allow")
    yield new_context
    new_context.close()
    server.down.clear()


def go_offline(context, server: Server) -> None:
    context.set_offline(True)
    server.down.set()


def open_and_store(context, url: str, game: str = GAME):
    """Open ``game``'s page at ``url`` online, save the game and wait until the worker has
    stored it."""
    page = context.new_page()
    page.goto(url)
    page.locator(".rs-offline__save").click()
    page.wait_for_selector(ready(game), state="attached", timeout=60_000)
    return page


def label(key: str, lang: str, **values: object) -> str:
    text = REAL_SITE.labels[key].get(lang)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def record_status(page) -> None:
    """Keep every text the save control's status line shows (progress passes quickly)."""
    page.evaluate(
        """() => {
             window.rsStatus = [];
             const status = document.querySelector('.rs-offline__status');
             new MutationObserver(() => window.rsStatus.push(status.textContent))
               .observe(status, {childList: true, characterData: true, subtree: true});
           }"""
    )


def worker_ready(page) -> None:
    """Wait until the page's worker is active and controls it (its install stored the site)."""
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)


def other_lang(lang: str) -> str:
    return next(code for code in sorted(LANGS) if code != lang)


def heading(page) -> str:
    return page.locator("h1").first.inner_text()


OFFLINE_TITLES = {REAL_SITE.labels["offline_title"].get(code) for code in LANGS}


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_a_game_saved_on_purpose_reads_offline_in_both_languages(
    context, server: Server, lang: str
) -> None:
    base = server.url + LANGS[lang]
    page = context.new_page()
    page.goto(base + f"games/{GAME}/")
    worker_ready(page)
    # Opening a game stores nothing: the reader saves it on purpose.
    assert page.locator(READY).count() == 0
    assert page.locator(".rs-offline__badge").count() == 0
    button = page.locator(".rs-offline__save")
    assert button.inner_text() == label("offline_save", lang)
    record_status(page)
    button.click()
    page.wait_for_selector(READY, state="attached", timeout=60_000)
    status = page.locator(".rs-offline__status")
    assert status.inner_text() == label("offline_saved", lang)
    progress = [text for text in page.evaluate("window.rsStatus") if text]
    pattern = re.escape(REAL_SITE.labels["offline_saving"].get(lang))
    for name in ("done", "total"):
        pattern = pattern.replace(re.escape("{" + name + "}"), r"(\d+)")
    counts = [re.fullmatch(pattern, text) for text in progress]
    numbers = [(int(m.group(1)), int(m.group(2))) for m in counts if m]
    assert numbers and numbers[-1][0] == numbers[-1][1] > 1, progress
    assert page.locator(".rs-offline__badge").inner_text() == label("offline_badge", lang)
    assert not button.is_visible()
    go_offline(context, server)

    # Every page of the game, in this language and in the other one through the language menu.
    page.goto(base + f"games/{GAME}/rules/")
    assert TITLES[lang] in page.title() and page.locator("#setup").count() == 1
    assert page.locator(".rs-offline__badge").inner_text() == label("offline_badge", lang)
    page.goto(base + f"games/{GAME}/faq/?h=tie#tie-breaker")  # a search result's link
    assert page.locator("#tie-breaker").count() == 1
    # Search from the stored index (its helper types into the desktop header's field).
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + f"games/{GAME}/faq/")
    assert any(f"games/{GAME}/faq/" in href for href in search(page, QUERIES[lang]))
    page.set_viewport_size(PHONE)
    page.goto(base + f"games/{GAME}/score/")
    calc = f".rs-calc[data-calculator='{GAME}']"
    page.fill(f"{calc} [data-field='cards'][data-player='0']", "5")
    page.fill(f"{calc} [data-field='cards'][data-player='1']", "3")
    assert page.locator(f"{calc} [data-total='0']").inner_text() == "8"
    other = other_lang(lang)
    page.goto(base + f"games/{GAME}/rules/")
    link = page.locator(f"a.md-select__link[hreflang='{REAL_SITE.language(other).html_lang}']")
    with page.expect_navigation():
        link.evaluate("link => link.click()")
    assert page.url == server.url + LANGS[other] + f"games/{GAME}/rules/"
    assert TITLES[other] in page.title() and page.locator("#setup").count() == 1
    assert page.locator("html").get_attribute("lang") == REAL_SITE.language(other).html_lang
    assert page.locator(".rs-offline__badge").inner_text() == label("offline_badge", other)

    # A game never saved: the offline page, in the language, listing the saved game.
    page.goto(base + f"games/{OTHER}/rules/")
    assert heading(page) == label("offline_title", lang)
    assert page.locator("html").get_attribute("lang") == REAL_SITE.language(lang).html_lang
    assert page.locator("#saved h2").inner_text() == label("offline_saved_games", lang)
    saved = page.locator("#saved a")
    assert saved.all_inner_texts() == [TITLES[lang]]
    assert page.locator("a[href='']").inner_text() == label("offline_retry", lang)
    saved.click()
    assert page.url == base + f"games/{GAME}/" and TITLES[lang] in page.title()


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_site_pages_after_one_visit_and_save_all(context, server: Server, lang: str) -> None:
    base = server.url + LANGS[lang]
    page = context.new_page()
    page.goto(base + "games/")
    worker_ready(page)
    assert page.locator("#rs-games tr[data-rs-offline]").count() == 0
    record_status(page)
    page.locator(".rs-offline__save").click()
    status = page.locator(".rs-offline__status")
    status.filter(has_text=label("offline_saved", lang)).wait_for(timeout=90_000)
    assert any(
        text.startswith(label("offline_saving", lang).split("{")[0])
        for text in page.evaluate("window.rsStatus")
    )
    # The rows are marked once the worker's caches are read again, after the status says so.
    page.locator("#rs-games tr[data-rs-offline='saved']").nth(1).wait_for(state="attached")
    rows = page.locator("#rs-games tr[data-rs-offline='saved']")
    assert rows.count() == 2 and page.locator("#rs-games .rs-offline__badge").count() == 2
    go_offline(context, server)
    # The site-wide pages were stored with the first visit.
    for path in ("", "games/", "glossary/", "topics/"):
        page.goto(base + path)
        assert heading(page) not in OFFLINE_TITLES, path
    # The home page lists the saved games and badges their cards.
    page.goto(base)
    assert page.locator(".rs-saved h2").inner_text() == label("offline_saved_games", lang)
    assert sorted(page.locator(".rs-saved a").all_inner_texts()) == sorted(
        [
            TITLES[lang],
            TITLES[lang].replace("迷你游戏", "另一游戏").replace("Mini Game", "Other Game"),
        ]
    )
    assert page.locator(".rs-game-cards .rs-offline__badge").count() == 2  # after the list
    page.goto(base + f"games/{OTHER}/faq/")
    page.locator(".rs-offline__badge").wait_for()


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_a_failed_save_says_so(context, server: Server, lang: str) -> None:
    page = context.new_page()
    page.goto(server.url + LANGS[lang] + f"games/{GAME}/")
    worker_ready(page)
    server.down.set()  # the files cannot be fetched: the save fails, and says so
    page.locator(".rs-offline__save").click()
    status = page.locator(".rs-offline__status")
    status.filter(has_text=label("offline_failed", lang).split("{")[0]).wait_for(timeout=60_000)
    assert page.locator(".rs-offline__badge").count() == 0 and page.locator(READY).count() == 0
    assert page.locator(".rs-offline__save").is_enabled()


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_every_ruling_links_to_the_feedback_address(
    shared_phone, server: Server, lang: str
) -> None:
    page = shared_phone  # reads the page online: no worker or storage of its own needed
    page.goto(server.url + LANGS[lang] + f"games/{GAME}/faq/")
    links = page.locator(".rs-feedback a")
    rulings = page.locator("article h2[id]")
    ids = [rulings.nth(i).get_attribute("id") for i in range(rulings.count())]
    assert ids and links.count() == len(ids)
    for index, ruling in enumerate(ids):
        link = links.nth(index)
        expected = FEEDBACK.replace("{game}", GAME).replace("{ruling}", ruling)
        assert link.get_attribute("href") == expected
        assert link.inner_text() == label("feedback_ruling", lang)
        box = link.bounding_box()
        assert box["height"] >= 24


@pytest.fixture(scope="module")
def saved_view(browser, server: Server) -> Iterator[Callable[[str], object]]:
    """A language's phone page whose worker has stored the fixture game (``open_and_store``),
    in a profile of its own: made on first use, then shared by that language's axe checks of
    each scheme (saving is the slow part; what the views show does not depend on the scheme).
    """
    pages: dict[str, object] = {}

    def view(lang: str) -> object:
        if lang not in pages:
            server.down.clear()
            context = browser.new_context(viewport=PHONE, service_workers="allow")
            pages[lang] = open_and_store(context, server.url + LANGS[lang] + f"games/{GAME}/faq/")
        return pages[lang]

    yield view
    for page in pages.values():
        page.context.close()


@pytest.mark.parametrize("lang, scheme", light_in_each_dark_in_one(sorted(TITLES)))
def test_the_new_views_pass_axe(
    saved_view, server: Server, axe_script, lang: str, scheme: str
) -> None:
    from tests.test_accessibility import scheme_rules, serious_violations

    base = server.url + LANGS[lang]
    page = saved_view(lang)
    page.emulate_media(color_scheme=scheme)
    rules = scheme_rules(scheme)
    try:
        for path in (f"games/{GAME}/faq/", f"games/{OTHER}/", "games/", ""):
            page.goto(base + path)
            page.wait_for_selector(".rs-offline, .rs-saved")
            assert serious_violations(page, axe_script, rules) == [], path
        go_offline(page.context, server)
        page.goto(base + f"games/{OTHER}/")
        page.wait_for_selector("#saved a")
        assert serious_violations(page, axe_script, rules) == []
    finally:  # online again for the other scheme's check and the module's other tests
        page.context.set_offline(False)
        server.down.clear()


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


@pytest.mark.parametrize("lang, scheme", light_in_each_dark_in_one(sorted(LANGS)))
def test_the_offline_page_passes_axe(page, site_url, axe_script, lang: str, scheme: str) -> None:
    from tests.test_accessibility import scheme_rules, serious_violations

    page.emulate_media(color_scheme=scheme)
    page.goto(site_url + LANGS[lang] + "offline.html")
    assert serious_violations(page, axe_script, scheme_rules(scheme)) == []
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
    # While it stores the game again, a visit opens at once, and a game saved then is kept: the
    # Chinese pages of the stored game are held back (the English visit to the other game and
    # its save need none of them). A worker that stored the game while activating held up every
    # visit until those pages came.
    server.held.start(f"/rulesite/games/{GAME}/")
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        assert server.held.arrived.wait(60), "the new worker never asked for the game's pages"
        page.close()
        started = time.monotonic()
        page = open_and_store(context, scope + f"games/{OTHER}/", OTHER)
        waited = time.monotonic() - started
    finally:
        server.held.release()
    assert waited < SERVED_WITHIN, f"a visit and a save during the update took {waited:.1f} s"
    # The next visits: the tab is closed and the site opened again, as a reader who comes back
    # does, until the new worker has taken over. Since it stores the games at install, the first
    # visit saw it take over, about 2 s after the held visit, in three runs of three. The
    # visits stay short and many (up to 18 of 10 s): when the worker stored them while
    # activating, the first visit waited out 60 s in five runs of eight, and the suite once
    # timed out on a visit held up by that work.
    mine = f"rulesite {scope} "
    taken_over = False
    for _visit in range(18):
        page.close()
        page = context.new_page()
        page.goto(scope + f"games/{GAME}/")
        taken_over = wait_until(
            page,
            """([mine, current, markers]) => caches.keys().then(names => {
                 const ours = names.filter(name => name.startsWith(mine));
                 if (ours.length !== 1 || ours[0] !== current) return false;
                 return Promise.all(markers.map(m => caches.match(m, {cacheName: current})))
                   .then(found => found.every(Boolean));
               })""",
            [mine, mine + new_build, [scope + f"offline/stored/{g}" for g in (GAME, OTHER)]],
            seconds=10,
        )
        if taken_over:
            break
    assert taken_over, page.evaluate(WORKERS)
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


def wait_until(page, predicate: str, arg: object, seconds: int = 60) -> bool:
    """Whether the page's async ``predicate`` comes true within ``seconds`` (checked every
    100 ms)."""
    return page.evaluate(
        f"""async arg => {{
              const check = {predicate};
              for (let tries = 0; tries < {seconds * 10}; tries++) {{
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
