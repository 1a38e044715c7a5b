"""Work in a forked process of its own (``forked.in_process``): its value or its exception comes
back, a process that dies is an error named after its work, and where processes are spawned the
work runs here."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rulesite import forked
from rulesite.errors import BuildError


def test_work_in_a_process_of_its_own_answers_with_its_value_after_meanwhile_ran() -> None:
    parent = os.getpid()
    ran: list[str] = []
    answer = forked.in_process(
        lambda: (os.getpid(), {"key": b"\x00bytes"}), lambda: ran.append("meanwhile")
    )
    assert answer[0] != parent  # it ran elsewhere
    assert answer[1] == {"key": b"\x00bytes"}
    assert ran == ["meanwhile"]


def test_work_in_a_process_of_its_own_collects_seldom_and_leaves_this_one_as_it_was() -> None:
    before = gc.get_threshold()
    assert forked.in_process(gc.get_threshold, lambda: None) == forked.COLLECTOR_THRESHOLDS
    assert gc.get_threshold() == before != forked.COLLECTOR_THRESHOLDS


def test_collecting_seldom_ends_with_the_thresholds_it_began_with() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), forked.collecting_seldom():
        assert gc.get_threshold() == forked.COLLECTOR_THRESHOLDS
        raise RuntimeError("rendering failed")
    assert gc.get_threshold() == before


def test_work_runs_here_where_processes_are_not_forked(monkeypatch) -> None:
    import multiprocessing

    monkeypatch.setattr(forked, "context", lambda: multiprocessing.get_context("spawn"))
    order: list[str] = []
    answer = forked.in_process(
        lambda: order.append("work") or os.getpid(), lambda: order.append("meanwhile")
    )
    assert answer == os.getpid()
    assert order == ["work", "meanwhile"]


def _fails() -> None:
    raise BuildError("content/zh: cannot write: disk full")


def test_work_in_a_process_of_its_own_raises_its_exception_here() -> None:
    with pytest.raises(BuildError) as raised:
        forked.in_process(_fails, lambda: None)
    assert str(raised.value) == "content/zh: cannot write: disk full"


def test_work_in_a_process_that_dies_without_an_answer_fails_the_build() -> None:
    with pytest.raises(BuildError) as raised:
        forked.in_process(lambda: os._exit(5), lambda: None)
    assert str(raised.value) == "writing the shared pages stopped (exit 5)"


def test_an_answer_that_cannot_be_sent_is_still_an_error() -> None:
    with pytest.raises(BuildError, match="TypeError"):
        forked.in_process(lambda: threading.Lock(), lambda: None)  # a lock does not pickle


def test_a_process_that_dies_is_named_after_its_work() -> None:
    with pytest.raises(BuildError) as raised:
        forked.in_process(lambda: os._exit(9), lambda: None, what="splitting the search index")
    assert str(raised.value) == "splitting the search index stopped (exit 9)"


def test_when_meanwhile_fails_the_work_is_stopped(tmp_path) -> None:
    started = tmp_path / "started"

    def work() -> None:
        # Named at once with its content (a rename): meanwhile waits for the name, and must
        # not read the file between its creation and its write (seen once under load).
        writing = tmp_path / "started.part"
        writing.write_text(str(os.getpid()))
        writing.rename(started)
        time.sleep(60)

    def meanwhile() -> None:
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise ValueError("meanwhile failed")

    begun = time.monotonic()
    with pytest.raises(ValueError, match="meanwhile failed"):
        forked.in_process(work, meanwhile)
    assert time.monotonic() - begun < 30  # not the work's minute
    with pytest.raises(ProcessLookupError):  # gone, and reaped: no zombie is left
        os.kill(int(started.read_text()), 0)


def _refuse() -> None:
    raise ValueError("refused")


class _Unreadable:
    """Pickles, but cannot be unpickled (as an answer of a class this process cannot rebuild)."""

    def __reduce__(self):
        return (_refuse, ())


def test_an_answer_that_cannot_be_read_back_is_an_error_naming_the_work() -> None:
    with pytest.raises(BuildError) as raised:
        forked.in_process(_Unreadable, lambda: None, what="splitting the search index")
    assert str(raised.value) == "splitting the search index: ValueError: refused"


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def test_a_child_ends_quietly_at_a_sigterm_whatever_its_parent_made_of_it() -> None:
    # The preview raises KeyboardInterrupt at a SIGTERM; its children must not inherit that
    # (multiprocessing ends them with SIGTERM as the preview exits).
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        in_child = forked.in_process(lambda: signal.getsignal(signal.SIGTERM), lambda: None)
        assert signal.getsignal(signal.SIGTERM) is _interrupt  # the parent's stays
    finally:
        signal.signal(signal.SIGTERM, before)
    assert in_child == signal.SIG_DFL


_ENDING = """
import atexit, logging, sys, threading, time
from rulesite.forked import exit_at_once
atexit.register(lambda: print("torn down", flush=True))
logging.basicConfig(stream=sys.stderr, format="%(message)s")
print("a line still in the buffer of a pipe")
logging.getLogger("x").warning("a warning")
if sys.argv[1] == "thread":
    threading.Thread(target=lambda: (time.sleep(0.3), print("the thread's line"))).start()
exit_at_once(3)
"""


def _ended(how: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _ENDING, how],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(forked.__file__).parents[1])},
    )


def test_a_program_ends_at_once_with_its_output_whole() -> None:
    ended = _ended("alone")
    assert ended.returncode == 3
    assert ended.stdout == "a line still in the buffer of a pipe\n"  # flushed; no tear-down ran
    assert ended.stderr == "a warning\n"


def test_a_program_with_another_thread_ends_the_usual_way_after_it() -> None:
    ended = _ended("thread")
    assert ended.returncode == 3
    assert ended.stdout.splitlines() == [
        "a line still in the buffer of a pipe",
        "the thread's line",
        "torn down",
    ]
