"""The processes a build forks: one per language, each rendering and building its language.

``rulesite build`` forks right after loading (``language_jobs``): each language's process
renders its own pages and writes them into its generated project as they come (the parent never
holds the Markdown), waits until the rest of the project is written (settings, theme, feeds,
pictures: ``gate``; by one more process, ``forked.in_process``, so that the parent can let go of the
catalog at once), then runs MkDocs. Rendering is thus off the serial path and split between the
languages. A language whose MkDocs build runs in a builder (``publish/builders.py``) may hand it
the build as soon as its own pages start to be rendered (``_Arrival``, ``engine/arriving.py``).
A preview's builds (``build_previews``) only run MkDocs.

Every process sends its progress and, last, its outcome through a pipe: the parent shows the
first and collects the second (``run``). A process that dies says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from rulesite.catalog import Catalog
from rulesite.engine import arriving, bytecode
from rulesite.engine.projects import DOCS_DIR, SEARCH_TERMS
from rulesite.errors import BuildError
from rulesite.forked import collecting_seldom, context, die_with_parent
from rulesite.project import Project
from rulesite.publish.builders import Builder, hand_job, hand_over
from rulesite.publish.language_build import (
    FRESH_PAGES,
    LanguageBuild,
    Outcome,
    Reporter,
    build_and_report,
    exec_fresh,
    failure_lines,
    fresh_available,
    keep_pieces,
    peak_kb,
)
from rulesite.publish.mkdocs_run import run_mkdocs
from rulesite.render.renderer import Renderer, make_environment

Listener = Callable[[str, str, int, int], None]
"""Hears (language, unit, done, total) from the language processes."""


class Held:
    """The loaded catalog, held in one place so the build process can let go of it once the
    language processes (which have their own copy) no longer need it from this one."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog: Catalog | None = catalog

    @property
    def loaded(self) -> Catalog:
        if self._catalog is None:
            raise RuntimeError("the catalog was released")  # a bug in the build's order
        return self._catalog

    def release(self) -> None:
        """Drop the catalog (the language processes keep theirs)."""
        self._catalog = None
        gc.collect()
        trim()


def trim() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``): Python frees
    big objects into that heap, where they stay this process's memory, and a forked process's
    copy of them with it. At 300 games, after the catalog's documents went, 24 MB; after the
    whole catalog, 31 MB more (measured in one process). Elsewhere nothing happens."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)


@dataclass(frozen=True)
class Share:
    """One language's game pages, rendered by its own process and by another language's
    process (before that one's own pages), each taking the next game not yet taken: the
    language whose MkDocs build takes longest then starts it sooner, while the other has time
    to spare (Chinese: Material's search splits every section with jieba; at 1,000 games the
    Chinese build ran 35 s longer than the English one, a core idle meanwhile)."""

    lang: str
    """Whose pages."""
    root: Path
    """That language's generated project, ``content/<lang>/``."""
    taken: Any
    """A shared integer (with its lock): how many games (in the catalog's order) were taken."""
    written: Any
    """A shared integer: -1 until the helper is done, then the number of pages it wrote."""
    done: Any
    """An event, set once the helper is done or gave up (by the parent too, should the
    helper's process stop: ``run``'s ``stopped``)."""

    def take(self, games: int) -> Iterator[int]:
        """The index of each next game not yet taken, until there is none."""
        while True:
            with self.taken.get_lock():
                index = self.taken.value
                if index >= games:
                    return
                self.taken.value = index + 1
            yield index


