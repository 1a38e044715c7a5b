"""The editor schema is generated from the model and kept in sync; data files point at it."""

from __future__ import annotations

import json

from rulesite.catalog import load_site
from rulesite.commands.schema import schema_texts
from rulesite.project import Project
from tests.helpers import REPO
from tests.projects import REAL

SITE = load_site(Project(REAL))


def test_committed_schemas_match_the_model() -> None:
    for name, text in schema_texts(SITE).items():
        committed = (REPO / "data" / "schema" / name).read_text(encoding="utf-8")
        assert committed == text, f"data/schema/{name} is stale: run `make schema`"


def test_schema_describes_fields_from_docstrings() -> None:
    schema = json.loads(schema_texts(SITE)["game.schema.json"])
    assert schema["additionalProperties"] is False
    assert "anchor" in schema["$defs"]["Ruling"]["properties"]["id"]["description"]


def test_every_data_file_points_at_its_schema() -> None:
    for path in (REPO / "data" / "games").glob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schema/game.schema.json", path.name
    first = (REPO / "data" / "site.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=schema/site.schema.json"


def test_texts_list_the_declared_languages() -> None:
    schema = json.loads(schema_texts(SITE)["game.schema.json"])
    for kind in ("Text", "ShortText", "LongText"):
        definition = schema["$defs"][kind]
        assert sorted(definition["properties"]) == sorted(SITE.codes)  # keys are sorted
        assert definition["required"] == list(SITE.codes)
        assert definition["additionalProperties"] is False
