"""``rulesite serve`` timed from outside: its start-up, and from saving a data file to the
preview serving the change (a FAQ answer, a rules section, a card field: ``measure.edit_game``).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench.measure import (
    EDIT_KINDS,
    HEARTBEAT_SECONDS,
    POLL_SECONDS,
    BenchError,
    Say,
    edit_game,
    environment,
)
from rulesite.project import Project

READY_SECONDS = 1800.0
"""How long serve's first build may take before the benchmark gives up (1,000 games is slow)."""
EDIT_SECONDS = 120.0
"""How long one edit may take to show before it counts as "did not update"."""
QUIET_SECONDS = 1.0
"""Between edits, serve's log must stay unchanged this long: the last rebuild is over."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class ServeTiming:
    """What ``serve_edit_to_preview`` measured."""

    start: float
    """Seconds from starting ``rulesite serve`` to its first game page answering (the whole
    first build included)."""
    edits: dict[str, list[float | None]]
    """Seconds from saving an edit to its page showing it, per kind of edit (``EDIT_KINDS``) and
    edit (None: it did not show within EDIT_SECONDS)."""


def serve_edit_to_preview(
    project: Project, slug: str, log: Path, say: Say, edits: int = 3
) -> ServeTiming:
    """``rulesite serve``'s start-up, and the seconds from saving each edit of ``slug`` to its
    page showing it."""
    port = free_port()
    root = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "rulesite", "--project", str(project.root), "serve"]
    command += ["--dev-addr", f"127.0.0.1:{port}"]
    with log.open("w", encoding="utf-8") as output:
        # A session of its own, so stopping it stops whatever processes serve started too.
        process = subprocess.Popen(
            command,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=environment(),
            start_new_session=True,
        )
        try:
            started = time.perf_counter()
            url = f"{root}games/{slug}/"
            if not _wait_for(url, None, process, log, READY_SECONDS, say):
                raise BenchError(f"serve: {url} did not answer within {READY_SECONDS:.0f} s")
            start = time.perf_counter() - started
            say(f"  serve: first page after {start:.1f} s")
            return ServeTiming(
                start,
                {
                    kind: [
                        _one_edit(project, slug, kind, root, process, log, say, n)
                        for n in range(edits)
                    ]
                    for kind in EDIT_KINDS
                },
            )
        finally:
            _stop(process)


def _one_edit(
    project: Project,
    slug: str,
    kind: str,
    root: str,
    process: subprocess.Popen,
    log: Path,
    say: Say,
    n: int,
) -> float | None:
    _wait_quiet(log)
    token = f"benchedit{n}t{time.time_ns() % 10**9}"
    if kind == "card":  # a number: the rank, shown as #<rank>
        rank = 100000 + time.time_ns() % 800000
        token = f"#{rank}"
    # From the moment the file is saved: writing the edit (reading and dumping the YAML, here
    # 0.07-0.1 s) is the editor's part, not the preview's; until 2026-12-06 it was counted.
    page, started = edit_game(project, slug, kind, token)
    if not _wait_for(root + page, token, process, log, EDIT_SECONDS):
        say(f"  serve: {kind} edit {n + 1} did not update the page within {EDIT_SECONDS:.0f} s")
        return None
    seconds = time.perf_counter() - started
    say(f"  serve: {kind} edit {n + 1} shown after {seconds:.2f} s")
    return seconds


def _wait_for(
    url: str,
    token: str | None,
    process: subprocess.Popen,
    log: Path,
    seconds: float,
    say: Say | None = None,
) -> bool:
    """Poll ``url`` until it answers (and shows ``token``); False after ``seconds``."""
    started = time.monotonic()
    deadline, beat = started + seconds, started + HEARTBEAT_SECONDS
    while time.monotonic() < deadline:
        if say is not None and time.monotonic() > beat:
            say(f"  … serve: waiting for its first build, {time.monotonic() - started:.0f} s")
            beat += HEARTBEAT_SECONDS
        if process.poll() is not None:
            tail = "\n".join(log.read_text(encoding="utf-8").splitlines()[-20:])
            raise BenchError(f"rulesite serve stopped (exit {process.returncode}):\n{tail}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=10) as response:
            if token is None or token in response.read().decode("utf-8", "replace"):
                return True
        time.sleep(POLL_SECONDS)
    return False


REBUILD_OVER = re.compile(r"s in all$|no page changed|keeps the last good pages|next change$")
"""A line of serve's log that ends a rebuild (its second phase too: it prints nothing while
MkDocs builds, so a quiet log alone does not say the rebuild is over)."""


def _wait_quiet(log: Path, longest: float = 600.0) -> None:
    """Wait until serve's log ends with a finished rebuild and has not grown for QUIET_SECONDS:
    no rebuild is running, so the next edit's time is its own."""
    deadline = time.monotonic() + longest
    size, since = log.stat().st_size, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = log.stat().st_size
        if now != size:
            size, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET_SECONDS and _rebuild_over(log):
            return


def _rebuild_over(log: Path) -> bool:
    lines = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    return bool(lines) and bool(REBUILD_OVER.search(lines[-1]))


def _stop(process: subprocess.Popen) -> None:
    """Interrupt serve as a person would (Ctrl-C), then insist; only its own process group."""
    for sig, wait in ((signal.SIGINT, 15), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=wait)
