"""The bad-data corpus: each folder under tests/data/bad/ is one mistake made to the good fixture
project, and lists, in expected.txt, every line the validator must print (in order).

A case is an overlay, never a copy: ``case.yaml`` lists text replacements on the project's own
files (the good fixture game, the real ``data/site.yaml``), so a field or label added to those
files reaches every case, and the line numbers in expected.txt are the base file's. Files that
only make sense as bytes (an image, a file that is not UTF-8, a stray file in ``data/games/``, a
whole file that is the mistake) sit in the folder under their project path and are copied as
they are.

    .venv/bin/python -m tests.bad_cases --show    # print what each case produces now
    .venv/bin/python -m tests.bad_cases --write   # write expected.txt files (review the diff!)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.project import Project
from tests.helpers import BAD
from tests.projects import make_project

EXPECTED = "expected.txt"
EDITS = "case.yaml"
"""The case's edits: a list of ``{file, from?, replace?, with?}`` (see ``apply_edit``)."""


class CaseError(Exception):
    """A case no longer applies to the base project (its text to replace is gone or repeated)."""


def bad_cases() -> list[Path]:
    """Every case folder, sorted."""
    return sorted(p for p in BAD.iterdir() if p.is_dir())


def apply_edit(project_root: Path, edit: dict[str, str], case: str = "") -> None:
    """One edit: ``file`` starts as ``from`` (default: itself), ``replace`` becomes ``with``.

    The text to replace must occur exactly once, so a change to the base file that a case relies
    on stops the case loudly instead of leaving it testing nothing.
    """
    target = project_root / edit["file"]
    text = (project_root / edit.get("from", edit["file"])).read_text(encoding="utf-8")
    if "replace" in edit:
        old, new = edit["replace"], edit["with"]
        count = text.count(old)
        if count != 1:
            raise CaseError(
                f"{case}: {EDITS}: the text to replace in {edit['file']} occurs {count} times "
                f"in the base project (expected once): {old!r}"
            )
        text = text.replace(old, new)
    target.parent.mkdir(parents=True, exist_ok=True)
    # newline="" keeps "\r" and other line ends the case wrote exactly as written.
    target.write_text(text, encoding="utf-8", newline="")


def edits_of(case: Path) -> list[dict[str, str]]:
    """The case's edits, in order ([] when it only lays files over the project)."""
    path = case / EDITS
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else []


def apply_case(case: Path, project_root: Path) -> Path:
    """Build the fixture project, make the case's edits, then lay its own files over it."""
    make_project(project_root)
    for edit in edits_of(case):
        apply_edit(project_root, edit, case.name)
    for source in case.rglob("*"):
        if source.is_file() and source.name not in (EXPECTED, EDITS):
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
    """The lines the case must produce, from its expected.txt."""
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