@dataclass(frozen=True)
class RenderJob:
    """One language of a build: render its pages into ``docs``, then (``site_dir``) build."""

    project: Project
    held: Held
    """The catalog (still held in the language's process, which forked before the release;
    released there too once its pages are rendered)."""
    site_url: str
    lang: str
    root: Path
    """The language's generated project, ``content/<lang>/``."""
    site_dir: Path | None
    """Where MkDocs builds the language; None: render only (``build --language`` of another)."""
    strict: bool
    gate: Any
    """An event the parent sets once the rest of the project is written."""
    pieces: bool = False
    """Keep the search pieces for the next build's dirty build (``publish/build_cache.py``)."""
    given: Share | None = None
    """This language's games, shared with another language's process."""
    helps: tuple[Share, ...] = ()
    """Other languages' games this process renders its part of, before its own pages."""
    builder: Connection | None = None
    """The settings pipe of the language's builder (``publish/builders.py``): the build is
    handed over to it instead of run here."""
    arriving: bool = False
    """Hand the builder its build as soon as the language's own pages start to be rendered
    (``_Arrival``)."""
    arrivals: arriving.Arrivals | None = None
    """With ``arriving``: the builder's count of pages written, and its event to set when they
    will not all arrive."""
    segment_ahead: bool = False
    """With ``arriving``, for a language whose search splits words with jieba: once the pages
    are rendered, split their Chinese for the builder's search index
    (``engine/arriving.segment_ahead``)."""


def run(
    jobs: list[tuple[str, Callable[..., None], tuple[Any, ...]]],
    listener: Listener | None = None,
    meanwhile: Callable[[], None] | None = None,
    stopped: Callable[[], None] | None = None,
    builders: dict[str, Builder] | None = None,
    ready: dict[str, Builder] | None = None,
    rendered: Callable[[str], None] | None = None,
) -> dict[str, Outcome]:
    """Run ``target(sender, *args)`` for each job in a forked process, all at once; their
    outcomes by language. ``listener`` hears their counts as they come; ``meanwhile`` runs in
    this process once they started (should it fail, they are stopped); ``stopped`` is called
    when a process ends without an outcome (so that none waits for it). A language with one of
    ``builders`` (``publish/builders.py``) has the builder's outcome once its job rendered it
    (the job's, when that failed); every builder is stopped at the end. A language with one
    of ``ready`` (an incremental build's builders) is handed its job there, not forked.
    ``rendered`` hears each language with a builder whose pages are all rendered."""
    ctx = context()
    trim()  # what the build freed before the fork is not copied into every process
    # Objects that exist now are never collected in the children, nor in this process while
    # they run: the collector would touch (and so copy) every page of memory the catalog and
    # the imported modules share with them (freed ones still go, as their count drops).
    # A caller that froze its objects itself (an incremental build: its catalog) unfreezes them.
    frozen_by_caller = gc.get_freeze_count() > 0
    gc.freeze()
    builders = builders or {}
    running = []
    outcomes: dict[str, Outcome] = {}
    rendering_kb: dict[str, int] = {}  # the peaks of the processes that handed over
    try:
        for lang, target, args in jobs:
            if ready and lang in ready:
                running.append((lang, *hand_job(ready[lang], target, args)))
                continue
            receiver, sender = ctx.Pipe(duplex=False)
            process = ctx.Process(target=target, args=(sender, *args), daemon=True)
            process.start()
            sender.close()
            running.append((lang, process, receiver))
        if meanwhile is not None:
            meanwhile()
        waiting = {receiver: (lang, process, False) for lang, process, receiver in running}
        waiting.update({b.outcome: (b.lang, b.process, True) for b in builders.values()})
        while waiting:
            for receiver in wait(list(waiting)):
                if receiver not in waiting:  # a builder stopped by an earlier one of this round
                    continue
                lang, process, built = waiting[receiver]
                try:
                    message = receiver.recv()
                except EOFError:
                    process.join()
                    ended = f"MkDocs build of {lang!r} stopped (exit {process.exitcode})"
                    message = Outcome(0.0, [ended])
                    if stopped is not None:
                        stopped()
                if not isinstance(message, Outcome):
                    if listener is not None:
                        listener(lang, *message)
                    continue
                del waiting[receiver]
                builder = builders.get(lang)
                if built or builder is None:
                    outcomes[lang] = message
                elif message.problems:  # not rendered: its builder has nothing to build
                    outcomes[lang] = message
                    builder.stop()
                    waiting.pop(builder.outcome, None)
                else:
                    rendering_kb[lang] = message.peak_kb
                    if rendered is not None:
                        rendered(lang)
        for _, process, _ in running:
            process.join()
    finally:
        for _, process, _ in running:
            if process.is_alive():
                process.kill()
                process.join()
        for builder in builders.values():
            builder.stop()
        if not frozen_by_caller:
            gc.unfreeze()
    # A language's peak memory: its processes' summed (an upper bound, as the build's report).
    return {
        lang: dataclasses.replace(
            outcomes[lang], peak_kb=outcomes[lang].peak_kb + rendering_kb.get(lang, 0)
        )
        for lang, _, _ in running
    }


