"""Checking the game files on two cores: a forked process checks the last part of the files
while this one checks the first, and sends its results back pickled.

A result is whatever the work function returns (a checked game: its parsed document, its record
and its problems); pickling keeps every value as it was built, nothing is validated again, so
the results are the very ones this process would have made, in the same order. When the
process cannot be forked (no fork, one core, threads running, few files) or the forked one fails
in any way, this process does the whole work itself: the outcome is the same, only slower.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

MIN_ITEMS = 24
"""Fewer files than this are checked here alone: a fork and the pickles would cost more."""
FORKED_SHARE = 0.45
"""The forked process's share of the work (by size): it also pickles its results, and this
process unpickles them, so it takes a little less than half."""
PROCESSES_VARIABLE = "RULESITE_CHECK_PROCESSES"
"""``1`` checks every file in this process (a test compares both ways)."""


def processes() -> int:
    """How many processes the game files are checked in: 2 where it can pay, else 1."""
    wanted = os.environ.get(PROCESSES_VARIABLE, "")
    if wanted == "1" or sys.platform == "win32" or threading.active_count() > 1:
        return 1  # forking a process with threads could copy a lock some thread holds
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 if (cores or 1) > 1 else 1


def map_split(
    work: Callable[[Item], Result], items: Sequence[Item], sizes: Sequence[int]
) -> list[Result]:
    """``[work(item) for item in items]``, on two cores when :func:`processes` allows;
    ``sizes`` (how big each item is) decides where the work is cut."""
    if len(items) < MIN_ITEMS or processes() < 2:
        return [work(item) for item in items]
    cut = _cut(sizes)
    receiver, sender = multiprocessing.get_context("fork").Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(
        target=_forked, args=(work, items[cut:], sender), daemon=True
    )
    child.start()
    sender.close()
    try:
        first = [work(item) for item in items[:cut]]
        rest = _received(receiver)
    finally:
        receiver.close()
        child.join()
    if rest is None or len(rest) != len(items) - cut:
        rest = [work(item) for item in items[cut:]]
    return first + rest


def map_split_pickled(
    work: Callable[[Item], Result], items: Sequence[Item], sizes: Sequence[int]
) -> list[tuple[Result, bytes]]:
    """``map_split``, each result with its pickle (for a cache on disk): the forked process
    pickles its results anyway, one by one here, so only this process's part is pickled
    again."""

    def here(item: Item) -> tuple[Result, bytes]:
        result = work(item)
        return result, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)

    if len(items) < MIN_ITEMS or processes() < 2:
        return [here(item) for item in items]
    cut = _cut(sizes)
    receiver, sender = multiprocessing.get_context("fork").Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(
        target=_forked, args=(work, items[cut:], sender, True), daemon=True
    )
    child.start()
    sender.close()
    try:
        first = [here(item) for item in items[:cut]]
        rest = _received(receiver)
    finally:
        receiver.close()
        child.join()
    if rest is None or len(rest) != len(items) - cut:
        return first + [here(item) for item in items[cut:]]
    with no_collection():
        try:
            return first + [(pickle.loads(raw), raw) for raw in rest]
        except Exception:
            return first + [here(item) for item in items[cut:]]


def _cut(sizes: Sequence[int]) -> int:
    """Where the forked process's part begins: it gets about FORKED_SHARE of the total size."""
    total, running = sum(sizes), 0
    for index, size in enumerate(sizes):
        running += size
        if running >= total * (1 - FORKED_SHARE):
            return index + 1
    return len(sizes)


def _forked(
    work: Callable[[Any], Any], items: Sequence[Any], sender: Any, each: bool = False
) -> None:
    """In the forked process: the results of ``items``, or ``None`` when anything failed;
    ``each``: a list of each result's pickle."""
    try:
        if each:
            pickles = [pickle.dumps(work(item), protocol=pickle.HIGHEST_PROTOCOL) for item in items]
            payload = pickle.dumps(pickles, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            results = [work(item) for item in items]
            payload = pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:  # the parent does the work again and meets the error itself
        payload = pickle.dumps(None)
    with contextlib.suppress(OSError):
        sender.send_bytes(payload)
    sender.close()


def _received(receiver: Any) -> list[Any] | None:
    """The forked process's results, unpickled without the collector running over them."""
    try:
        payload = receiver.recv_bytes()
    except (EOFError, OSError):  # it died: this process does its part
        return None
    with no_collection():
        try:
            results = pickle.loads(payload)
        except Exception:
            return None
    return results if isinstance(results, list) else None


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """Cyclic garbage collection paused: building a million new objects would otherwise set it
    off again and again, each time over every object made so far (none of them is garbage)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if gc.get_freeze_count() == 0:
                # What was made counts as old at once (freeze, then unfreeze into the oldest
                # generation: no pass over it); else the first young collection after this
                # walks every object made here, and the next ones again.
                gc.freeze()
                gc.unfreeze()
            gc.enable()
