"""One ``rulesite build`` of a project, in a fresh process: prints its report as one JSON line.

    python -m bench.build_once PROJECT [--clean]

The benchmark times this process from the outside, as it times bare ``mkdocs build`` processes,
so both pay Python's start-up and imports; the report adds what only the build knows. With
``--clean`` the build ignores its cache (``rulesite build --clean``): a clean build's figure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rulesite.errors import RulesiteError
from rulesite.project import Project
from rulesite.publish.build import build


def main(argv: list[str]) -> int:
    try:
        report = build(Project(Path(argv[0]).resolve()), clean="--clean" in argv[1:])
    except RulesiteError as error:
        for line in error.lines():
            print(line, file=sys.stderr)
        return error.exit_code
    figures = {
        "pages": report.pages,
        "games": report.games,
        "seconds": report.seconds,
        # Reports gained per-language times with the per-language projects; older ones lack it.
        "language_seconds": getattr(report, "language_seconds", None),
        # Peak resident memory (KB) of the build process and of each language's process.
        "memory_kb": getattr(report, "memory_kb", None),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    # Ends as the rulesite program does (``rulesite.cli.program``): at once, once flushed.
    from rulesite.forked import exit_at_once

    exit_at_once(main(sys.argv[1:]))
