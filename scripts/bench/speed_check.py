"""How fast this machine runs one core of Python right now: a fixed loop, timed.

The suite's and the benchmark's times move with the machine (a shared host's load is invisible
from inside): on the development machine the same suite took 362–613 s on the same code, and a
loop like this one varied by half within one session. Printed beside a time (CI's log, before
and after the suite), it says whether a slower run was the code or the moment. Standard library
only: CI runs it before anything is installed.

    python3 scripts/bench/speed_check.py
"""

from __future__ import annotations

import sys
import time

LOOP = 20_000_000
"""Iterations of the timed loop: 1.2–1.8 CPU s on the development machine (2026-12-07)."""


def loop_seconds(iterations: int = LOOP) -> float:
    """CPU seconds of ``iterations`` steps of a fixed arithmetic loop on one core."""
    start = time.process_time()
    total = 0
    for i in range(iterations):
        total += i * i
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    iterations = int(args[0]) if args else LOOP
    seconds = loop_seconds(iterations)
    print(f"speed check: {iterations:,} steps of a fixed Python loop took {seconds:.2f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
