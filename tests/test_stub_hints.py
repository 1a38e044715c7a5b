"""The stubs of `rulesite new` say what belongs there in each language (issue 20, item 3)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulesite.catalog import load_catalog
from rulesite.check.stubs import STUB_MARKER
from rulesite.commands.new import game_stub_text, new_game, stub_hints
from rulesite.errors import DataError
from rulesite.model import Game
from rulesite.project import Project

REPO = Path(__file__).resolve().parent.parent
HAN = re.compile(r"[\u4e00-\u9fff]")


def _text_stubs(data, path=""):
    """(key path, {code: stub}) of every text stub in plain data."""
    if isinstance(data, dict):
        stubs = all(isinstance(v, str) and v.startswith(STUB_MARKER) for v in data.values())
        if data and stubs and set(data) >= {"zh", "en"}:
            yield path, data
            return
        for key, value in data.items():
            yield from _text_stubs(value, f"{path}.{key}" if path else key)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _text_stubs(value, f"{path}[{index}]")


def test_every_text_stub_has_a_chinese_hint_in_chinese_and_the_english_one_in_english():
    data = yaml.safe_load(game_stub_text("x", ("zh", "en")))
    stubs = list(_text_stubs(data))
    assert len(stubs) >= 8
    for path, by_code in stubs:
        assert HAN.search(by_code["zh"]), f"{path}.zh: {by_code['zh']}"
        assert not HAN.search(by_code["en"]), f"{path}.en: {by_code['en']}"


def test_a_language_without_hints_gets_the_fields_help():
    data = yaml.safe_load(game_stub_text("x", ("zh", "en", "fr")))
    assert data["summary"]["fr"] == data["summary"]["en"]


def test_every_hint_names_a_text_field_of_a_record():
    import rulesite.model as model

    for key in stub_hints():
        record, field = key.split(".")
        cls = getattr(model, record)
        assert field in cls.model_fields, key
    assert "Game.summary" in stub_hints() and Game


def test_validate_lists_each_stub_with_its_own_languages_hint(tmp_path):
    (tmp_path / "data" / "games").mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copy(REPO / "data" / "site.yaml", tmp_path / "data" / "site.yaml")
    new_game(Project(tmp_path), "terra-nova")
    with pytest.raises(DataError) as caught:
        load_catalog(Project(tmp_path))
    lines = caught.value.lines()
    assert any(
        line.endswith(
            "summary.zh: still the stub written by rulesite new: 一句话说明这个游戏讲什么"
        )
        for line in lines
    ), lines
    assert any(
        line.endswith(
            "summary.en: still the stub written by rulesite new: One line saying what the game "
            "is about"
        )
        for line in lines
    ), lines
