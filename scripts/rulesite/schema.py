"""JSON Schemas for editors, generated from the data model (never written by hand)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulesite.export import schema_texts as export_schema_texts
from rulesite.model import Game, LongText, ShortText, SiteData, Text
from rulesite.project import Project

SCHEMAS = {"game.schema.json": Game, "site.schema.json": SiteData}
TEXT_KINDS = {cls.__name__: cls for cls in (Text, ShortText, LongText)}
"""The text records, by the name their definition has in a schema."""


def schema_texts(site: SiteData | None = None) -> dict[str, str]:
    """The schema files' expected content by file name; texts list ``site``'s languages
    (without ``site``, a text is any map of language codes to text)."""
    texts = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema()
        for kind, definition in schema.get("$defs", {}).items():
            if kind in TEXT_KINDS and site is not None:
                _list_languages(definition, TEXT_KINDS[kind], site)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
        texts[name] = json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    # The JSON export's published schemas (export.py), kept here too so a change shows in review.
    texts.update(export_schema_texts())
    return texts


def _list_languages(definition: dict[str, Any], kind: type[Text], site: SiteData) -> None:
    """A text has exactly the site's languages (the model takes them from ``data/site.yaml``,
    so its own schema cannot name them): editors complete and check each."""
    definition["properties"] = {
        language.code: {
            "description": f"{language.name} ({language.code})",
            "maxLength": kind.limits.chars,
            "type": "string",
        }
        for language in site.languages
    }
    definition["required"] = list(site.codes)
    definition["additionalProperties"] = False


def write_schemas(project: Project) -> list[Path]:
    """Write every schema under ``data/schema/``; returns the files written."""
    from rulesite.validate import load_site

    texts = schema_texts(load_site(project))
    project.schema_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in texts.items():
        path = project.schema_dir / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
