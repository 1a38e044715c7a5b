"""Search at scale, measured in a phone-sized Chromium with its CPU slowed 4x: the two candidates.

    .venv/bin/python scripts/bench/search.py SITE [--pagefind PYTHON] [--rechunk]

For a built site (``rulesite build``, e.g. a benchmark project kept with ``--keep``) it prints,
per language and query:

- **chunks** (what the site ships, ``engine/search_chunks.py``): everything the page downloads
  for search before the first results show (``search_index.json``, the worker, every chunk and
  page part), gzipped file by file as a server would; the time from the last keystroke to the
  first result in the list (the median of ``TRIES``, each in a fresh page); and the time to
  chunk the language's index (``index``);
- **pagefind** (with ``--pagefind``, the Python that has ``pagefind[extended]``): the same site
  indexed by Pagefind, the article only (``data-pagefind-body``), one index per ``<html lang>``;
  the indexing time of the whole site, and per query the bytes of ``pagefind.js``, its WASM, the
  index chunks and five result fragments, and the time of ``search`` + five ``data()`` calls.

The server is local and plain (no compression): bytes are each response's body gzipped (-9).
``scripts/benchmark.py --search`` calls :func:`report` on each count's site.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import gzip
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parents[1]
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

from bench.languages import LANGUAGES, site_folder  # noqa: E402
from bench.static_server import serve  # noqa: E402
from rulesite.engine import search_chunks  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
SLOWDOWN = 4
QUERIES = {
    "zh": ["合同", "平票怎么算", "平票", "终局计分"],
    "en": ["contract", "how do ties work", "tie break", "final scoring"],
}
"""Words and questions a reader types (the issue's own examples among them)."""
FRAGMENTS = 5
"""Pagefind results whose fragments (title, excerpt) are loaded, as a results list would."""
GOAL_MS = 300
TRIES = 3
"""Each query is typed this many times, each time in a fresh page: its time is their median (one
try's time moved by a third from run to run on the same site)."""
GOAL_KB = {100: 150, 1000: 300}

Say = Callable[[str], None]


@dataclass(frozen=True)
class Figure:
    """One query's measurement."""

    candidate: str
    lang: str
    query: str
    results: int
    milliseconds: float
    """The median of the tries' times (NaN: nothing was found)."""
    gzipped: int
    tries: tuple[float, ...] = ()
    """Each try's time, in milliseconds."""

    def line(self) -> str:
        each = " / ".join(f"{ms:.0f}" for ms in self.tries)
        return (
            f"  {self.candidate:8} {self.lang} {self.query!r:22} {self.results:4} results "
            f"{self.milliseconds:6.0f} ms  {self.gzipped / 1024:6.1f} KB gz"
            + (f"  (tries {each})" if len(self.tries) > 1 else "")
        )


def tried(measure: Callable[[], Figure], tries: int = TRIES) -> Figure:
    """``measure`` run ``tries`` times: the median time, the fewest results, the most bytes."""
    figures = [measure() for _ in range(tries)]
    times = [f.milliseconds for f in figures]
    middle = statistics.median(times) if all(ms == ms for ms in times) else float("nan")
    return dataclasses.replace(
        figures[0],
        results=min(f.results for f in figures),
        milliseconds=middle,
        gzipped=max(f.gzipped for f in figures),
        tries=tuple(times),
    )


def _gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


@contextlib.contextmanager
def phone_page(browser) -> Iterator[tuple[Any, list[Any]]]:
    """A phone-sized page of a fresh context with its CPU slowed ``SLOWDOWN`` times, and the
    requests it finishes (filled as it loads); the context closes on leaving."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        fetched: list[Any] = []
        # A function of our own: Playwright marks its handlers, which a bound method refuses.
        page.on("requestfinished", lambda request: fetched.append(request))
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
        yield page, fetched
    finally:
        context.close()


def downloaded(
    fetched: list[Any], wanted: Callable[[str], bool], packed: tuple[str, ...] = ()
) -> int:
    """Bytes of the ``wanted`` requests' bodies, gzipped as a server would send them (those whose
    URL ends with one of ``packed`` are compressed already: as they are)."""
    total = 0
    for request in fetched:
        if not wanted(request.url):
            continue
        with contextlib.suppress(Exception):  # a body the browser no longer holds
            response = request.response()
            body = response.body() if response else b""
            total += len(body) if request.url.endswith(packed) else _gz(body)
    return total


_TYPED = """() => {
  window.__typed = null; window.__shown = null;
  const input = document.querySelector('input.md-search__input');
  input.addEventListener('keyup', () => {
    window.__typed = performance.now(); window.__shown = null;
  }, true);
  new MutationObserver(() => {
    const list = document.querySelector('.md-search-result__list');
    if (window.__typed !== null && window.__shown === null && list && list.children.length)
      window.__shown = performance.now();
  }).observe(document.querySelector('.md-search-result'), {childList: true, subtree: true});
}"""
_READY = """() => {
  const meta = document.querySelector('.md-search-result__meta');
  return meta && !/初始化|Initializing/.test(meta.textContent);
}"""


def measure_chunks(base: str, lang: str, query: str, browser) -> Figure:
    """Type ``query`` into the language home page's search box, as a reader would."""
    with phone_page(browser) as (page, fetched):
        page.goto(base + site_folder(lang))
        page.locator("label.md-header__button[for='__search']").click()
        page.wait_for_function(_READY, timeout=60_000)
        page.evaluate(_TYPED)
        page.locator("input.md-search__input").fill(query)
        page.keyboard.press("End")
        try:
            page.wait_for_function("() => window.__shown !== null", timeout=20_000)
            took = page.evaluate("() => window.__shown - window.__typed")
        except Exception:  # nothing found: no list to time
            took = float("nan")
        page.wait_for_timeout(300)
        results = page.locator(".md-search-result__item").count()
        total = downloaded(fetched, lambda url: "/search/" in url or "search-worker" in url)
    return Figure("chunks", lang, query, results, took, total)


