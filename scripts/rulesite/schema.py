"""JSON Schemas for editors, generated from the data model (never written by hand)."""

from __future__ import annotations

import json
from pathlib import Path

from rulesite.export import schema_texts as export_schema_texts
from rulesite.model import Game, SiteData
from rulesite.project import Project

SCHEMAS = {"game.schema.json": Game, "site.schema.json": SiteData}


def schema_texts() -> dict[str, str]:
    """The schema files' expected content by file name."""
    texts = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema()
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
        texts[name] = json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    # The JSON export's published schemas (export.py), kept here too so a change shows in review.
    texts.update(export_schema_texts())
    return texts


def write_schemas(project: Project) -> list[Path]:
    """Write every schema under ``data/schema/``; returns the files written."""
    project.schema_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        path = project.schema_dir / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
