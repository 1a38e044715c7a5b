"""Offline search of the real site in a phone-sized Chromium: a game saved for reading, the
network gone, a natural question about one of its terms (made from the data, in each language)
finds the ruling that names the term, as it would online: the worker splits the Chinese run into
the words the saved games know and leaves the question words out (assets/search-worker.js).
Under the hits, the "Missing" line names no single character of a split run; the results pass
axe-core.

"No network" is Playwright's offline mode and a server that stops answering (as in
test_offline_browser.py, whose server this borrows).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import PHONE
from tests.site_checks import LANGS
from tests.test_offline_browser import Server, go_offline, serving
from tests.test_search_queries import location
from tests.test_search_results_browser import search
from tests.test_search_worker import HAN, asked_about

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(site_dir: Path) -> Iterator[Server]:
    with serving(site_dir) as running:
        yield running


@pytest.fixture
def context(browser, server: Server) -> Iterator[object]:
    server.down.clear()
    fresh = browser.new_context(viewport=PHONE, service_workers="allow")
    yield fresh
    fresh.close()
    server.down.clear()


def save_game(context, base: str, slug: str) -> None:
    """Open the game's overview and save it for offline reading (every language at once)."""
    page = context.new_page()
    page.goto(base + f"games/{slug}/")
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    page.locator(".rs-offline__save").click()
    page.wait_for_selector(f"html[data-offline-ready='{slug}']", state="attached", timeout=60_000)
    page.close()


def test_a_natural_question_finds_its_ruling_offline(context, server: Server, axe_script) -> None:
    from tests.test_accessibility import serious_violations

    asked = {lang: asked_about(lang) for lang in sorted(LANGS)}
    for slug in sorted({slug for slug, _, _ in asked.values()}):
        save_game(context, server.url, slug)
    go_offline(context, server)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    for lang, (slug, question, places) in asked.items():
        root = server.url + LANGS[lang]
        page.goto(root + f"games/{slug}/")
        search(page, question)
        hrefs = page.eval_on_selector_all(
            ".md-search-result__item a.md-search-result__link", "links => links.map(a => a.href)"
        )
        top = [location(href, root)[0] for href in hrefs[:3]]
        assert set(places) & set(top), (lang, question, top)
        missing = page.eval_on_selector_all(
            ".md-search-result__terms del", "words => words.map(w => w.textContent)"
        )
        assert not [word for word in missing if len(word) == 1 and HAN.match(word)], missing
        assert serious_violations(page, axe_script) == []  # the offline results, as online
    assert problems == []
