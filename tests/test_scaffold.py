"""`rulesite new SLUG` (issue 10, item 9): a game file with every required field stubbed, which
validation refuses stub by stub until each is filled in."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesite.catalog import load_catalog
from rulesite.check.fields import RESERVED_PAGE_NAMES
from rulesite.check.stubs import STUB_MARKER
from rulesite.commands.new import game_stub_text, site_languages
from rulesite.errors import DataError
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import GAME_SCHEMA_LINE, REPO
from tests.projects import make_project


def rulesite(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesite", *args], cwd=cwd, capture_output=True, text=True
    )


def stubs_of(data: Any, path: str = "") -> list[str]:
    """Key paths of every stub in plain data, as messages write them."""
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in stubs_of(v, f"{path}.{k}" if path else k)]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in stubs_of(v, f"{path}[{i}]")]
    return [path] if isinstance(data, str) and data.startswith(STUB_MARKER) else []


def test_new_writes_a_file_that_validation_refuses_stub_by_stub(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    result = rulesite("new", "terra-nova", cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wrote data/games/terra-nova.yaml: replace every TODO")
    path = project / "data" / "games" / "terra-nova.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == GAME_SCHEMA_LINE  # like every real game file
    data = yaml.safe_load(text)
    assert data["slug"] == "terra-nova"
    # Every text has every language the site declares.
    languages = site_languages(Project(project))
    assert set(data["title"]) == set(data["summary"]) == set(languages)

    checked = rulesite("validate", cwd=project)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    lines = checked.stderr.splitlines()
    stubs = stubs_of(data)
    assert len(lines) == len(stubs) > 20
    for line, stub in zip(lines, stubs, strict=True):
        assert line.startswith("data/games/terra-nova.yaml:")
        assert f": {stub}: still the stub written by rulesite new: " in line
    summary = next(line for line in lines if ": summary.en: " in line)
    line = text.splitlines().index("  en: 'TODO: One line saying what the game is about'") + 1
    assert summary == (
        f"data/games/terra-nova.yaml:{line}: summary.en: still the stub written by rulesite new: "
        "One line saying what the game is about"
    )


FILLED: dict[str, Any] = {
    "bgg_id": 123,
    "bgg_rank": 456,
    "weight": 2.5,
    "min": 2,
    "max": 4,
    "mechanics": "hand-management",
    "chinese_edition": "unconfirmed",
    "online_play": "unconfirmed",
    "year": 2020,
    "min_age": 10,
    "verified": dt.date(2026, 1, 15),
    "id": "basics",
    "kind": "rules",
}
"""A valid value for each non-text field the stubs leave (by key)."""


def fill(data: Any, key: str = "") -> Any:
    """The stubs replaced: texts by a sentence, other fields by a valid value for their key."""
    if isinstance(data, dict):
        return {k: fill(v, k) for k, v in data.items()}
    if isinstance(data, list):
        return [fill(v, key) for v in data]
    if isinstance(data, str) and data.startswith(STUB_MARKER):
        return FILLED.get(key, f"Filled in ({key}).")
    return data


def test_once_filled_the_game_validates_and_builds(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")  # beside the fixture game: a small build
    assert rulesite("new", "terra-nova", cwd=root).returncode == 0
    path = root / "data" / "games" / "terra-nova.yaml"
    data = fill(yaml.safe_load(path.read_text(encoding="utf-8")))
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    project = Project(root)
    catalog = load_catalog(project)
    assert "terra-nova" in {game.slug for game in catalog.games}
    build(project)
    for prefix in ("", "en/"):
        assert (project.site_dir / prefix / "games/terra-nova/rules/index.html").is_file()


def test_one_stub_left_is_still_refused(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    assert rulesite("new", "terra-nova", cwd=root).returncode == 0
    path = root / "data" / "games" / "terra-nova.yaml"
    data = fill(yaml.safe_load(path.read_text(encoding="utf-8")))
    data["rules"][0]["body"]["en"] = "TODO: the rules, as Markdown paragraphs"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_catalog(Project(root))
    assert [line.split(": ", 1)[1] for line in caught.value.lines()] == [
        "rules[0].body.en: still the stub written by rulesite new: the rules, as Markdown "
        "paragraphs"
    ]


@pytest.mark.parametrize("slug", ["Terra", "terra_nova", "terra-", "terra--nova", "", "a" * 65])
def test_an_invalid_slug_is_refused(tmp_path: Path, slug: str) -> None:
    project = make_project(tmp_path / "p")
    result = rulesite("new", slug, cwd=project)
    assert result.returncode == 2
    assert "is not a valid slug: use lowercase letters, digits and single hyphens" in result.stderr
    assert sorted(p.name for p in (project / "data" / "games").iterdir()) == ["mini-game.yaml"]


@pytest.mark.parametrize("slug", sorted(RESERVED_PAGE_NAMES))
def test_a_reserved_slug_is_refused(tmp_path: Path, slug: str) -> None:
    # glossary/index/ would replace the glossary's index page: validation would refuse the file.
    project = make_project(tmp_path / "p")
    result = rulesite("new", slug, cwd=project)
    assert result.returncode == 2
    assert f"{slug!r} is kept for the site's own pages" in result.stderr
    assert sorted(p.name for p in (project / "data" / "games").iterdir()) == ["mini-game.yaml"]


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    before = (project / "data" / "games" / "mini-game.yaml").read_bytes()
    result = rulesite("new", "mini-game", cwd=project)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "data/games/mini-game.yaml already exists; rulesite new never overwrites a file"
    )
    assert (project / "data" / "games" / "mini-game.yaml").read_bytes() == before
    # Nor a dangling symlink that would write somewhere else.
    (project / "data" / "games" / "linked.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert rulesite("new", "linked", cwd=project).returncode == 2
    assert not (tmp_path / "elsewhere.yaml").exists()


def test_stubs_follow_the_site_languages() -> None:
    text = game_stub_text("x", ("zh", "en", "zh-hant"))
    data = yaml.safe_load(text.split("\n", 1)[1])
    assert set(data["title"]) == {"zh", "en", "zh-hant"}
    assert set(data["rules"][0]["body"]) == {"zh", "en", "zh-hant"}


def test_the_readme_lists_the_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "`rulesite new SLUG`" in readme
