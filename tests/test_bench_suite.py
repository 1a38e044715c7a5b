"""The suite's cost by kind of process and by test file (``scripts/bench/suite.py``): what it
calls each process, that it follows a process tree's CPU time, how it charges that time to the
test files, and a whole run on a tiny suite of its own."""

from __future__ import annotations

import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bench import suite

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("/usr/lib/chromium/chromium --type=renderer --lang=en-US", "Chromium: renderer"),
        ("/usr/lib/chromium/chromium --headless --no-sandbox", "Chromium: browser"),
        ("/proc/self/exe --type=zygote --no-sandbox", "Chromium: zygote"),
        (
            "/usr/lib/chromium/chromium --type=utility"
            " --utility-sub-type=network.mojom.NetworkService",
            "Chromium: utility NetworkService",
        ),
        ("/x/node /x/playwright/driver/package/cli.js run-driver", "Playwright's driver (Node)"),
        ("node --test tests/js/", "Node (the JavaScript tests)"),
        (
            "/v/bin/python -c import sys;exec(eval(sys.stdin.readline()))",
            "pytest workers, with the builds they fork",
        ),
        ("/v/bin/python -m rulesite build --clean", "rulesite commands the tests start"),
        ("/v/bin/python -c import os, shutil, sys", "other Python the tests start"),
        ("/bin/uname -p", "other: uname"),
    ],
)
def test_each_process_is_named_by_its_command_line(command: str, kind: str) -> None:
    assert suite.kind_of(command) == kind
    assert suite.kind_of(command, is_root=True) == "pytest, the controlling process"


SPIN = (
    "import time\nend = time.process_time() + 0.6\nwhile time.process_time() < end: pass\n"
    "time.sleep(1)"
)
"""A process that uses 0.6 CPU s, then waits a second: the sampler, which reads every 0.2 s and
may be late on a busy machine, sees all of it before the process ends."""


def test_the_sampler_counts_a_grandchild_by_what_it_became() -> None:
    """A shell that waits, then makes itself Python (as Debian's ``chromium`` script makes
    itself the browser): counted as the Python it became, with the CPU time it used."""
    shell = f"sleep 0.5; exec {shlex.quote(sys.executable)} -c {shlex.quote(SPIN)}"
    parent = subprocess.Popen(
        [sys.executable, "-c", f"import subprocess; subprocess.run(['sh', '-c', {shell!r}])"]
    )
    sampler = suite.Sampler(parent.pid)
    thread = threading.Thread(target=sampler.run)
    thread.start()
    parent.wait()
    sampler.stop.set()
    thread.join()
    kinds = {kind: (seconds, count) for kind, seconds, count in sampler.by_kind()}
    seconds, count = kinds["other Python the tests start"]
    assert count == 1 and 0.4 <= seconds <= 2.0
    assert "other: sh" not in kinds
    assert kinds["other: sleep"][1] == 1
    assert kinds["pytest, the controlling process"][1] == 1


def test_a_whole_run_prints_its_cpu_time_by_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_spin.py").write_text(
        "import subprocess, sys\n\n"
        f"def test_spin():\n    subprocess.run([sys.executable, '-c', {SPIN!r}], check=True)\n",
        encoding="utf-8",
    )
    args = [
        "--workers",
        "0",
        "--speed-steps",
        "200000",
        "--",
        "-q",
        "-p",
        "no:cacheprovider",
        "-c",
        str(tmp_path / "pytest.ini"),
        str(tmp_path),
    ]
    assert suite.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("speed check before / after: ") and out[-1].count("CPU s") == 2
    assert any(line.startswith("pytest: 1 passed") for line in out)
    rows = {}
    for line in out:
        fields = line.split(maxsplit=3)
        if len(fields) == 4 and fields[1].endswith("%") and fields[2].isdigit():
            rows[fields[3]] = float(fields[0])
    assert rows["other Python the tests start"] >= 0.4
    assert "pytest, the controlling process" in rows
    # The spinning process's time is its test file's (the plugin noted when the test ran).
    heading = out.index(f"{'CPU s':>8} {'share':>6} {'tests s':>9}  file")
    files = {line.split()[-1]: float(line.split()[0]) for line in out[heading + 1 : -1]}
    assert files["test_spin.py"] >= 0.4, out[heading:]
    total = next(line for line in out if line.startswith("wall "))
    assert float(total.split("CPU ")[1].split(" s")[0]) >= 0.4


def test_each_charge_goes_to_the_test_its_process_was_running() -> None:
    ran = {
        10: [(1.0, 2.0, "tests/test_a.py::one"), (2.1, 5.0, "tests/test_b.py::two[x]")],
        11: [(1.5, 3.0, "tests/test_a.py::three")],
    }
    # By lineage: a process, the processes above it, the controlling process (99) last.
    charged = {
        (10, 99): [(0.5, 1.0), (1.5, 0.25), (2.05, 0.5), (4.0, 2.0), (9.0, 4.0)],
        (11, 99): [(2.0, 0.75)],
        (12, 11, 99): [(2.5, 0.25)],  # forked by process 11 (a build): 11's test's
        (99,): [(1.5, 8.0)],  # the controlling process runs no test
    }
    found = suite.by_file(charged, ran)
    assert found == [
        (suite.NO_TEST, 13.0, 0.0),  # before the first test (collection), long after the last
        ("tests/test_b.py", 2.0, 2.9),
        ("tests/test_a.py", 1.75, 2.5),  # 0.5 between two tests: the earlier test's teardown
    ]
