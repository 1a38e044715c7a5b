"""Where the test suite's time goes: ``make test``'s pytest run, with every process it starts
sampled, and their CPU seconds printed by kind of process and by test file.

On a machine whose speed moves with other people's load, two runs' wall times of the same code
differ by a fifth or more: the whole suite's time neither tells a change worth 3 % from that
noise nor says where the time went. The CPU seconds of each kind of process say which part of
the suite a change made cheaper (the pages' renderers, the builds, the command lines the tests
start). They move with the machine's speed too (the speed checks printed beside them tell by
how much), so compare runs made one after the other, nothing else running:

    .venv/bin/python scripts/bench/suite.py                # the whole suite, as make test runs it
    .venv/bin/python scripts/bench/suite.py --workers 0 -- tests/test_render.py

Linux only (it reads ``/proc``); the standard library, and pytest for the plugin that notes
when each test ran (``timeline.py``).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import timeline

REPO = Path(__file__).resolve().parents[2]
SAMPLE_SECONDS = 0.2
"""How often every process is read: a process that lives shorter than this may be missed (its
time still counts in the total the run's own accounting gives, ``reaped``)."""
SPEED_STEPS = 20_000_000
"""Steps of the speed check's loop: as many as ``.ci/run``'s (``speed_check.LOOP``), so the two
figures compare."""
WORKERS = "4"
"""Test workers, as the Makefile's ``TEST_WORKERS``."""

OTHER = "other: "
"""The start of the kind of a process that is none of the others."""
PROVISIONAL = (OTHER, "Chromium: zygote")
"""Kinds a process is read again for, each time (``Sampler.read``)."""
CHROMIUM_TYPE = re.compile(r"--type=(\S+)")
UTILITY_TYPE = re.compile(r"--utility-sub-type=(\S+)")


def kind_of(command: str, is_root: bool = False) -> str:
    """The kind of process a command line (``/proc/<pid>/cmdline``, NULs as spaces) is."""
    if is_root:
        return "pytest, the controlling process"
    program = command.split(" ", 1)[0]
    # Chromium's zygotes run as /proc/self/exe.
    if "chrom" in Path(program).name or (program == "/proc/self/exe" and "--type=" in command):
        found = CHROMIUM_TYPE.search(command)
        if found is None:
            return "Chromium: browser"
        if found[1] == "utility":
            sub = UTILITY_TYPE.search(command)
            return f"Chromium: utility {sub[1].rsplit('.', 1)[-1] if sub else '?'}"
        return f"Chromium: {found[1]}"
    if "run-driver" in command:
        return "Playwright's driver (Node)"
    if Path(program).name in ("node", "nodejs"):
        return "Node (the JavaScript tests)"
    if "python" in Path(program).name:
        if "exec(eval(sys.stdin" in command:
            return "pytest workers, with the builds they fork"
        if "rulesite" in command:
            return "rulesite commands the tests start"
        return "other Python the tests start"
    return f"{OTHER}{Path(program).name}"


@dataclass
class Sampler:
    """Every process under ``root``, read from ``/proc`` until ``stop`` is set."""

    root: int
    cpu: dict[tuple[int, str], float] = field(default_factory=dict)
    """Last CPU seconds seen, by (pid, start time)."""
    kinds: dict[tuple[int, str], str] = field(default_factory=dict)
    """What each process is (``kind_of``), by the same key."""
    outside: set[tuple[int, str]] = field(default_factory=set)
    """Processes seen not under ``root``: none of them can come under it later."""
    stop: threading.Event = field(default_factory=threading.Event)
    """Set to end ``run``."""
    charged: dict[tuple[int, ...], list[tuple[float, float]]] = field(default_factory=dict)
    """CPU seconds used between two looks, by the ``lineage`` of the process that used them:
    (the middle of the two looks' times, the seconds), for ``by_file``."""
    owners: dict[tuple[int, str], tuple[int, ...]] = field(default_factory=dict)
    """Each process's ``lineage``, by the same key as ``cpu``."""
    last_look: float | None = None
    """When the last look began (``time.monotonic()``)."""

    def run(self) -> None:
        while not self.stop.is_set():
            self.read()
            self.stop.wait(SAMPLE_SECONDS)

    def read(self) -> None:
        """One look at every process: a process under ``root`` (or known from an earlier look,
        though its parent has gone) has its CPU seconds noted."""
        now = time.monotonic()
        middle = now if self.last_look is None else (self.last_look + now) / 2
        self.last_look = now
        used: collections.Counter[tuple[int, ...]] = collections.Counter()
        stats = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                stat = _stat(int(entry))
                if stat is not None:
                    stats[int(entry)] = stat
        for pid, (_parent, start, seconds) in stats.items():
            key = (pid, start)
            # A process may yet become another: Debian's /usr/bin/chromium is a shell script
            # that execs the browser, and a renderer starts as a fork of Chromium's zygote.
            if key in self.outside:
                continue
            if key not in self.owners:
                lineage = self.lineage(pid, stats)
                if lineage[-1] != self.root:
                    self.outside.add(key)
                    continue
                self.owners[key] = lineage
            if self.kinds.get(key, OTHER).startswith(PROVISIONAL):
                command = _command(pid)
                if command is None:
                    continue
                self.kinds[key] = kind_of(command, pid == self.root)
            used[self.owners[key]] += seconds - self.cpu.get(key, 0.0)
            self.cpu[key] = seconds
        for owner, seconds in used.items():
            if seconds > 0:
                self.charged.setdefault(owner, []).append((middle, seconds))

    def lineage(self, pid: int, stats: dict) -> tuple[int, ...]:
        """``pid`` and the processes above it, up to ``root`` (the last, when ``pid`` is under
        it): the nearest of them that ran tests is the one whose tests its time goes to
        (``by_file``; a build forked from a worker has the worker's command line, so the
        command cannot tell)."""
        chain = []
        while pid not in chain and pid in stats:
            chain.append(pid)
            if pid == self.root:
                break
            pid = stats[pid][0]
        return tuple(chain)

    def by_kind(self) -> list[tuple[str, float, int]]:
        """(kind, CPU seconds, processes), most CPU first."""
        seconds: collections.Counter[str] = collections.Counter()
        count: collections.Counter[str] = collections.Counter()
        for key, kind in self.kinds.items():
            seconds[kind] += self.cpu[key]
            count[kind] += 1
        return [(kind, total, count[kind]) for kind, total in seconds.most_common()]


NO_TEST = "(no test running: collection, scheduling, the controlling process)"
"""Where CPU time goes that was used while its process ran no test."""
SLACK = 2 * SAMPLE_SECONDS
"""How long after a test's end a charge still counts as its own (the looks' times are the
middle of two looks, and a late look on a busy machine spans more)."""


def file_of(nodeid: str) -> str:
    """The test file of a pytest node id."""
    return nodeid.split("::", 1)[0]


def by_file(
    charged: dict[tuple[int, ...], list[tuple[float, float]]],
    ran: dict[int, list[tuple[float, float, str]]],
) -> list[tuple[str, float, float]]:
    """(test file, CPU seconds, seconds its tests took), most CPU first. Each charge
    (``Sampler.charged``) goes to the test file whose test the nearest process of its lineage
    that ran tests (``ran``: ``timeline.read``) had started last by then, while that test ran,
    else to ``NO_TEST``."""
    seconds: collections.Counter[str] = collections.Counter()
    took: collections.Counter[str] = collections.Counter()
    for rows in ran.values():
        for start, end, nodeid in rows:
            took[file_of(nodeid)] += end - start
    starts = {pid: [start for start, _, _ in rows] for pid, rows in ran.items()}
    for lineage, charges in charged.items():
        runner = next((pid for pid in lineage if pid in ran), None)
        rows, begun = ran.get(runner, []), starts.get(runner, [])
        for at, cpu in charges:
            index = bisect.bisect_right(begun, at) - 1
            running = index >= 0 and at <= rows[index][1] + SLACK
            seconds[file_of(rows[index][2]) if running else NO_TEST] += cpu
    return [(name, cpu, took.get(name, 0.0)) for name, cpu in seconds.most_common()]


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, str, float] | None:
    """(parent pid, start time, CPU seconds) of ``pid``, or None when it has gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[1]), fields[19], (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _command(pid: int) -> str | None:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (OSError, UnicodeDecodeError):
        return None
    return command.strip() or None  # a process that has just ended shows none


def speed_check(steps: int) -> str:
    """The fixed loop's CPU seconds (``speed_check.py``, ``steps`` steps) right now, as printed
    there."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("speed_check.py")), str(steps)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.strip().rsplit(" took ", 1)[-1]


