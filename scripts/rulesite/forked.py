"""Work in a forked process of its own, beside the work of this one; and how processes end.

Used by the build (``publish/``: the language processes, the process that writes the shared
pages) and by the plugin (``engine/``: the two halves of the search split), hence here, under
every stage that forks.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from rulesite.errors import BuildError
from rulesite.terminal import printable


def context() -> Any:
    """Fork where there is fork: workers then share the imported MkDocs, Material, jieba and
    the loaded catalog with this process, and start at once."""
    return multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")


def in_process(
    work: Callable[[], Any],
    meanwhile: Callable[[], None],
    *,
    what: str = "writing the shared pages",
) -> Any:
    """``work()`` in a forked process of its own: what it returns, or the exception it raised,
    raised here. ``meanwhile`` runs here once the process started (a build lets go of the
    catalog then: the process has its own copy). A process that ends without an answer (killed)
    raises BuildError ("``what`` stopped (exit N)"). Where processes are not forked (Windows),
    ``work`` runs here, then ``meanwhile``: a spawned process could not be handed the closure
    or its objects."""
    if context().get_start_method() != "fork":
        value = work()
        meanwhile()
        return value
    # os.fork, not a multiprocessing.Process: a language's build process, itself a daemonic
    # Process, may not start Processes, and it splits its search index in two this way.
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, then end without running anything of the parent's
        code = 1
        try:
            os.close(reader)
            die_with_parent()
            with collecting_seldom():
                _answer(writer, work)
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    status: int | None = None
    try:
        meanwhile()
        with os.fdopen(reader, "rb") as answer:
            reader = -1
            data = answer.read()
        _, status = os.waitpid(pid, 0)
    finally:
        if reader != -1:
            os.close(reader)
        if status is None:  # meanwhile failed: the child's answer is not wanted
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    try:
        outcome, value = pickle.loads(data)
    except Exception as error:
        code = os.waitstatus_to_exitcode(status)
        if data and code == 0:  # a whole answer that cannot be read back here
            raise BuildError(f"{what}: {type(error).__name__}: {printable(str(error))}") from None
        # No answer, or part of one: the process died before it was written.
        raise BuildError(f"{what} stopped (exit {code})") from None
    if outcome == "raised":
        raise value
    return value


def _answer(writer: int, work: Callable[[], Any]) -> None:
    """In the child of ``in_process``: write ("returned", value) or ("raised", exception),
    pickled, to ``writer``."""
    try:
        message: tuple[str, Any] = ("returned", work())
    except BaseException as error:  # the parent raises it: one place decides how to report
        message = ("raised", error)
    try:
        data = pickle.dumps(message)
    except Exception as error:  # a value or exception that cannot be sent: still an answer
        error = BuildError(f"{type(error).__name__}: {printable(str(error))}")
        data = pickle.dumps(("raised", error))
    with os.fdopen(writer, "wb") as answer:
        answer.write(data)


COLLECTOR_THRESHOLDS = (50_000, 20, 100)
"""The cycle collector's thresholds while a build renders (``collecting_seldom``; Python's: 700,
10, 10)."""


@contextlib.contextmanager
def collecting_seldom() -> Iterator[None]:
    """While a process of a build's own renders or writes (a language's pages before MkDocs
    builds them, the preview's renders, every ``in_process`` child: the rest of the projects, a
    dirty build's half of the search split): run the cycle collector after
    50,000 new objects instead of 700. Rendering makes millions of objects and frees almost all
    of them by their counts; each pass still walked the young ones. At 100 games the rendering
    processes spent 0.1 CPU s each in passes, 0.02 s with these thresholds (``gc.callbacks``).
    Never around MkDocs: its pages and trees hold reference cycles that only the collector
    frees, and with seldom passes there a 1,000-game build was no faster (one pair on tmpfs,
    ``cgcpu``: 87.9 s against 84.9 s)."""
    before = gc.get_threshold()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def die_with_parent() -> None:
    """How a forked child ends: with its parent, and quietly at a SIGTERM.

    The preview turns SIGTERM into KeyboardInterrupt (``serve/preview.py``); a child forked
    from it would inherit that, and multiprocessing ends its children with SIGTERM when the
    preview exits: raised wherever the child then was (past its own ``except``), the
    interruption printed a traceback under the preview's last line. A child takes SIGTERM's
    default again, as a fresh interpreter has it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # A killed build must not leave a worker writing into folders the next build cleans up.
    # Linux can end a child with its parent; elsewhere the worker finishes its own build.
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before the line above took effect
        os._exit(1)


def exit_at_once(code: int) -> NoReturn:
    """End this program with ``code`` without freeing its objects one by one on the way out.

    Python tears every module down when it exits: after a build of 100 games that took 0.2 s
    of the build process (jieba's 500,000 words, pypinyin's tables, the imported modules), and a
    build waits for its fresh MkDocs interpreters (``publish/language_build.py``) to end. The
    program's files are closed by then (written under ``with``); logging and the output
    streams are flushed here. With another thread, a child process still running or an output
    stream that cannot be flushed, the program ends the usual way (Python waits for those, and
    reports the stream)."""
    import logging
    import threading

    if threading.active_count() == 1 and not multiprocessing.active_children():
        logging.shutdown()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(code)
    sys.exit(code)
