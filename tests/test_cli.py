"""The rulesite command: exit codes and messages, never a traceback for a user's mistake."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.projects import good_game_text, make_project


def rulesite(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


FIXTURE_DAY = {"SOURCE_DATE_EPOCH": "1768435200"}
"""2026-01-15, the fixture card's verification day: its dates age on it, not on today's date."""


def test_validate_ok(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    result = rulesite("validate", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 0 and result.stdout.strip() == "ok: 1 games valid"


def test_validate_reports_every_problem_and_exits_1(tmp_path: Path) -> None:
    text = (
        good_game_text().replace("bgg_rank: 9999", "bgg_rank: x").replace("en: Mini Game}", "en: }")
    )
    project = make_project(tmp_path / "p", games={"mini-game.yaml": text})
    result = rulesite("--project", str(project), "validate", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "data/games/mini-game.yaml:4: title.en: is empty; write the text",
        "data/games/mini-game.yaml:10: card.bgg_rank: expected a whole number, got text 'x'",
    ]
    assert "Traceback" not in result.stderr


def test_not_a_project_exits_2(tmp_path: Path) -> None:
    result = rulesite("validate", cwd=tmp_path)
    assert result.returncode == 2 and "no mkdocs.yml" in result.stderr


def test_build_writes_site_and_content(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    result = rulesite("build", cwd=project)
    assert result.returncode == 0, result.stderr
    # 14 rendered pages per language: home, the games index and its rows (games/rows.json), the
    # topic index and the game's three topics, the glossary index and the game's glossary, the
    # history, and the game's four.
    assert result.stdout.startswith("built site: 1 games, 28 pages")
    assert (project / "site" / "en" / "games" / "mini-game" / "faq" / "index.html").exists()
    assert (project / "content" / "zh" / "docs" / "games" / "mini-game" / "rules.md").exists()
    assert (project / "content" / "en" / "mkdocs.yml").exists()


def test_schema_command_writes_both_schemas(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    result = rulesite("schema", cwd=project)
    assert result.returncode == 0
    assert (project / "data" / "schema" / "game.schema.json").exists()
    assert (project / "data" / "schema" / "site.schema.json").exists()


def test_every_command_is_in_the_readme() -> None:
    import argparse

    from rulesite.cli import _parser
    from tests.helpers import REPO

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    subparsers = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command in subparsers.choices:
        assert f"`rulesite {command}" in readme, command
    for target in ("make site", "make test", "make serve", "make golden"):
        assert target in readme


def test_an_internal_error_is_one_line_and_exit_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulesite import cli

    project = make_project(tmp_path / "p")

    def broken(*args: object) -> int:
        raise RuntimeError("boom\n\x1b[2Jhidden")

    monkeypatch.setattr(cli, "_validate", broken)
    assert cli.main(["--project", str(project), "validate"]) == 4
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "rulesite: internal error: RuntimeError: boom\\n\\x1b[2Jhidden "
        "(run again with --debug for the traceback)\n"
    )
    for args in (["--debug", "validate"], ["validate", "--debug"]):
        with pytest.raises(RuntimeError, match="boom"):
            cli.main(["--project", str(project), *args])


def test_a_closed_output_pipe_ends_quietly(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, as with `| head -0`
    try:
        result = subprocess.run(
            [sys.executable, "-m", "rulesite", "validate"],
            cwd=project,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **FIXTURE_DAY},
        )
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")


def test_the_readme_lists_every_exit_code() -> None:
    from rulesite import cli
    from tests.helpers import REPO

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    sentence = " ".join(readme[readme.index("Exit codes:") :].split(".")[0].split())
    docstring = " ".join((cli.__doc__ or "").split())
    for code in (0, 1, 2, 3, cli.INTERNAL_ERROR, 130, cli.BROKEN_PIPE):
        assert f" {code} " in sentence, code
        assert f" {code} " in docstring, code