def pytest_command(workers: str, extra: list[str]) -> list[str]:
    """pytest as ``make test`` runs it (Makefile), or in one process (``workers`` "0"), with
    the plugin that notes when each test ran (``timeline``)."""
    command = [sys.executable, "-m", "pytest", "-p", "bench.timeline"]
    if workers == "0":
        command += ["-p", "no:xdist"]
    else:
        command += ["-n", workers, "--dist", "loadfile", "--no-loadscope-reorder"]
    return command + extra


@dataclass(frozen=True)
class Run:
    """What one sampled run of the suite gave."""

    wall: float
    """Seconds from starting pytest until it ended."""
    reaped: float
    """CPU seconds of pytest and every process under it that it (or they) waited for."""
    kinds: list[tuple[str, float, int]]
    """(kind, CPU seconds, processes) of every process sampled (``Sampler.by_kind``)."""
    files: list[tuple[str, float, float]]
    """(test file, CPU seconds, seconds its tests took) of the same processes (``by_file``)."""
    summary: str
    """pytest's last line."""
    status: int
    """pytest's exit status, which the script exits with."""


def run_suite(command: list[str]) -> Run:
    """Run ``command`` in the project folder, its output passed through, sampled."""
    with tempfile.TemporaryDirectory(prefix="rulesite-timeline-") as folder:
        return _sampled(command, Path(folder))