def part_documents(search: Path) -> list[dict[str, str]]:
    """A language's documents (location, title, text) as its page parts hold them (``search/``
    of a built site), in the index's order."""
    docs = []
    for part in sorted(
        (search / search_chunks.PAGES_DIR).glob("*.json"),
        key=lambda p: tuple(int(n) for n in p.stem.split("-")),
    ):
        rows = json.loads(part.read_text(encoding="utf-8"))["docs"]
        docs += [{"location": r[0], "title": r[1], "text": r[2]} for r in rows]
    return docs


def chunk_index_seconds(site: Path, lang: str, rewrite: bool = False) -> float:
    """Time to chunk the language's documents again, from what the page parts hold (titles and
    texts; not the hidden search words, nor text past a part's ``TEXT_LIMIT``); with ``rewrite``
    the chunks are written over the site's, and the theme's worker copied in (to measure a new
    chunking on an older build without building again)."""
    search = site / site_folder(lang) / "search"
    manifest = json.loads((search / "search_index.json").read_text(encoding="utf-8"))
    docs = part_documents(search)
    config = manifest["config"]
    started = time.perf_counter()
    chunked = search_chunks.build(config, docs, docs, lang)
    seconds = time.perf_counter() - started
    if rewrite:
        search_chunks.write(search, chunked, "search_index.json")
        worker = SCRIPTS.parent / "templates" / "theme" / "assets" / "search-worker.js"
        shutil.copyfile(worker, site / site_folder(lang) / "assets" / "search-worker.js")
    return seconds


_BODY = re.compile(r'<article class="md-content__inner')


def pagefind_site(site: Path, python: str, scratch: Path, say: Say) -> tuple[Path, float]:
    """A copy of ``site`` whose articles are marked for Pagefind, indexed; and the index time."""
    copy = scratch / "pagefind-site"
    shutil.copytree(site, copy)
    for html in copy.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        marked = _BODY.sub('<article data-pagefind-body class="md-content__inner', text, count=1)
        if marked != text:
            html.write_text(marked, encoding="utf-8")
    started = time.perf_counter()
    subprocess.run(
        [python, "-m", "pagefind", "--site", str(copy), "--output-subdir", "pagefind"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - started
    say(f"  pagefind indexed the site in {seconds:.1f} s")
    return copy, seconds


_PAGEFIND = """async ([query, fragments]) => {
  const pf = await import('./pagefind/pagefind.js');
  await pf.init();
  const t0 = performance.now();
  const found = await pf.search(query);
  await Promise.all(found.results.slice(0, fragments).map(r => r.data()));
  return {n: found.results.length, ms: performance.now() - t0};
}"""


PAGEFIND_PACKED = (".pf_meta", ".pf_index", ".pf_fragment", ".pagefind")
"""Pagefind's index files are gzipped already; its scripts are not."""


def measure_pagefind(base: str, site: Path, lang: str, query: str, browser) -> Figure:
    probe = site / f"pf-probe-{lang}.html"
    probe.write_text(f'<!doctype html><html lang="{lang}"><body></body></html>', encoding="utf-8")
    with phone_page(browser) as (page, fetched):
        page.goto(base + probe.name)
        found = page.evaluate(_PAGEFIND, [query, FRAGMENTS])
        total = downloaded(fetched, lambda url: "/pagefind/" in url, PAGEFIND_PACKED)
    return Figure("pagefind", lang, query, found["n"], found["ms"], total)


def report(
    site: Path, say: Say = print, pagefind: str | None = None, rechunk: bool = False
) -> list[Figure]:
    """Measure both candidates on a built ``site`` and print each query's figures."""
    from playwright.sync_api import sync_playwright

    figures: list[Figure] = []
    for lang in LANGUAGES:
        seconds = chunk_index_seconds(site, lang, rewrite=rechunk)
        say(f"  chunks   {lang} index: {seconds:.2f} s")
    with contextlib.ExitStack() as stack:
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        base = stack.enter_context(serve(site))
        for lang in LANGUAGES:
            for query in QUERIES.get(lang, QUERIES["en"]):
                figures.append(tried(functools.partial(measure_chunks, base, lang, query, browser)))
                say(figures[-1].line())
        if pagefind:
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            copy, _ = pagefind_site(site, pagefind, scratch, say)
            pf_base = stack.enter_context(serve(copy))
            for lang in LANGUAGES:
                for query in QUERIES.get(lang, QUERIES["en"]):
                    figures.append(
                        tried(
                            functools.partial(measure_pagefind, pf_base, copy, lang, query, browser)
                        )
                    )
                    say(figures[-1].line())
    for candidate in sorted({f.candidate for f in figures}):
        mine = [f for f in figures if f.candidate == candidate]
        say(
            f"  {candidate}: largest first-query download "
            f"{max(f.gzipped for f in mine) / 1024:.0f} KB gz, slowest "
            f"{max(f.milliseconds for f in mine if f.milliseconds == f.milliseconds):.0f} ms "
            f"(goal ≤ {GOAL_MS} ms at {SLOWDOWN}x CPU)"
        )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site folder")
    parser.add_argument("--pagefind", help="a Python with pagefind[extended] installed")
    parser.add_argument(
        "--rechunk", action="store_true", help="chunk the site's documents again first (approx.)"
    )
    args = parser.parse_args(argv)
    report(args.site, pagefind=args.pagefind, rechunk=args.rechunk)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
