"""A pytest plugin that notes when each test ran in which process, for ``suite.py``'s CPU time
by test file: ``pytest -p bench.timeline`` with ``RULESITE_TIMELINE`` naming a folder.

Each process that runs tests (each xdist worker, or pytest itself without workers) writes
``<pid>.tsv`` there: one line per test, ``start<TAB>end<TAB>node id``, the times from
``time.monotonic()`` (one clock for every process of the machine, as the sampler's). Without
``RULESITE_TIMELINE`` the plugin does nothing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

FOLDER = "RULESITE_TIMELINE"
"""The environment variable that names the folder the lines go to."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    # Where the test runs (an xdist worker), not where its reports arrive (the controller);
    # from before its setup (a fixture it is the first to need counts as its own) to after its
    # teardown (the module's or the session's, after its last test).
    folder = os.environ.get(FOLDER)
    start = time.monotonic()
    yield
    if folder:
        line = f"{start:.3f}\t{time.monotonic():.3f}\t{item.nodeid}\n"
        with open(Path(folder) / f"{os.getpid()}.tsv", "a", encoding="utf-8") as out:
            out.write(line)


def read(folder: Path) -> dict[int, list[tuple[float, float, str]]]:
    """What the processes wrote in ``folder``: by process id, each test's (start, end, node
    id) in the order they ran."""
    found = {}
    for path in folder.glob("*.tsv"):
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            start, end, nodeid = line.split("\t", 2)
            rows.append((float(start), float(end), nodeid))
        found[int(path.stem)] = sorted(rows)
    return found
