"""The rulesite MkDocs plugin: typed options and the build date (jieba: test_search_terms.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulesite.engine import build_date
from rulesite.engine.plugin import RulesitePlugin


def configured(options: dict, config_file: Path) -> RulesitePlugin:
    plugin = RulesitePlugin()
    errors, warnings = plugin.load_config(options, config_file_path=str(config_file))
    assert errors == [] and warnings == []
    return plugin


def test_search_terms_path_is_relative_to_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "terms.txt").write_text("战争强度 100000\n", encoding="utf-8")
    plugin = configured({"search_terms": "terms.txt"}, tmp_path / "mkdocs.yml")
    assert plugin.config.search_terms == str(tmp_path / "terms.txt")


def test_a_missing_terms_file_is_a_config_error(tmp_path: Path) -> None:
    plugin = RulesitePlugin()
    errors, _ = plugin.load_config({"search_terms": "nope.txt"}, str(tmp_path / "mkdocs.yml"))
    assert errors and "nope.txt" in str(errors[0][1])


def test_the_build_date_is_the_option_unless_the_environment_sets_one(monkeypatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert build_date.build_epoch(1790467200) == 1790467200
    assert build_date.build_epoch(None) is None
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "42")
    assert build_date.build_epoch(1790467200) == 42


def test_the_plugin_dates_pages_and_contexts_and_leaves_the_environment(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plugin = configured({"source_date_epoch": 1790467200}, tmp_path / "mkdocs.yml")
    plugin.on_config({})
    assert "SOURCE_DATE_EPOCH" not in os.environ
    page = SimpleNamespace(update_date="2000-01-01", url="")
    files = SimpleNamespace(
        documentation_pages=lambda: [SimpleNamespace(page=page, dest_uri="index.html")],
        javascript_files=lambda: [],
    )
    plugin.on_env(None, config={}, files=files)
    assert page.update_date == "2026-09-27"
    context = plugin.on_template_context({}, template_name="sitemap.xml", config={})
    assert context["build_date_utc"] == dt.datetime(2026, 9, 27, tzinfo=dt.UTC)


@pytest.mark.parametrize("bad", [{"source_date_epoch": "soon"}, {"unknown": 1}])
def test_options_are_typed(tmp_path: Path, bad: dict) -> None:
    plugin = RulesitePlugin()
    errors, warnings = plugin.load_config(bad, str(tmp_path / "mkdocs.yml"))
    assert errors or warnings


def test_a_deferred_build_leaves_search_and_the_offline_files_alone(tmp_path: Path) -> None:
    # The preview's first phase (serve/preview.py): pages only; the second phase does the rest.
    plugin = configured(
        {"defer": True, "split_search": True, "offline": True}, tmp_path / "mkdocs.yml"
    )
    site = tmp_path / "site"
    (site / "search").mkdir(parents=True)
    (site / "search" / "search_index.json").write_text("not split", encoding="utf-8")
    plugin.on_post_build(config=SimpleNamespace(site_dir=str(site), site_url=""))
    assert (site / "search" / "search_index.json").read_text(encoding="utf-8") == "not split"
    assert sorted(path.name for path in site.rglob("*")) == ["search", "search_index.json"]


@pytest.mark.parametrize("defer", [False, True])
def test_a_deferred_build_renders_no_page_about_the_whole_site(tmp_path: Path, defer: bool) -> None:
    # The first phase publishes the edited pages alone: the sitemap (every page) and the 404
    # page would be rendered for nothing; a build that is not deferred writes both.
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    settings = {"site_name": "t", "plugins": [{"rulesite": {"defer": defer}}]}
    (tmp_path / "mkdocs.yml").write_text(json.dumps(settings), encoding="utf-8")
    build(load_config(str(tmp_path / "mkdocs.yml")))
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    assert (site / "sitemap.xml").is_file() is (site / "404.html").is_file() is not defer


@pytest.mark.parametrize("defer", [False, True])
def test_a_deferred_build_leaves_its_pages_out_of_materials_search(
    tmp_path: Path, defer: bool
) -> None:
    # The first phase keeps no search index: Material's search is not given the page to read
    # (its documented `search: exclude`). Not deferred and not splitting, Material indexes it.
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSome words.\n", encoding="utf-8")
    settings = {"site_name": "t", "theme": {"name": "material"}}
    settings["plugins"] = ["search", {"rulesite": {"defer": defer, "split_search": defer}}]
    (tmp_path / "mkdocs.yml").write_text(json.dumps(settings), encoding="utf-8")
    build(load_config(str(tmp_path / "mkdocs.yml")))
    index = json.loads((tmp_path / "site" / "search" / "search_index.json").read_text("utf-8"))
    assert (tmp_path / "site" / "index.html").is_file()
    assert bool(index["docs"]) is not defer


def test_freeing_each_page_once_used_changes_no_byte_of_the_site(
    real_project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin drops a page's Markdown once converted, its HTML and contents once written
    (memory at 1,000 games): titles, the navigation, every page and the offline lists stay the
    same."""
    from rulesite.engine import plugin
    from tests.helpers import tree_digest
    from tests.projects import rebuilt_copy

    # Freed: the run's shared build of the real project (tests/conftest.py). Kept: a clean build
    # of a copy of its sources (no build cache: every page goes through MkDocs).
    monkeypatch.setattr(plugin, "FREE_PAGES", False)
    kept = rebuilt_copy(real_project.root, tmp_path)
    freed = tree_digest(real_project.site_dir)
    assert freed == kept
    assert any(name.endswith("rules/index.html") for name in freed)