def problems_of(outcomes: dict[str, Outcome]) -> None:
    """Raise BuildError with every language's problems, each line once."""
    lines = [line for outcome in outcomes.values() if outcome.problems for line in outcome.problems]
    if lines:
        raise BuildError("\n".join(dict.fromkeys(lines)))


def render_and_build(sender: Connection, job: RenderJob) -> None:
    """Child process: render ``job``'s language into its project, then build it with MkDocs
    (a big language in a fresh interpreter: ``publish/language_build.py``)."""
    die_with_parent()
    arrival = _Arrival(job) if job.arriving and job.site_dir is not None else None
    try:
        report = Reporter(sender)
        with collecting_seldom():
            pages = _render(job, lambda done, total: report("games rendered", done, total), arrival)
        if pages is None:  # the process rendering a share of them reports why
            if arrival is not None and arrival.handed:
                arrival.lose()
            elif job.builder is not None:
                hand_over(job.builder, None)
            sender.send(Outcome(0.0, None, 0, peak_kb()))
            sender.close()
            return
        if arrival is not None:
            arrival.check(pages)
        # MkDocs needs nothing of the catalog: its memory (this process's copy of every page of
        # it that rendering touched) goes to the build instead.
        job.held.release()
        job.gate.wait()
    except (Exception, KeyboardInterrupt) as error:
        if arrival is not None:
            arrival.lose()
        sender.send(Outcome(0.0, failure_lines(error, job.lang), 0, peak_kb()))
        sender.close()
        return
    if job.site_dir is None:
        sender.send(Outcome(0.0, None, pages, peak_kb()))
        sender.close()
        return
    build = _language_build(job, pages)
    if job.builder is not None:  # the builder's outcome is the language's
        if arrival is None or not arrival.handed:
            hand_over(job.builder, build)
        sender.send(Outcome(0.0, None, pages, peak_kb()))
        sender.close()
        if arrival is not None and arrival.handed:
            arrival.segment_ahead()
        return
    if pages >= FRESH_PAGES and fresh_available():
        # Returns only when the interpreter could not be started: then MkDocs builds here.
        with contextlib.suppress(OSError):
            exec_fresh(sender, build)
    build_and_report(sender, build)


def _language_build(job: RenderJob, pages: int, order: tuple[str, ...] = ()) -> LanguageBuild:
    """What the language's MkDocs build is given (``pages``: how many it has; ``order``: the
    pages in the order they are written, while they are)."""
    assert job.site_dir is not None
    cache_root = bytecode.root()
    return LanguageBuild(
        job.lang,
        str(job.root / "mkdocs.yml"),
        str(job.site_dir),
        job.strict,
        job.pieces,
        str(cache_root) if cache_root is not None else None,
        pages,
        order,
    )


