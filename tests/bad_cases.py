"""The bad-data corpus: each folder under tests/data/bad/ overlays files on the good fixture
project and lists, in expected.txt, every line the validator must print (in order).

    .venv/bin/python -m tests.bad_cases --show    # print what each case produces now
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.project import Project
from tests.helpers import BAD, make_project

EXPECTED = "expected.txt"


def bad_cases() -> list[Path]:
    """Every case folder, sorted."""
    return sorted(p for p in BAD.iterdir() if p.is_dir())


def apply_case(case: Path, project_root: Path) -> Path:
    """Build the fixture project with the case's files laid over it."""
    make_project(project_root)
    for source in case.rglob("*"):
        if source.is_file() and source.name != EXPECTED:
            target = project_root / source.relative_to(case)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target)
    return project_root


def problems_of(project_root: Path) -> list[str]:
    """The lines the validator reports for a project ([] when valid)."""
    try:
        load_catalog(Project(project_root))
    except DataError as error:
        return error.lines()
    return []


def expected_of(case: Path) -> list[str]:
    return (case / EXPECTED).read_text(encoding="utf-8").splitlines()


if __name__ == "__main__":
    import tempfile

    write = "--write" in sys.argv
    for case in bad_cases():
        with tempfile.TemporaryDirectory() as tmp:
            lines = problems_of(apply_case(case, Path(tmp) / "p"))
        print(f"== {case.name}")
        print("\n".join(lines) or "   (NO PROBLEMS)")
        if write and lines:
            (case / EXPECTED).write_text("\n".join(lines) + "\n", encoding="utf-8")