def _sampled(command: list[str], folder: Path) -> Run:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="")  # as the Makefile's test target
    env[timeline.FOLDER] = str(folder)
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    sampler = Sampler(process.pid)
    thread = threading.Thread(target=sampler.run, daemon=True)
    thread.start()
    last = ""
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(line)
        if line.strip():
            last = line.strip()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    sampler.stop.set()
    thread.join()
    reaped = usage.ru_utime + usage.ru_stime
    files = by_file(sampler.charged, timeline.read(folder))
    code = os.waitstatus_to_exitcode(status)
    return Run(wall, reaped, sampler.by_kind(), files, last, code)


def report(run: Run, before: str, after: str, cores: int, files: int = 15) -> list[str]:
    """The lines that say where the run's time went: by kind of process, then the ``files``
    test files that took the most CPU time."""
    sampled = sum(seconds for _, seconds, _ in run.kinds)
    lines = [
        f"pytest: {run.summary}",
        f"wall {run.wall:.1f} s; CPU {sampled:.1f} s sampled across its processes "
        f"({run.reaped:.1f} s in the processes waited for); "
        f"{sampled / run.wall:.2f} of {cores} cores busy on average",
        f"at {cores} cores fully busy, this CPU time takes at least {sampled / cores:.0f} s",
        f"{'CPU s':>8} {'share':>6} {'processes':>10}  kind",
    ]
    for kind, seconds, count in run.kinds:
        if seconds >= 0.05:
            share = 100 * seconds / sampled if sampled else 0.0
            lines.append(f"{seconds:8.1f} {share:5.1f}% {count:10d}  {kind}")
    if files:
        lines += [
            f"CPU time by test file (at most {files} rows, most first), with every process under"
            " their tests (builds, commands, Chromium), and the seconds their tests took:",
            f"{'CPU s':>8} {'share':>6} {'tests s':>9}  file",
        ]
        for name, seconds, took in run.files[:files]:
            share = 100 * seconds / sampled if sampled else 0.0
            lines.append(f"{seconds:8.1f} {share:5.1f}% {took:9.1f}  {name}")
    lines.append(f"speed check before / after: {before} / {after}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default=WORKERS, help="pytest-xdist workers; 0: none")
    parser.add_argument(
        "--speed-steps",
        type=int,
        default=SPEED_STEPS,
        help="steps of the speed check's loop (the default is CI's)",
    )
    parser.add_argument(
        "--files", type=int, default=15, help="test files to list by CPU time (0: none)"
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: more arguments for pytest")
    args = parser.parse_args(argv)
    before = speed_check(args.speed_steps)
    run = run_suite(pytest_command(args.workers, args.pytest_args))
    after = speed_check(args.speed_steps)
    print("\n".join(report(run, before, after, os.cpu_count() or 1, args.files)))
    return run.status


if __name__ == "__main__":
    sys.exit(main())