class _Arrival:
    """A language whose builder is handed its build while its pages are rendered
    (``engine/arriving.py``): once its own pages start, each page has its empty file, the build
    is handed over as soon as the rest of the project is written (``RenderJob.gate``: looked at
    between two games), and each page is counted once written."""

    def __init__(self, job: RenderJob) -> None:
        self.job = job
        self.docs = job.root / DOCS_DIR
        self.handed = False
        self.paths: list[str] = []
        self.build: LanguageBuild | None = None

    def start(self, paths: list[str]) -> None:
        """The language's own pages start (``paths``: every page it will have)."""
        arriving.place_holders(self.docs, paths)
        self.paths = paths
        self.build = _language_build(self.job, len(paths), tuple(paths))
        self.poll()

    def written(self) -> None:
        """One more page is written (in the order the build was given)."""
        assert self.job.arrivals is not None
        self.job.arrivals.written.value += 1

    def poll(self) -> None:
        """Hand the build over if the rest of the project is written."""
        if self.build is not None and not self.handed and self.job.gate.is_set():
            assert self.job.builder is not None
            self.job.builder.send(self.build)  # kept open for the runs segmented ahead
            self.handed = True

    def check(self, pages: int) -> None:
        """Every page arrived (raises for a page never written)."""
        if pages != len(self.paths):  # a bug: a page's builder would wait for ever
            raise BuildError(f"{self.job.lang}: {pages} pages rendered of {len(self.paths)}")

    def lose(self) -> None:
        """The pages will not all arrive: the builder stops."""
        if self.handed and self.job.arrivals is not None:
            self.job.arrivals.lost.set()

    def segment_ahead(self) -> None:
        """Every page arrived and the build is handed over: split the Chinese of the pages for
        the builder, if the language's search does (then let the builder know it is over)."""
        assert self.job.builder is not None
        try:
            if self.job.segment_ahead:
                terms = self.job.root / SEARCH_TERMS
                arriving.segment_ahead(self.docs, self.paths, terms, self.job.builder.send)
        finally:
            self.job.builder.close()


def _render(
    job: RenderJob, report: Callable[[int, int], None], arrival: _Arrival | None = None
) -> int | None:
    """Render this process's part of the shares it helps with, then the language's pages,
    writing each as it comes; how many pages the language has (None: its share was lost)."""
    env = bytecode.pages(make_environment(job.project))  # not in every build
    renderer = Renderer(job.project, job.held.loaded, env, site_url=job.site_url)
    games = job.held.loaded.games
    for share in job.helps:
        written = 0
        try:
            for index in share.take(len(games)):
                written += _write(share.root, renderer.pages_of_game(games[index], share.lang))
            share.written.value = written
        finally:
            share.done.set()
    written = arrival.written if arrival is not None else None
    if arrival is not None:
        arrival.start(renderer.page_paths(job.lang))
        report = _and_then(report, arrival.poll)
    given = job.given
    if given is None:
        return _write(job.root, renderer.language_pages(job.lang, report), written)
    count = _write(job.root, renderer.pages_of_all_games(job.lang))
    for index in given.take(len(games)):
        count += _write(job.root, renderer.pages_of_game(games[index], job.lang))
        report(index + 1, len(games))
    given.done.wait()
    if given.written.value < 0:
        return None
    report(len(games), len(games))
    return count + given.written.value


def _and_then(
    report: Callable[[int, int], None], then: Callable[[], None]
) -> Callable[[int, int], None]:
    """``report``, then ``then``."""

    def both(done: int, total: int) -> None:
        report(done, total)
        then()

    return both


def _write(
    root: Path, pages: Iterator[tuple[str, str]], written: Callable[[], None] | None = None
) -> int:
    """Write ``pages`` (path under the docs, text) into the project at ``root``; how many.
    ``written`` hears each page once it is written (for a build that reads them as they
    arrive)."""
    docs = root / DOCS_DIR
    count = 0
    for relative, text in pages:
        path = docs / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        count += 1
        if written is not None:
            written()
    return count


def mkdocs_only(
    sender: Connection,
    config_file: str,
    site_dir: str,
    strict: bool,
    dirty: bool = False,
    command: str = "build",
    pieces: bool = False,
) -> None:
    """Child process: build one language with MkDocs (a preview's build, or an incremental
    build's: ``pieces``, ``publish/incremental.py``)."""
    die_with_parent()
    started = time.perf_counter()
    try:
        keep_pieces(pieces)
        run_mkdocs(Path(config_file), Path(site_dir), strict=strict, dirty=dirty, command=command)
        outcome = None
    except BuildError as error:
        outcome = error.lines()
    except KeyboardInterrupt:
        outcome = ["interrupted"]
    except Exception as error:  # a bug: still one line, the parent decides how to report it
        outcome = [f"MkDocs build failed: {type(error).__name__}: {error}"]
    sender.send(Outcome(time.perf_counter() - started, outcome, 0, peak_kb()))
    sender.close()
