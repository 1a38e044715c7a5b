"""The checked games a build keeps in ``.cache/rulesite-build/checked/``
(``publish/check_cache.py``): read back only when their key and digest hold, from a private
folder; anything else is named in one line and the game checked again, with the same catalog."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest

from rulesite.catalog import Catalog, load_catalog
from rulesite.check.split import map_split_pickled
from rulesite.errors import DataError
from rulesite.project import Project
from rulesite.publish import check_cache
from rulesite.publish.check_cache import CheckCache
from tests.projects import good_game_text, make_project, other_game

TODAY = dt.date(2026, 12, 3)
GAME = "data/games/mini-game.yaml"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game()}
    return Project(make_project(tmp_path / "project", games))


def _load(project: Project, clean: bool = False) -> tuple[Catalog, CheckCache, list[str]]:
    said: list[str] = []
    store = CheckCache(project, said.append, clean)
    return load_catalog(project, TODAY, stored=store), store, said


def _files(project: Project) -> list[Path]:
    return sorted((project.root / check_cache.CHECK_DIR).iterdir())


def _same(one: Catalog, other: Catalog) -> None:
    assert one.games == other.games
    assert one.documents == other.documents
    assert one.digests == other.digests
    assert one.warnings == other.warnings


def test_a_second_load_reads_every_game_back(project: Project) -> None:
    first, store, said = _load(project)
    assert store.hits == 0 and said == []
    assert len(_files(project)) == 2
    again, store, said = _load(project)
    assert store.hits == 2 and said == []
    _same(again, first)
    _same(again, load_catalog(project, TODAY))
    assert (project.root / check_cache.CHECK_DIR).stat().st_mode & 0o077 == 0


def test_an_edited_game_is_checked_again_and_its_old_result_dropped(project: Project) -> None:
    _load(project)
    before = set(_files(project))
    path = project.root / GAME
    path.write_text(path.read_text("utf-8").replace("zh: 没有。", "zh: 没有上限。"), "utf-8")
    catalog, store, _ = _load(project)
    assert store.hits == 1
    after = set(_files(project))
    assert len(after) == 2 and len(after - before) == 1
    _same(catalog, load_catalog(project, TODAY))


def test_another_day_or_site_file_checks_again(project: Project) -> None:
    _load(project)
    said: list[str] = []
    store = CheckCache(project, said.append)
    load_catalog(project, TODAY + dt.timedelta(days=1), stored=store)
    assert store.hits == 0 and said == []
    site = project.site_file
    site.write_text(site.read_text("utf-8") + "\n# a comment\n", "utf-8")
    _, store, _ = _load(project)
    assert store.hits == 0


def test_invalid_data_is_reported_alike(project: Project) -> None:
    path = project.root / GAME
    path.write_text(path.read_text("utf-8").replace("bgg_rank: 9999", "bgg_rank: many"), "utf-8")
    with pytest.raises(DataError) as fresh:
        load_catalog(project, TODAY)
    for _ in range(2):  # checked and kept, then read back
        with pytest.raises(DataError) as kept:
            _load(project)
        assert kept.value.problems == fresh.value.problems


def _damage_first(project: Project, how: str) -> Path:
    path = _files(project)[0]
    raw = path.read_bytes()
    magic, header, payload = raw.split(b"\n", 2)
    key = json.loads(header)["key"]
    if how == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "flipped byte":
        path.write_bytes(raw[:-10] + bytes([raw[-10] ^ 1]) + raw[-9:])
    elif how in ("another key", "not a checked game"):  # whole, its digest right
        if how == "another key":
            key = key + "x"
        else:
            payload = pickle.dumps({"not": "a game"})
        digest = hashlib.sha256(payload).hexdigest()
        header = json.dumps({"key": key, "sha256": digest}).encode()
        path.write_bytes(b"\n".join([magic, header, payload]))
    elif how == "writable by others":
        path.chmod(0o666)
    return path


@pytest.mark.parametrize(
    "how", ["truncated", "flipped byte", "another key", "not a checked game", "writable by others"]
)
def test_a_damaged_file_is_named_and_its_game_checked_again(project: Project, how: str) -> None:
    first, _, _ = _load(project)
    path = _damage_first(project, how)
    catalog, store, said = _load(project)
    why = "not private" if how == "writable by others" else "damaged"
    shown = project.display(path)
    assert said == [f"note: checked game ignored ({why}: {shown}); checking it again"]
    assert store.hits == 1
    _same(catalog, first)
    _, store, said = _load(project)  # written anew
    assert store.hits == 2 and said == []


def test_a_folder_others_may_write_is_not_read(project: Project) -> None:
    _load(project)
    folder = project.root / check_cache.CHECK_DIR
    folder.chmod(0o777)
    catalog, store, said = _load(project)
    assert said == [f"note: checked-games cache ignored (not private: {check_cache.CHECK_DIR})"]
    assert store.hits == 0
    _same(catalog, load_catalog(project, TODAY))


def test_clean_reads_nothing_and_keeps_what_it_checked(project: Project) -> None:
    _load(project)
    stray = project.root / check_cache.CHECK_DIR / ".left-by-a-killed-build.tmp"
    stray.write_bytes(b"half")
    _, store, said = _load(project, clean=True)
    assert store.hits == 0 and said == []
    assert not stray.exists()
    _, store, _ = _load(project)
    assert store.hits == 2


def _square(n: int) -> dict[str, int]:
    return {"n": n, "square": n * n}


def test_map_split_pickled_gives_each_result_with_its_pickle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    items = list(range(40))  # enough to fork
    for processes in ("", "1"):
        monkeypatch.setenv("RULESITE_CHECK_PROCESSES", processes)
        made = map_split_pickled(_square, items, [1] * len(items))
        assert [result for result, _ in made] == [_square(n) for n in items]
        assert [pickle.loads(raw) for _, raw in made] == [_square(n) for n in items]
    assert os.environ.get("RULESITE_CHECK_PROCESSES") == "1"
