"""JSON Schemas for editors, generated from the data model (never written by hand)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from rulesite.errors import UsageError
from rulesite.model import Game, LongText, ShortText, SiteData, Text
from rulesite.model.api import schema_texts as export_schema_texts
from rulesite.project import Project
from rulesite.terminal import printable

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
    # The JSON export's published schemas (model/api.py), kept here too so a change shows
    # in review.
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
    """Write every schema under ``data/schema/``; returns the files written.

    Only inside the project: a folder linked out of it is refused, and each file is replaced
    (written beside it, then renamed over it), so a symlink in its place is never followed.
    """
    from rulesite.catalog import load_site

    texts = schema_texts(load_site(project))
    folder = project.schema_dir
    if not folder.resolve().is_relative_to(project.root.resolve()):
        raise UsageError(
            f"{folder.relative_to(project.root).as_posix()} links to "
            f"{printable(str(folder.resolve()))}, outside the project; rulesite schema writes "
            "only inside it"
        )
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in texts.items():
        path = folder / name
        _replace(path, text)
        written.append(path)
    return written


def _replace(path: Path, text: str) -> None:
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", newline="\n", dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as file:
        temporary = Path(file.name)
        try:
            file.write(text)
        except BaseException:
            temporary.unlink()
            raise
    temporary.chmod(0o644)  # as a file written in place would be (not the scratch file's 0600)
    os.replace(temporary, path)
