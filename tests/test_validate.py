"""Validation: the bad-data corpus, each case with the exact lines it must print."""

from __future__ import annotations

import datetime as dt
import os
import threading
from pathlib import Path

import pytest
import yaml

from rulesite import markup
from rulesite.catalog import load_catalog
from rulesite.model import (
    LONG_TEXT,
    MAX_NESTING,
    SHORT_TEXT,
    TEXT,
    ParameterCard,
    TextLimits,
    check_text,
)
from rulesite.project import Project
from tests.bad_cases import apply_case, bad_cases, expected_of, problems_of
from tests.projects import REAL, good_game_text, make_project


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
    project = Project(REAL)
    catalog = load_catalog(project)
    # Every file in data/games/ is a game of the catalog (more may be added at any time; REAL is
    # a copy with a fourth game under RULESITE_TEST_EXTRA_GAME=1).
    stems = {path.stem for path in project.games_dir.glob("*.yaml")}
    assert {g.slug for g in catalog.games} == stems


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
        "data/games/huge.yaml: file is 10.0 MB; data files must be under 256 KB"
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


# --- Files that are not plain data files (symlinks, FIFOs, devices): no corpus folder can hold them


def test_site_yaml_linked_to_dev_zero_is_refused_unread(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    (root / "data" / "site.yaml").unlink()
    (root / "data" / "site.yaml").symlink_to("/dev/zero")
    assert problems_of(root) == [
        "data/site.yaml: links to /dev/zero, outside the project; data files must be inside it"
    ]


def test_a_fifo_among_the_games_is_refused_without_hanging(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    os.mkfifo(root / "data" / "games" / "other-game.yaml")
    result: list[list[str]] = []
    worker = threading.Thread(target=lambda: result.append(problems_of(root)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert result == [["data/games/other-game.yaml: is a named pipe (FIFO), not a regular file"]]


def test_broken_and_escaping_symlinks_among_the_games(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    games = root / "data" / "games"
    (games / "gone.yaml").symlink_to("nowhere.yaml")
    (tmp_path / "elsewhere.yaml").write_text(good_game_text(), encoding="utf-8")
    (games / "away.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert problems_of(root) == [
        f"data/games/away.yaml: links to {tmp_path.resolve() / 'elsewhere.yaml'}, outside the "
        "project; data files must be inside it",
        "data/games/gone.yaml: is a symlink to nowhere.yaml, which does not exist",
    ]


def test_a_game_symlinked_from_inside_the_project_is_valid(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    games = root / "data" / "games"
    (root / "drafts").mkdir()
    (games / "mini-game.yaml").rename(root / "drafts" / "mini-game.yaml")
    (games / "mini-game.yaml").symlink_to("../../drafts/mini-game.yaml")
    assert problems_of(root) == []


# --- Text limits: what the caps let through is harmless -------------------------------------------


def _at_cap(limits: TextLimits) -> str:
    """The slowest Markdown a text of this kind may hold: every `[` and backtick it is allowed,
    all unclosed, at the front of one paragraph as long as allowed."""
    head = "[" * limits.brackets + "`` `" * (limits.backticks // 3)
    return head + "x" * (limits.chars - len(head))


@pytest.mark.parametrize("limits", [SHORT_TEXT, TEXT, LONG_TEXT], ids=["short", "text", "long"])
def test_texts_at_the_caps_are_valid_and_render(limits: TextLimits) -> None:
    text = _at_cap(limits)
    assert check_text(text, limits) == text
    assert markup.block(text) and markup.inline(text)


def test_lists_and_quotes_nested_to_the_cap_are_valid_and_render() -> None:
    text = "Steps:\n\n" + "1. " * MAX_NESTING + "go\n" + "    " * (MAX_NESTING - 1) + "> deep"
    assert check_text(text, LONG_TEXT) == text
    assert markup.block(text)


@pytest.mark.parametrize("value", ["2026-01-15", dt.date(2026, 1, 15)])
def test_a_date_may_be_quoted(value: object) -> None:
    """`verified: '2026-01-15'` is the same date; only numbers and times are refused."""
    card = yaml.safe_load(good_game_text())["card"]
    assert ParameterCard.model_validate({**card, "verified": value}).verified == dt.date(
        2026, 1, 15
    )


def test_a_whole_weight_is_a_number() -> None:
    card = yaml.safe_load(good_game_text())["card"]
    assert ParameterCard.model_validate({**card, "weight": 2}).weight == 2.0
