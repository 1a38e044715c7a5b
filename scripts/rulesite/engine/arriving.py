"""Pages that arrive while MkDocs builds: a language's build may start before its pages are
all rendered.

A clean build's builder (``publish/builders.py``) can run MkDocs while the language's pages are
still being rendered by other processes. Before it starts, every page the language will have
exists as a **placeholder** (``PLACEHOLDER``, which no rendered page can be: Markdown never holds
a NUL), so MkDocs finds the very files, in the very order, a finished project has; each
rendered page then replaces its placeholder in one step (``write_page``: written beside the
docs, then renamed into place), so a reader sees the placeholder or the whole page, never a
part. MkDocs reads a page's source only when it converts it, in order: the ``rulesite`` plugin's
``on_page_read_source`` waits there (``wait_for``) until the page has arrived, then lets MkDocs
read it as ever. The site is the same as when every page was rendered first (a test compares).

Rendering a page takes a fraction of converting it, so once the first pages are there MkDocs
seldom waits, and both languages' builds start as soon as the catalog is checked (before, a
language's build waited for all its pages, and the Chinese one, the longest, ended alone on one
core). Only a catalogue below ``publish/builders.WARM_GAMES`` builds this way: a build's memory
grows as it converts pages, and with a big one its peak would come while the languages render.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from rulesite.engine import search_sections, search_terms

PLACEHOLDER = b"\0rulesite: this page is being rendered\0"
"""What a page's file holds until its page arrives."""
STAGING = ".arriving"
"""Beside a language's docs (``content/<lang>/.arriving/``): where a page is written before it
is renamed into place (MkDocs never lists it)."""
FIRST_PAUSE = 0.002
LONGEST_PAUSE = 0.05
"""Seconds between two looks at a page that has not arrived: short at first (pages arrive in
the order MkDocs reads them, each soon after the last), longer while none comes."""


class PagesLost(Exception):
    """The language's pages will not all arrive (a process rendering them failed, and says
    why): its build stops without a word of its own."""


_lost: Any = None
"""While pages arrive: an event set when they will not all come; None: every page is there."""


def expect(lost: Any) -> None:
    """In a builder's process, before its build: its pages arrive while it builds; ``lost``
    (a multiprocessing event) is set when they will not all come."""
    global _lost
    _lost = lost


def expecting() -> bool:
    """Whether this process's build reads pages that may not have arrived yet."""
    return _lost is not None


def wait_for(path: str) -> None:
    """Return once the page at ``path`` has arrived (at once when no pages are expected);
    raise PagesLost when it never will."""
    if _lost is None:
        return
    pause = FIRST_PAUSE
    while not arrived(path):
        if _lost.is_set():
            raise PagesLost(path)
        time.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)


def arrived(path: str | Path) -> bool:
    """Whether the file at ``path`` is no longer a placeholder."""
    with open(path, "rb") as file:
        return file.read(len(PLACEHOLDER)) != PLACEHOLDER


def place_holders(docs: Path, relatives: list[str]) -> None:
    """A placeholder for each page (paths under ``docs``) not written yet: a page that arrived
    before (rendered by another process) is kept."""
    made: set[Path] = set()
    for relative in relatives:
        path = docs / relative
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        try:
            with open(path, "xb") as file:
                file.write(PLACEHOLDER)
        except FileExistsError:
            pass


def write_page(docs: Path, relative: str, text: str) -> None:
    """Write a page that may be read as it arrives: whole, or not at all (see the module)."""
    path = docs / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = docs.parent / STAGING
    staging.mkdir(exist_ok=True)
    written = staging / f"{os.getpid()}-{relative.replace('/', '%')}"
    written.write_text(text, encoding="utf-8", newline="\n")
    os.replace(written, path)


def remove_staging(docs: Path) -> None:
    """Remove the staging folder once every page arrived (it is empty then)."""
    staging = docs.parent / STAGING
    if staging.is_dir():
        for left in staging.iterdir():  # a page a failed process never renamed
            left.unlink()
        staging.rmdir()


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


def segment_ahead(docs: Path, terms_file: Path, send: Callable[[dict[str, str]], None]) -> None:
    """In the process that rendered a Chinese language's pages: split every run of Chinese
    characters in its Markdown (``docs``), page by page in the order MkDocs writes them, with
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
        for path in _in_build_order(docs):
            text = path.read_text(encoding="utf-8")
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


def _in_build_order(docs: Path) -> Iterator[Path]:
    """The Markdown pages under ``docs``, folders in name order after each folder's own pages
    (near enough the order MkDocs writes them in: a run needed early is sent early)."""
    for folder, folders, files in os.walk(docs):
        folders.sort()
        for name in sorted(files):
            if name.endswith(".md"):
                yield Path(folder, name)
