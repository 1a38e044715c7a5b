"""Validation: the bad-data corpus, each case with the exact lines it must print."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.validate import load_catalog
from tests.bad_cases import apply_case, bad_cases, expected_of, problems_of
from tests.helpers import REPO, make_project


@pytest.mark.parametrize("case", bad_cases(), ids=lambda p: p.name)
def test_bad_case_reports_exactly_the_expected_lines(case: Path, tmp_path: Path) -> None:
    project_root = apply_case(case, tmp_path / "project")
    assert problems_of(project_root) == expected_of(case)


def test_corpus_is_not_empty() -> None:
    assert len(bad_cases()) >= 20


def test_good_fixture_is_valid(tmp_path: Path) -> None:
    catalog = load_catalog(Project(make_project(tmp_path / "p")))
    assert [g.slug for g in catalog.games] == ["mini-game"]


def test_the_real_data_is_valid() -> None:
    catalog = load_catalog(Project(REPO))
    assert {g.slug for g in catalog.games} == {
        "nations",
        "clans-of-caledonia",
        "its-a-wonderful-world",
    }


def test_problems_from_several_files_are_reported_together(tmp_path: Path) -> None:
    case = next(c for c in bad_cases() if c.name == "two-files-at-once")
    lines = problems_of(apply_case(case, tmp_path / "p"))
    assert {line.split(":")[0] for line in lines} == {
        "data/games/mini-game.yaml",
        "data/games/other-game.yaml",
    }


def test_a_10_mb_file_is_refused_unread(tmp_path: Path) -> None:
    project_root = make_project(tmp_path / "p")
    huge = project_root / "data" / "games" / "huge.yaml"
    huge.write_bytes(b"slug: huge\nsummary: " + b"x" * 10_000_000 + b"\n")
    assert problems_of(project_root) == [
        "data/games/huge.yaml: file is 10.0 MB; data files must be under 1 MB"
    ]


def test_every_bad_case_gives_a_clear_located_error(tmp_path: Path) -> None:
    """The corpus as a whole: every case fails, and every line names its file."""
    located = 0
    for case in bad_cases():
        lines = problems_of(apply_case(case, tmp_path / case.name))
        assert lines, f"{case.name} was accepted"
        assert all(line.startswith("data/") for line in lines), case.name
        located += all(":" in line.split(" ")[0] for line in lines)
    assert located >= 30
