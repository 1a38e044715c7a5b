"""The JSON export for other tools and bots: ``/api/games.json`` and ``/api/games/<slug>.json``.

Written once, with the root language's site (never under ``/en/``): into that language's
generated MkDocs project's ``docs/api/`` as static files, so a build, ``rulesite assemble`` and
the preview publish the same bytes. The published JSON Schemas (``/api/schema/``) are generated
from the classes below, as the editors' schema is from the data model; ``rulesite schema`` keeps
the repository's copies (``data/schema/api-*.schema.json``) in step and a test checks them.

Choices:

- texts are the data's Markdown source, one string per language: what a bot can render, index
  or quote as it likes (HTML would fix one rendering; plain text would lose links and lists);
- links are relative references, resolved against the JSON file's own address (as a browser
  resolves a page's links), so the export works at the root, under a sub-path and on any host;
- keys come in the classes' field order, every key always present (``null`` or ``[]`` when
  empty), compact (no spaces): gzip takes the rest.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from rulesite.model import (
    Calculator,
    Change,
    Game,
    Language,
    LongText,
    ParameterCard,
    ShortText,
    Slug,
    Source,
    Text,
)
from rulesite.validate import Catalog

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


def _pages(
    languages: list[Language],
    slug: str,
    up: str,
    directory_urls: bool,
    page: str = "",
    anchor: str = "",
) -> dict[str, str]:
    """A game's page per language code: ``<up>[<prefix>/]games/<slug>/[<page>/][#<anchor>]``
    (``.../<page or index>.html`` without directory URLs); ``up`` leads to the site root."""
    links = {}
    for language in languages:
        folder = f"{up}{language.prefix + '/' if language.prefix else ''}games/{slug}/"
        if directory_urls:
            link = folder + (f"{page}/" if page else "")
        else:
            link = folder + f"{page or 'index'}.html"
        links[language.code] = link + (f"#{anchor}" if anchor else "")
    return links


def games_index(catalog: Catalog, directory_urls: bool = True) -> GamesIndex:
    """The index, ``api/games.json``."""
    return GamesIndex(
        format=FORMAT,
        languages=[language.code for language in catalog.site.languages],
        games=[
            GameSummary(
                slug=game.slug,
                title=game.title,
                summary=game.summary,
                card=game.card,
                changed=game.changes[0].date if game.changes else None,
                pages=_pages(catalog.site.languages, game.slug, "../", directory_urls),
                file=f"games/{game.slug}.json",
            )
            for game in catalog.games
        ],
    )


def game_file(catalog: Catalog, game: Game, directory_urls: bool = True) -> GameFile:
    """One game's file, ``api/games/<slug>.json``."""
    up = "../../"
    languages = catalog.site.languages
    return GameFile(
        format=FORMAT,
        slug=game.slug,
        title=game.title,
        summary=game.summary,
        card=game.card,
        pages=_pages(languages, game.slug, up, directory_urls),
        rules=[
            RuleEntry(
                id=rule.id,
                title=rule.title,
                page=_pages(languages, game.slug, up, directory_urls, "rules", rule.id),
            )
            for rule in game.rules
        ],
        faq=[
            RulingEntry(
                id=ruling.id,
                question=ruling.question,
                answer=ruling.answer,
                tags=ruling.tags,
                rules=ruling.rules,
                page=_pages(languages, game.slug, up, directory_urls, "faq", ruling.id),
            )
            for ruling in game.faq
        ],
        sources=game.sources,
        changes=game.changes,
        calculators=game.scoring,
    )


def _json(record: BaseModel) -> bytes:
    return record.model_dump_json().encode("utf-8") + b"\n"


def export_files(catalog: Catalog, directory_urls: bool = True) -> dict[str, bytes]:
    """Every file of the export by path under the site root (``api/...``)."""
    files = {f"{API_DIR}/games.json": _json(games_index(catalog, directory_urls))}
    for game in catalog.games:
        record = game_file(catalog, game, directory_urls)
        files[f"{API_DIR}/games/{game.slug}.json"] = _json(record)
    for name, text in schema_texts().items():
        files[f"{API_DIR}/{PUBLISHED_SCHEMAS[name]}"] = text.encode("utf-8")
    return files


def write_export(docs_dir: Path, catalog: Catalog, config: dict[str, Any]) -> list[Path]:
    """Write the export into the root language project's ``docs/`` (``config``: its MkDocs
    settings); the files written."""
    directory_urls = config.get("use_directory_urls", True) is not False
    written = []
    for relative, data in export_files(catalog, directory_urls).items():
        path = docs_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written
