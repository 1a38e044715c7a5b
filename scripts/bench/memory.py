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
            total = sum(_pss_kb(each) for each in process_tree(pid))
            if total and (self.peak_kb is None or total > self.peak_kb):
                self.peak_kb = total


def process_tree(pid: int) -> list[int]:
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
    return _rollup_kb(pid)[0]


def _rollup_kb(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of ``pid``, KB; zeros once it is gone."""
    found = {"Pss": 0, "Rss": 0}
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in found:
                found[key] = int(value.split()[0])
    return found["Pss"], found["Rss"]


def main(command: list[str]) -> int:
    """Run ``command``; print each process's peak PSS and RSS (and when), the tree's peak and
    a timeline of each process's PSS: where a build's memory goes, process by process.
    ``python -m bench.memory rulesite build --clean`` (from scripts/, in the project)."""
    import subprocess
    import time

    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    peaks: dict[int, list[float]] = {}
    timeline: list[tuple[float, dict[int, tuple[int, int]]]] = []
    while process.poll() is None:
        now, each = time.monotonic() - started, {}  # pid: (PSS, RSS)
        for pid in process_tree(process.pid):
            pss, rss = _rollup_kb(pid)
            if not pss:
                continue
            each[pid] = (pss, rss)
            best = peaks.setdefault(pid, [now, 0, 0, 0.0])  # first seen, PSS, RSS, when
            if pss > best[1]:
                best[1], best[3] = pss, now
            best[2] = max(best[2], rss)
        timeline.append((now, each))
        time.sleep(SAMPLE_SECONDS)
    print(f"exit {process.returncode}, {time.monotonic() - started:.1f} s")
    for pid, (first, pss, rss, when) in peaks.items():
        peak = f"PSS {int(pss) >> 10} MB at {when:.1f} s, RSS {int(rss) >> 10} MB"
        print(f"pid {pid} from {first:.1f} s: {peak}")
    if timeline:
        at, most = max(timeline, key=lambda row: sum(p for p, _ in row[1].values()))
        total = sum(p for p, _ in most.values()) >> 10
        print(f"tree: PSS {total} MB at {at:.1f} s: " + _row(most))
        for at, each in timeline[:: max(1, len(timeline) // 40)]:
            print(f"{at:7.1f} s " + _row(each))
    return process.returncode


def _row(each: dict[int, tuple[int, int]]) -> str:
    return "  ".join(f"{pid}:{pss >> 10}" for pid, (pss, _) in each.items())


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
