"""One language's MkDocs build inside a build's language process, and what it reports.

A language's process (``publish/workers.py``) renders its pages, then builds them with MkDocs.
For a big language it builds them in a fresh interpreter instead (``exec``, keeping its process
id and its pipe to the parent): rendering touched every page of the catalog the process shares
with the build process, so each became a private copy, and freeing the catalog afterwards
leaves the copies in the process's heap, in holes MkDocs fills only in part. At 1,000 games the
Chinese process held 591 MB (PSS) before MkDocs started and peaked at 934 MB; the same MkDocs
build in a fresh interpreter peaked at 512 MB (``python -m bench.memory``). A fresh interpreter
costs about a second of imports (MkDocs, Material, jieba's word table), which a small language
does not pay back: below ``FRESH_PAGES`` pages the build runs in the rendering process itself.

The fresh interpreter imports this module only (and what MkDocs loads), never the catalog or the
renderer.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import NoReturn

from rulesite.engine import arriving, bytecode
from rulesite.engine import progress as page_progress
from rulesite.engine.search_terms import use_cache_root
from rulesite.errors import BuildError
from rulesite.forked import die_with_parent
from rulesite.publish.mkdocs_run import run_mkdocs
from rulesite.terminal import printable

FRESH_PAGES = 2_000
"""A language with at least this many pages is built by MkDocs in a fresh interpreter."""
MESSAGE_SECONDS = 0.5
"""A language's process reports its counts at most this often (and once at the end)."""


@dataclass(frozen=True)
class Outcome:
    """What one language's process did."""

    seconds: float
    """Wall time of its MkDocs build (0 when it built nothing)."""
    problems: list[str] | None
    """Its problems, or None."""
    pages: int = 0
    """Markdown pages it rendered."""
    peak_kb: int = 0
    """Its peak resident memory (``ru_maxrss``), KB."""


@dataclass(frozen=True)
class LanguageBuild:
    """What MkDocs builds for one language, as the fresh interpreter receives it."""

    lang: str
    """Language code."""
    config_file: str
    """The language project's generated ``mkdocs.yml``."""
    site_dir: str
    """Where MkDocs builds it."""
    strict: bool
    pieces: bool
    """Keep the search pieces for the next build's dirty build (``publish/build_cache.py``)."""
    cache_root: str | None
    """The project's ``.cache/`` (compiled templates, jieba's word table), or None."""
    pages: int
    """Markdown pages the language has (its outcome reports them)."""
    arriving: tuple[str, ...] = ()
    """When the pages are still being rendered as MkDocs starts: each page (its path under the
    docs) in the order it is written; its builder reads each once it is there
    (``engine/arriving.py``)."""


def peak_kb() -> int:
    """This process's peak resident memory, KB (Linux and macOS give it in different units)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


class Reporter:
    """A language process's counts, sent to the parent at most every MESSAGE_SECONDS (and
    the first and last of each count)."""

    def __init__(self, sender: Connection) -> None:
        self.sender, self.sent = sender, 0.0

    def __call__(self, unit: str, done: int, total: int) -> None:
        now = time.monotonic()
        if 0 < done < total and now - self.sent < MESSAGE_SECONDS:
            return
        self.sent = now
        with contextlib.suppress(OSError):
            self.sender.send((unit, done, total))


def build_and_report(sender: Connection, build: LanguageBuild) -> None:
    """Run the language's MkDocs build here, sending its counts and, last, its outcome."""
    seconds = 0.0
    try:
        keep_pieces(build.pieces)
        page_progress.listen(Reporter(sender))
        started = time.perf_counter()
        run_mkdocs(Path(build.config_file), Path(build.site_dir), strict=build.strict)
        seconds = time.perf_counter() - started
        problems = None
    except arriving.PagesLost:  # the process that lost them reports why
        sender.send(Outcome(0.0, None, 0, peak_kb()))
        sender.close()
        return
    except (Exception, KeyboardInterrupt) as error:  # reported to the parent, whatever it is
        problems = failure_lines(error, build.lang)
    sender.send(Outcome(seconds, problems, build.pages, peak_kb()))
    sender.close()


def failure_lines(error: BaseException, lang: str) -> list[str]:
    """A language process's failure as the lines its outcome reports."""
    if isinstance(error, BuildError):
        return error.lines()
    if isinstance(error, OSError):  # a full disk, not the data
        return [f"cannot write content/{lang}: {printable(str(error))}"]
    if isinstance(error, KeyboardInterrupt):
        return ["interrupted"]
    # A bug: still one line, the parent decides how to report it.
    return [f"build of {lang!r} failed: {type(error).__name__}: {error}"]


def keep_pieces(keep: bool) -> None:
    """In a language's process: whether the ``rulesite`` plugin keeps the search pieces a
    next, dirty build completes its index from (``engine/plugin.py``)."""
    if keep:
        from rulesite.engine import plugin

        plugin.KEEP_PIECES = True


def fresh_available() -> bool:
    """Whether this platform can replace a process with a fresh interpreter keeping its pipe."""
    return sys.platform.startswith("linux") and bool(sys.executable)


def exec_fresh(sender: Connection, build: LanguageBuild) -> NoReturn:
    """Replace this process with a fresh interpreter that runs ``build_and_report``: the same
    process (the parent waits for it as before) and the same pipe, none of this heap. Raises
    OSError when the interpreter cannot be started (this process is then unchanged)."""
    descriptor = sender.fileno()
    os.set_inheritable(descriptor, True)
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    settings = json.dumps(build.__dict__)
    # -P: the working folder (the project, whose files are the user's) is not on the path.
    command = [sys.executable, "-P", "-m", __name__, str(descriptor), settings]
    os.execve(sys.executable, command, env)


def main(argv: list[str]) -> int:
    """The fresh interpreter: ``<pipe descriptor> <LanguageBuild as JSON>``."""
    die_with_parent()
    sender = Connection(int(argv[0]), readable=False)
    build = LanguageBuild(**json.loads(argv[1]))
    if build.cache_root is not None:
        bytecode.use(Path(build.cache_root))
        use_cache_root(build.cache_root)
    build_and_report(sender, build)
    return 0


if __name__ == "__main__":
    # Run as this module's own name, not as __main__: the outcome is unpickled by the parent as
    # rulesite.publish.language_build.Outcome.
    from rulesite.forked import exit_at_once
    from rulesite.publish.language_build import main as main_by_name

    # Its heap is the language's whole MkDocs build: the build waits for this process to end.
    exit_at_once(main_by_name(sys.argv[1:]))
