"""A big language's MkDocs build in a fresh interpreter (``publish/language_build.py``) writes
what the build in the rendering process writes, and reports the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesite.errors import BuildError
from rulesite.project import Project
from rulesite.publish import builders, language_build, workers
from rulesite.publish.build import build
from tests.helpers import tree_digest
from tests.projects import good_game_text, make_project, other_game

MARKER = ".rulesite-site"


def _project(folder: Path) -> Project:
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    return Project(make_project(folder, games))


def _without_builders(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean build's languages built by their own processes, as when no builder was started
    before the catalog (``publish/builders.py``: a clean build after an incremental one gave up):
    a big language then builds in a fresh interpreter."""
    monkeypatch.setattr(builders, "early", lambda *args: {})


def test_a_fresh_interpreter_builds_the_same_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    in_process = build(project, site_dir=tmp_path / "in-process", clean=True)
    execs = tmp_path / "execs"
    real_exec = language_build.exec_fresh

    def noted(sender: Any, job: language_build.LanguageBuild) -> Any:
        with execs.open("a", encoding="utf-8") as notes:  # in the language's process
            notes.write(job.lang + "\n")
        return real_exec(sender, job)

    _without_builders(monkeypatch)
    monkeypatch.setattr(workers, "FRESH_PAGES", 0)
    monkeypatch.setattr(workers, "exec_fresh", noted)
    fresh = build(project, site_dir=tmp_path / "fresh", clean=True)
    assert sorted(execs.read_text("utf-8").split()) == ["en", "zh"]
    expected, actual = tree_digest(tmp_path / "in-process"), tree_digest(tmp_path / "fresh")
    assert expected.pop(MARKER) and actual.pop(MARKER)  # names its folder's files
    assert actual == expected
    assert fresh.pages == in_process.pages and set(fresh.memory_kb) == {"", "zh", "en"}
    assert all(kb > 0 for kb in fresh.memory_kb.values())


def test_a_fresh_interpreters_problems_reach_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A theme template that fails: every language's MkDocs build stops, and says why.
    project = _project(tmp_path / "p")
    _without_builders(monkeypatch)
    monkeypatch.setattr(workers, "FRESH_PAGES", 0)
    page = project.templates_dir / "theme" / "main.html"
    text = page.read_text("utf-8")
    page.write_text(text.replace("{% block content %}", "{% block content %}{{ nope.nope }}"))
    with pytest.raises(BuildError) as raised:
        build(project, site_dir=tmp_path / "site", clean=True)
    assert "'nope' is undefined" in str(raised.value)
    assert not (tmp_path / "site").exists()


def test_an_interpreter_that_cannot_start_leaves_the_build_in_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any) -> None:
        raise PermissionError("exec refused")

    _without_builders(monkeypatch)
    monkeypatch.setattr(workers, "FRESH_PAGES", 0)
    monkeypatch.setattr(language_build.os, "execve", refused)
    report = build(_project(tmp_path / "p"), site_dir=tmp_path / "site", clean=True)
    assert report.pages > 0 and (tmp_path / "site" / "en" / "index.html").is_file()


def test_failure_lines_name_the_language() -> None:
    assert language_build.failure_lines(KeyboardInterrupt(), "zh") == ["interrupted"]
    assert language_build.failure_lines(OSError("disk full"), "zh") == [
        "cannot write content/zh: disk full"
    ]
    assert language_build.failure_lines(ValueError("x"), "en") == [
        "build of 'en' failed: ValueError: x"
    ]
