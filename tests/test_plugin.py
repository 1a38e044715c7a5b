"""The rulesite MkDocs plugin: typed options, fresh jieba words, the build date."""

from __future__ import annotations

import os
from pathlib import Path

import jieba
import pytest

from rulesite.engine.plugin import RulesitePlugin, load_search_terms


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


def test_loading_terms_twice_segments_like_once(tmp_path: Path) -> None:
    terms = tmp_path / "terms.txt"
    terms.write_text("战争强度 100000\n", encoding="utf-8")
    load_search_terms(str(terms))
    first = jieba.lcut("本轮战争强度为三")
    load_search_terms(str(terms))
    assert jieba.lcut("本轮战争强度为三") == first
    assert "战争强度" in first


def test_build_date_is_set_for_the_build_and_removed_after(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plugin = configured({"source_date_epoch": 1790467200}, tmp_path / "mkdocs.yml")
    plugin.on_config({})
    assert os.environ["SOURCE_DATE_EPOCH"] == "1790467200"
    plugin.on_shutdown()
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_an_explicit_build_date_wins(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "42")
    plugin = configured({"source_date_epoch": 1790467200}, tmp_path / "mkdocs.yml")
    plugin.on_config({})
    plugin.on_shutdown()
    assert os.environ["SOURCE_DATE_EPOCH"] == "42"


@pytest.mark.parametrize("bad", [{"source_date_epoch": "soon"}, {"unknown": 1}])
def test_options_are_typed(tmp_path: Path, bad: dict) -> None:
    plugin = RulesitePlugin()
    errors, warnings = plugin.load_config(bad, str(tmp_path / "mkdocs.yml"))
    assert errors or warnings
