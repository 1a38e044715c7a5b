"""The JSON export's records (``/api/``): what other tools read, with their published schemas."""

from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rulesite.model import (
    Calculator,
    Change,
    LongText,
    ParameterCard,
    ShortText,
    Slug,
    Source,
    Text,
)

API_DIR = "api"
"""Folder of the export at the site root."""
FORMAT = 1
"""Version of the export's shape: raised when a key is removed or changes meaning."""


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class RuleEntry(_Export):
    """A rule section of the game's rules page."""

    id: Slug
    """Anchor of the section on the rules page, the same in every language."""
    title: ShortText
    """Section heading per language (Markdown source)."""
    page: dict[str, str]
    """Address of the section per language code, relative to this file."""


class RulingEntry(_Export):
    """An FAQ ruling."""

    id: Slug
    """Permanent anchor of the ruling on the FAQ page, the same in every language."""
    question: ShortText
    """The question per language (Markdown source)."""
    answer: LongText
    """The answer per language (Markdown source: paragraphs, lists, tables, links)."""
    tags: list[Slug]
    """Topic ids (``data/site.yaml``)."""
    rules: list[Slug]
    """Ids of the rule sections it explains."""
    page: dict[str, str]
    """Address of the ruling per language code, relative to this file."""


class GameSummary(_Export):
    """One game in the index."""

    slug: Slug
    """The game's id: its pages are ``games/<slug>/``."""
    title: ShortText
    """Title per language (Markdown source)."""
    summary: Text
    """One line per language saying what the game is about (Markdown source)."""
    card: ParameterCard
    """The parameter card's facts (BGG figures are a dated snapshot)."""
    changed: dt.date | None
    """Date of the game's newest entry in ``changes``; null when it has none."""
    pages: dict[str, str]
    """Address of the game's overview per language code, relative to this file."""
    file: str
    """Address of the game's own file (``games/<slug>.json``), relative to this file."""


class GamesIndex(_Export):
    """Every game of the site (``/api/games.json``). Texts are Markdown source, one string per
    language code; addresses are relative to this file's own address."""

    format: Literal[1]
    """Version of this shape; raised when a key is removed or changes meaning."""
    languages: list[str]
    """The site's language codes, the root language first."""
    games: list[GameSummary]
    """Every game, by slug."""


class GameFile(_Export):
    """One game (``/api/games/<slug>.json``): its card, rule sections, rulings, sources,
    changes and scoring calculators. Texts are Markdown source, one string per language code;
    addresses are relative to this file's own address."""

    format: Literal[1]
    """Version of this shape; raised when a key is removed or changes meaning."""
    slug: Slug
    """The game's id."""
    title: ShortText
    """Title per language (Markdown source)."""
    summary: Text
    """One line per language (Markdown source)."""
    card: ParameterCard
    """The parameter card's facts (BGG figures are a dated snapshot)."""
    pages: dict[str, str]
    """Address of the game's overview per language code, relative to this file."""
    rules: list[RuleEntry]
    """Rule sections, in page order (titles only: the rules page has the text)."""
    faq: list[RulingEntry]
    """FAQ rulings, in page order, with their answers."""
    sources: list[Source]
    """Where the facts come from."""
    changes: list[Change]
    """What changed on the game's pages, newest first."""
    calculators: list[Calculator]
    """End-game scoring calculators as defined in the data (formulas as text; the README's
    "Scoring calculators" section says how they score; ``rulesite score`` runs them)."""


SCHEMAS: dict[str, type[BaseModel]] = {
    "api-games.schema.json": GamesIndex,
    "api-game.schema.json": GameFile,
}
"""The export's JSON Schemas by file name under ``data/schema/``."""

PUBLISHED_SCHEMAS = {
    "api-games.schema.json": "schema/games.schema.json",
    "api-game.schema.json": "schema/game.schema.json",
}
"""Where each schema is published, under ``api/``."""


def schema_texts() -> dict[str, str]:
    """The export's schema files' content by file name (``data/schema/``)."""
    return dict(_schema_texts())


@functools.cache
def _schema_texts() -> dict[str, str]:
    # Generating a schema takes milliseconds; every build and preview update writes it.
    texts = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(mode="serialization")
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
        texts[name] = json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    return texts
