"""Golden files: the rendered Markdown of the good fixture project, page by page.

make golden     # rewrite tests/golden/ from the current templates, then review `git diff`
"""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from pathlib import Path

from rulesite.catalog import load_catalog
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.helpers import REPO
from tests.projects import make_project

GOLDEN = REPO / "tests" / "golden"

GOLDEN_DAY = dt.date(2026, 11, 30)
"""The day the golden pages are rendered on: verification dates are aged on it (a page flags
what was verified too long before), so the pages must not depend on when the tests run."""


def rendered_fixture_pages() -> dict[str, str]:
    """Every page of the fixture project, keyed by content-relative path."""
    with tempfile.TemporaryDirectory() as tmp:
        project = Project(make_project(Path(tmp) / "project"))
        return render_pages(project, load_catalog(project, today=GOLDEN_DAY))


def refresh() -> list[str]:
    """Rewrite the golden folder; returns the files written."""
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    written = []
    for relative, text in sorted(rendered_fixture_pages().items()):
        path = GOLDEN / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path.relative_to(REPO).as_posix())
    return written


if __name__ == "__main__":
    for name in refresh():
        print(f"wrote {name}")
