"""The JSON export (``/api/games.json``, ``/api/games/<slug>.json``) and its published schemas:
valid against them, at the site root only, following the data, links that land, stable bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from jsonschema import Draft202012Validator

from rulesite.catalog import Catalog, load_catalog
from rulesite.engine.export import ExportCache, export_files
from rulesite.model.api import API_DIR, PUBLISHED_SCHEMAS, SCHEMAS, schema_texts
from rulesite.project import Project
from tests.helpers import REPO
from tests.projects import REAL, extra_game_text, good_game_text, make_project, other_game

INDEX = f"{API_DIR}/games.json"


def _validator(site_dir: Path, name: str) -> Draft202012Validator:
    schema = json.loads((site_dir / API_DIR / PUBLISHED_SCHEMAS[name]).read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def real_catalog() -> Catalog:
    return load_catalog(Project(REAL))


def test_published_schemas_are_the_committed_ones(site_dir: Path) -> None:
    for name, text in schema_texts().items():
        committed = (REPO / "data" / "schema" / name).read_text("utf-8")
        assert committed == text, f"data/schema/{name} is stale: run `make schema`"
        assert (site_dir / API_DIR / PUBLISHED_SCHEMAS[name]).read_text("utf-8") == text


def test_export_fits_its_schemas(site_dir: Path, real_catalog: Catalog) -> None:
    index = json.loads((site_dir / INDEX).read_text("utf-8"))
    index_schema, game_schema = (_validator(site_dir, name) for name in SCHEMAS)
    assert [e.message for e in index_schema.iter_errors(index)] == []
    assert [g["slug"] for g in index["games"]] == [g.slug for g in real_catalog.games]
    for game in index["games"]:
        data = json.loads((site_dir / API_DIR / game["file"]).read_text("utf-8"))
        assert [e.message for e in game_schema.iter_errors(data)] == [], game["slug"]


def test_schemas_refuse_what_does_not_fit(site_dir: Path) -> None:
    # The schema is a contract, not a formality: a missing or unknown key is reported.
    index = json.loads((site_dir / INDEX).read_text("utf-8"))
    validator = _validator(site_dir, "api-games.schema.json")
    del index["games"][0]["card"]
    index["games"][0]["extra"] = 1
    messages = sorted(e.message for e in validator.iter_errors(index))
    assert len(messages) == 2 and "'card' is a required property" in messages


def test_export_is_published_once_at_the_site_root(site_dir: Path, real_catalog: Catalog) -> None:
    assert (site_dir / INDEX).is_file()
    for language in real_catalog.site.languages[1:]:
        assert not (site_dir / language.prefix / API_DIR).exists()


def test_export_links_land_on_built_pages(site_dir: Path) -> None:
    index = json.loads((site_dir / INDEX).read_text("utf-8"))
    base = f"https://host/{INDEX}"

    def lands(address: str, link: str) -> None:
        url = urljoin(address, link)
        path, _, anchor = url.removeprefix("https://host/").partition("#")
        page = site_dir / path / "index.html" if path.endswith("/") else site_dir / path
        assert page.is_file(), url
        if anchor:
            assert f'id="{anchor}"' in page.read_text("utf-8"), url

    for game in index["games"]:
        lands(base, game["file"])
        for link in game["pages"].values():
            lands(base, link)
        own = urljoin(base, game["file"])
        data = json.loads((site_dir / API_DIR / game["file"]).read_text("utf-8"))
        for item in [data, *data["rules"], *data["faq"]]:
            for link in (item.get("pages") or item["page"]).values():
                lands(own, link)


def test_export_follows_the_data(tmp_path: Path) -> None:
    root = make_project(
        tmp_path / "p", games={"extra-game.yaml": extra_game_text()}, real_games=True
    )
    catalog = load_catalog(Project(root))
    files = export_files(catalog)
    index = json.loads(files[INDEX])
    assert [g["slug"] for g in index["games"]] == sorted(g.slug for g in catalog.games)
    assert "extra-game" in [g["slug"] for g in index["games"]]
    codes = [language.code for language in catalog.site.languages]
    assert index["languages"] == codes
    for game in catalog.games:
        data = json.loads(files[f"{API_DIR}/games/{game.slug}.json"])
        assert data["title"] == {code: game.title.get(code) for code in codes}
        assert data["card"]["bgg_id"] == game.card.bgg_id
        assert [r["id"] for r in data["rules"]] == [r.id for r in game.rules]
        # Answers are the data's Markdown source, per language.
        assert [r["answer"] for r in data["faq"]] == [
            {code: r.answer.get(code) for code in codes} for r in game.faq
        ]
        assert [c["id"] for c in data["calculators"]] == [c.id for c in game.scoring]
        assert [c["date"] for c in data["changes"]] == [c.date.isoformat() for c in game.changes]


def _missing_keys(value: Any, schema: dict[str, Any], root: dict[str, Any], path: str) -> list[str]:
    """Keys a schema's object lists but ``value`` leaves out, anywhere in ``value``."""
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _missing_keys(value, target, root, path)
    for choice in schema.get("anyOf", []):
        if value is not None and choice.get("type") != "null":
            return _missing_keys(value, choice, root, path)
    missing = []
    if isinstance(value, dict) and "properties" in schema:
        missing += [f"{path}.{key}" for key in schema["properties"] if key not in value]
        for key, item in value.items():
            if key in schema["properties"]:
                missing += _missing_keys(item, schema["properties"][key], root, f"{path}.{key}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            missing += _missing_keys(item, schema["items"], root, f"{path}[{index}]")
    return missing


def test_export_has_every_key_everywhere(real_catalog: Catalog) -> None:
    # Bots index by key: an empty value is null or [], never a key left out.
    files = export_files(real_catalog)
    paths = {
        "api-games.schema.json": [INDEX],
        "api-game.schema.json": [f"{API_DIR}/games/{g.slug}.json" for g in real_catalog.games],
    }
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(mode="serialization")
        for path in paths[name]:
            assert _missing_keys(json.loads(files[path]), schema, schema, "$") == [], path


def test_export_bytes_are_stable(real_catalog: Catalog) -> None:
    first = export_files(real_catalog)
    assert export_files(real_catalog) == first
    data = json.loads(first[f"{API_DIR}/games/{real_catalog.games[0].slug}.json"])
    # Keys in the schema's (the classes') order, every key present.
    schema = json.loads(schema_texts()["api-game.schema.json"])
    assert list(data) == schema["required"]


def test_the_export_from_kept_records_is_the_same_bytes(tmp_path: Path) -> None:
    # The preview keeps each game's records between edits (engine/export.py: ExportCache).
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    project = Project(make_project(tmp_path / "p", games))
    kept: ExportCache = {}
    assert export_files(load_catalog(project), cache=kept) == export_files(load_catalog(project))
    first = dict(kept)
    game = project.games_dir / "mini-game.yaml"
    game.write_text(game.read_text("utf-8").replace("bgg_rank: 9999", "bgg_rank: 4321"), "utf-8")
    catalog = load_catalog(project)
    assert export_files(catalog, cache=kept) == export_files(catalog)
    assert kept["other-game"] is first["other-game"] and kept["mini-game"] != first["mini-game"]
    (project.games_dir / "other-game.yaml").unlink()
    catalog = load_catalog(project)
    assert export_files(catalog, cache=kept) == export_files(catalog)
    assert list(kept) == ["mini-game"]
