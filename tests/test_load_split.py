"""Game files checked on two cores (check/split.py) give the catalog, and the problems in the
order, that checking them in one process gives."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from pydantic import BaseModel

from rulesite import catalog as catalog_module
from rulesite.catalog import Catalog, load_catalog
from rulesite.check import split
from rulesite.errors import DataError
from rulesite.model import Ruling
from rulesite.project import Project
from tests.helpers import GOOD
from tests.projects import REAL, make_project

TODAY = dt.date(2026, 12, 2)
COUNT = split.MIN_ITEMS + 6


def _games(broken: bool) -> dict[str, str]:
    base = (GOOD / "games" / "mini-game.yaml").read_text(encoding="utf-8")
    games = {}
    for number in range(COUNT):
        slug = f"game-{number:02d}"
        text = base.replace("slug: mini-game", f"slug: {slug}")
        games[f"{slug}.yaml"] = text.replace("  - id: mini-game", f"  - id: {slug}")
    if broken:  # one of each kind of problem, spread over both halves
        games["game-03.yaml"] += "oops: [1\n"  # a syntax error
        games["game-07.yaml"] = games["game-07.yaml"].replace("id: game-07", "id: game-06")
        games["game-11.yaml"] = games["game-11.yaml"].replace("slug: game-11", "slug: game-12")
        games["game-15.yaml"] += "bogus: 1\n"  # an unknown key
        games["game-19.yaml"] = games["game-19.yaml"].replace("  - id: setup", "  - id: TODO: x")
        games["game-22.yaml"] += "slug: again\n"  # a duplicate key
        games["game-26.yaml"] = games["game-26.yaml"].replace("  - id: setup", "  - id: !!int 3")
        games["game-29.yaml"] = games["game-29.yaml"].replace("slug: game-29", "slug: game-28")
    return games


def _outcome(root: Path, processes: int, monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setattr(split, "processes", lambda: processes)
    try:
        catalog = load_catalog(Project(root), today=TODAY)
    except DataError as error:
        return [str(problem) for problem in error.problems]
    return _comparable(catalog)


def _comparable(catalog: Catalog) -> object:
    documents = {
        slug: (doc.file, repr(doc.data), doc.lines, doc.spellings, doc.refused)
        for slug, doc in catalog.documents.items()
    }
    games = [repr(game) for game in catalog.games]
    return games, documents, catalog.digests, catalog.warnings, repr(catalog.site)


@pytest.mark.parametrize("broken", [False, True], ids=["valid", "broken"])
def test_two_processes_give_what_one_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    root = make_project(tmp_path / "p", _games(broken))
    if broken:  # a file that cannot be read, among them: its problem keeps its place
        (root / "data" / "games" / "game-20.yaml").unlink()
        (root / "data" / "games" / "game-20.yaml").mkdir()
    one = _outcome(root, 1, monkeypatch)
    two = _outcome(root, 2, monkeypatch)
    assert two == one
    if broken:
        assert isinstance(one, list) and len(one) >= 8
    else:
        assert not isinstance(one, list) and len(one[0]) == COUNT  # type: ignore[index]


def test_the_work_is_split_and_kept_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(split, "processes", lambda: 2)
    parent = os.getpid()
    items = list(range(100))
    done = split.map_split(lambda n: (n * n, os.getpid() == parent), items, [1] * 100)
    assert [value for value, _ in done] == [n * n for n in items]
    here = [n for n, (_, in_parent) in zip(items, done, strict=True) if in_parent]
    assert 40 <= len(here) <= 70 and here == items[: len(here)]  # the first part, here


def test_a_failing_forked_process_leaves_the_work_to_this_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(split, "processes", lambda: 2)
    parent = os.getpid()

    def work(n: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("only in the forked process")
        return n + 1

    assert split.map_split(work, list(range(50)), [1] * 50) == list(range(1, 51))


def test_one_process_where_forking_could_hurt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(split.PROCESSES_VARIABLE, "1")
    assert split.processes() == 1
    monkeypatch.delenv(split.PROCESSES_VARIABLE)
    monkeypatch.setattr(split.threading, "active_count", lambda: 3)
    assert split.processes() == 1


def _records(value: object) -> list[BaseModel]:
    """Every record in ``value``'s tree, in a fixed order."""
    if isinstance(value, BaseModel):
        return [value, *(r for field in value.__dict__.values() for r in _records(field))]
    if isinstance(value, list | tuple):
        return [r for item in value for r in _records(item)]
    if isinstance(value, dict):
        return [r for item in value.values() for r in _records(item)]
    return []


def test_a_checked_games_records_share_one_set_per_set_of_fields(monkeypatch) -> None:
    """pydantic's set of given fields, one per record, is shared by the records of a game
    that gave the same fields (``model.base.share_field_sets``): the same names as without
    sharing, one set object per different set, and a copy with changes has a set of its own."""
    project = Project(REAL)
    shared = load_catalog(project).games
    monkeypatch.setattr(catalog_module, "share_field_sets", lambda game: None)
    own = load_catalog(project).games
    for game, alone in zip(shared, own, strict=True):
        records, alone_records = _records(game), _records(alone)
        names = [r.__pydantic_fields_set__ for r in records]
        assert names == [r.__pydantic_fields_set__ for r in alone_records]
        assert len({id(n) for n in names}) == len({frozenset(n) for n in names}) < len(names)
    record = next(r for r in _records(shared[0]) if isinstance(r, Ruling))
    before = {id(r): set(r.__pydantic_fields_set__) for r in _records(shared[0])}
    copied = record.model_copy(update={"tags": []})
    assert "tags" in copied.model_fields_set
    assert before == {id(r): set(r.__pydantic_fields_set__) for r in _records(shared[0])}
