"""The engine boundary: per-language MkDocs projects that build on their own, in any order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulesite.catalog import load_site
from rulesite.engine.projects import language_projects
from rulesite.errors import UsageError
from rulesite.project import Project
from rulesite.publish.build import assemble, build
from tests.helpers import REPO, tree_digest
from tests.projects import REAL, make_project
from tests.site_checks import search_files

LANGUAGES = load_site(Project(REAL)).codes
"""The real site's language codes (``languages:`` in data/site.yaml)."""


def html_pages(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.html")}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Project:
    project = Project(make_project(tmp_path_factory.mktemp("engine") / "p"))
    build(project)
    return project


def test_each_language_is_a_complete_project(built: Project) -> None:
    for language in language_projects(built.content_dir, load_site(built)):
        config = yaml.safe_load(language.config_file.read_text(encoding="utf-8"))
        assert config["theme"]["language"] == language.lang
        assert config["docs_dir"] == "docs" and config["theme"]["custom_dir"] == "theme"
        assert "hooks" not in config
        assert [_name(p) for p in config["plugins"]] == ["rulesite", "search"]
        assert (language.root / "theme" / "assets" / "calculator.js").is_file()
        assert (language.docs_dir / "games" / "mini-game" / "faq.md").is_file()
    zh, en = (
        yaml.safe_load(p.config_file.read_text("utf-8"))
        for p in language_projects(built.content_dir, load_site(built))
    )
    assert zh["site_name"] == "桌游规则速查" and en["site_name"] == "Rulesite"
    # No site address by default (mkdocs.yml); with one, English is under en/ (test_site.py).
    assert en["site_url"] is None and zh["site_url"] is None
    assert [a["link"] for a in zh["extra"]["alternate"]] == ["", "en/"]
    assert [a["link"] for a in en["extra"]["alternate"]] == ["../", ""]


def _name(entry) -> str:
    return entry if isinstance(entry, str) else next(iter(entry))


@pytest.mark.parametrize("engine", ["mkdocs", "properdocs"])
def test_a_generated_project_builds_unchanged_with_plain_engines(
    built: Project, tmp_path: Path, engine: str
) -> None:
    config = built.content_dir / "zh" / "mkdocs.yml"
    out = tmp_path / "out"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            engine,
            "build",
            "--strict",
            "-q",
            "-f",
            str(config),
            "-d",
            str(out),
        ],
        cwd=tmp_path,  # not the project: the config must not depend on the working folder
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    expected = {p for p in html_pages(built.site_dir) if not p.startswith("en/")}
    assert html_pages(out) == expected
    # Same pages, same words: the Chinese search dictionary and the build date came along.
    assert search_files(out / "search") == search_files(built.site_dir / "search")


def test_languages_built_apart_assemble_to_the_whole_site(built: Project, tmp_path: Path) -> None:
    parts = {}
    for lang in LANGUAGES:
        parts[lang] = tmp_path / lang
        report = build(built, site_dir=parts[lang], languages=(lang,))
        assert list(report.language_seconds) == [lang]
    assert (parts["en"] / "index.html").is_file() and not (parts["en"] / "en").exists()
    whole = tmp_path / "whole"
    assemble(built, parts, whole)
    assert tree_digest(whole) == tree_digest(built.site_dir)


def test_assemble_needs_every_language_and_built_sites(built: Project, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="missing: en"):
        assemble(built, {"zh": built.site_dir}, tmp_path / "x")
    (tmp_path / "stray").mkdir()
    with pytest.raises(UsageError, match="not a site `rulesite build --language zh` wrote"):
        assemble(built, {"zh": tmp_path / "stray", "en": built.site_dir}, tmp_path / "y")


def test_unknown_language_is_a_usage_error(built: Project, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown language 'fr'"):
        build(built, site_dir=tmp_path / "fr", languages=("fr",))


def test_the_publishing_workflow_builds_every_language_then_assembles() -> None:
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "publish.yml").read_text("utf-8"))
    jobs = workflow["jobs"]
    assert jobs["language"]["strategy"]["matrix"]["language"] == list(LANGUAGES)
    build_step = " ".join(step.get("run", "") for step in jobs["language"]["steps"])
    assert "rulesite build --language ${{ matrix.language }}" in build_step
    assemble_step = " ".join(step.get("run", "") for step in jobs["assemble"]["steps"])
    parts = " ".join(f"{lang}=build/site-{lang}" for lang in LANGUAGES)
    assert f"rulesite assemble {parts}" in assemble_step
