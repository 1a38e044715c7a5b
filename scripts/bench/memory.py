"""The memory a process tree takes together, sampled while it runs (the benchmark's PSS figure)."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

SAMPLE_SECONDS = 0.2
"""How often ``TreeMemory`` sums the process tree's memory."""


class TreeMemory:
    """The peak, over time, of the summed PSS of a process and all its descendants (Linux's
    ``/proc/<pid>/smaps_rollup``): what the processes take together, each shared page counted
    once. Sampled, so a peak shorter than SAMPLE_SECONDS may be missed."""

    def __init__(self) -> None:
        self.peak_kb: int | None = None
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, pid: int) -> None:
        if not Path("/proc/self/smaps_rollup").is_file():
            return
        self._thread = threading.Thread(target=self._sample, args=(pid,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()

    def _sample(self, pid: int) -> None:
        while not self._done.wait(SAMPLE_SECONDS):
            total = sum(_pss_kb(each) for each in _tree(pid))
            if total and (self.peak_kb is None or total > self.peak_kb):
                self.peak_kb = total


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from each process's parent in ``/proc/<pid>/stat``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def _pss_kb(pid: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0
