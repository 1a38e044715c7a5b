"""Pages that arrive while MkDocs builds: a language's build may start before its pages are
all rendered.

A clean build's builder (``publish/builders.py``) can run MkDocs while the process that renders
the language's pages is still at it. Before the builder starts, every page the language will
have exists as an empty file (``place_holders``), so MkDocs finds the very files, in the very
order, a finished project has. The rendering process writes the pages in one known order (the
builder is given it) and counts each page once it is written and closed, in a shared counter
(``Arrivals.written``); MkDocs reads a page's source only when it converts it, and the
``rulesite`` plugin's ``on_page_read_source`` waits there (``wait_for``) until the counter has
passed the page, then lets MkDocs read it as ever. The site is the same as when every page was
rendered first (a test compares). A page is written once, into the file it has: no file is
written beside it and renamed (on ext4 a build that frees thousands of inodes pays for it in
every file it creates after, ``scripts/bench/measure.py: settle``).

Rendering a page takes a fraction of converting it, so once the first pages are there MkDocs
seldom waits, and both languages' builds start as soon as the catalog is checked (before, a
language's build waited for all its pages, and the Chinese one, the longest, ended alone on one
core). Only a catalogue below ``publish/builders.WARM_GAMES`` builds this way: a build's memory
grows as it converts pages, and with a big one its peak would come while the languages render.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from rulesite.engine import search_sections, search_terms

FIRST_PAUSE = 0.002
LONGEST_PAUSE = 0.05
"""Seconds between two looks at a page that has not arrived: short at first (pages arrive in
the order MkDocs reads them, each soon after the last), longer while none comes."""


class PagesLost(Exception):
    """The language's pages will not all arrive (the process rendering them failed, and says
    why): its build stops without a word of its own."""


@dataclass(frozen=True)
class Arrivals:
    """How a builder learns which of its pages have arrived (shared with the process that
    renders them, which it forked before)."""

    written: Any
    """A shared integer: how many pages, in the order given, are written."""
    lost: Any
    """An event, set when the pages will not all come."""


_arrivals: Arrivals | None = None
"""While pages arrive: how to know they did; None: every page is there."""
_order: dict[str, int] = {}
"""Each arriving page's place in the order it is written (by path under the docs)."""


def expect(arrivals: Arrivals, order: list[str]) -> None:
    """In a builder's process, before its build: its pages (paths under the docs, in the order
    they are written) arrive while it builds."""
    global _arrivals, _order
    _arrivals, _order = arrivals, {path: place for place, path in enumerate(order)}


def expecting() -> bool:
    """Whether this process's build reads pages that may not have arrived yet."""
    return _arrivals is not None


def arrived(path: str) -> bool:
    """Whether the page at ``path`` (under the docs) is there to read."""
    if _arrivals is None:
        return True
    place = _order.get(path)
    return place is None or _arrivals.written.value > place


def wait_for(path: str) -> None:
    """Return once the page at ``path`` (under the docs) has arrived (at once when no pages are
    expected); raise PagesLost when it never will."""
    if _arrivals is None:
        return
    pause = FIRST_PAUSE
    while not arrived(path):
        if _arrivals.lost.is_set():
            raise PagesLost(path)
        time.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)


def place_holders(docs: Path, relatives: list[str]) -> None:
    """An empty file for each page (paths under ``docs``), for MkDocs to list before the page
    is written into it."""
    made: set[Path] = set()
    for relative in relatives:
        path = docs / relative
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        path.touch()


# Chinese search words, segmented ahead. A Chinese build's slowest single part is jieba splitting
# every section's text for the search index as each page is written (``search_sections``): at
# 300 games a seventh of that build, whose time is the whole build's. Every run of Chinese
# characters a page's index text holds is in its Markdown too (at 300 games 147,961 of 147,965
# runs; markup between characters is gone from the text, so a few are longer), so the process
# that rendered the pages, idle once they are written, splits those runs with the very word table
# the build uses (jieba's, with the same search terms added to a fresh one) and sends them,
# batch by batch, to the builder, whose index takes each run it holds instead of splitting it.
# The index is the same (jieba gives one split per run and word table); only where the work runs
# changes.

BATCH = 2_000
"""Runs segmented ahead per message."""

_ahead: dict[str, str] = {}
"""In a builder: the runs segmented ahead so far (``receive_runs``), each as the index holds it."""
_stop: threading.Event | None = None
"""Set when the builder no longer wants runs (its pages are written)."""


def runs_ahead() -> dict[str, str] | None:
    """The runs segmented ahead for this process's build, which the receiving thread adds to
    (None when none are expected)."""
    return _ahead if _stop is not None else None


def receive_runs(source: Connection) -> None:
    """In a builder: receive the runs segmented ahead from ``source`` in a thread of their own
    until they end, or until ``stop_receiving``."""
    global _stop
    _stop = stop = threading.Event()

    def receive() -> None:
        try:
            while not stop.is_set():
                if source.poll(0.05):
                    _ahead.update(source.recv())
        except (EOFError, OSError):  # all sent, or the sender is gone
            pass
        finally:
            source.close()

    threading.Thread(target=receive, name="runs-ahead", daemon=True).start()


def stop_receiving() -> None:
    """The pages are written: no more runs are wanted (the thread ends within 0.05 s)."""
    if _stop is not None:
        _stop.set()


def segment_ahead(
    docs: Path, pages: list[str], terms_file: Path, send: Callable[[dict[str, str]], None]
) -> None:
    """In the process that rendered a Chinese language's pages: split every run of Chinese
    characters in its Markdown (``pages``, paths under ``docs``, in the order written), with
    jieba's word table and the search terms of ``terms_file`` added to it, and ``send`` them in
    batches. Stops quietly when the builder no longer listens or jieba cannot be prepared as
    the build prepares it (the build then splits every run itself, and reports any problem
    with the terms)."""
    if not search_terms.fresh():  # a word table others changed would split differently
        return
    try:
        import jieba

        search_terms.add_search_terms(str(terms_file))
        seen: set[str] = set()
        batch: dict[str, str] = {}
        for page in pages:
            text = (docs / page).read_text(encoding="utf-8")
            for run in search_sections.han_runs(text):
                if run not in seen:
                    seen.add(run)
                    batch[run] = search_sections.segmented(jieba.cut, run)
                    if len(batch) >= BATCH:
                        send(batch)
                        batch = {}
        if batch:
            send(batch)
    except (OSError, ValueError):
        return
