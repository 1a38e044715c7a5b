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

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from rulesite.catalog import Catalog
from rulesite.model import (
    Game,
    Language,
)
from rulesite.model.api import (
    API_DIR,
    FORMAT,
    PUBLISHED_SCHEMAS,
    GameFile,
    GamesIndex,
    GameSummary,
    RuleEntry,
    RulingEntry,
    schema_texts,
)
from rulesite.pages import registry


def _pages(
    languages: list[Language],
    slug: str,
    up: str,
    directory_urls: bool,
    page: str = "overview",
    anchor: str = "",
) -> dict[str, str]:
    """A game's page of kind ``page`` per language code, as the page registry places it
    (``<up>[<prefix>/]games/<slug>/[<page>/][#<anchor>]``); ``up`` leads to the site root."""
    kind = registry.kind(page)
    return {
        language.code: up
        + registry.language_folder(language)
        + kind.url(slug, directory_urls)
        + (f"#{anchor}" if anchor else "")
        for language in languages
    }


def games_index(catalog: Catalog, directory_urls: bool = True) -> GamesIndex:
    """The index, ``api/games.json``."""
    return GamesIndex(
        format=FORMAT,
        languages=[language.code for language in catalog.site.languages],
        games=[game_summary(catalog, game, directory_urls) for game in catalog.games],
    )


def game_summary(catalog: Catalog, game: Game, directory_urls: bool = True) -> GameSummary:
    """One game's row of the index."""
    return GameSummary(
        slug=game.slug,
        title=game.title,
        summary=game.summary,
        card=game.card,
        changed=game.changes[0].date if game.changes else None,
        pages=_pages(catalog.site.languages, game.slug, "../", directory_urls),
        file=f"games/{game.slug}.json",
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


ExportCache = dict[str, tuple[str, bytes, bytes]]
"""A long-running process's export records, by slug: (key, the game's row of the index as
JSON, its own file). The key is the game file's digest with what else a record is made from."""


def export_files(
    catalog: Catalog, directory_urls: bool = True, cache: ExportCache | None = None
) -> dict[str, bytes]:
    """Every file of the export by path under the site root (``api/...``).

    With ``cache`` (the preview), a game whose file is unchanged keeps its records: an edit
    makes one game's JSON, not every game's. The index is the same bytes either way: its games
    are each row's JSON, joined as pydantic joins a list.
    """
    if cache is None:
        index = _json(games_index(catalog, directory_urls))
        records = {
            game.slug: _json(game_file(catalog, game, directory_urls)) for game in catalog.games
        }
    else:
        rows = [_cached(catalog, game, directory_urls, cache) for game in catalog.games]
        empty = GamesIndex(format=FORMAT, languages=list(catalog.site.codes), games=[])
        head = empty.model_dump_json().encode("utf-8")
        assert head.endswith(b"[]}"), head  # the games are the last key
        index = head[:-2] + b",".join(row for row, _ in rows) + b"]}\n"
        records = {game.slug: record for game, (_, record) in zip(catalog.games, rows, strict=True)}
        for slug in cache.keys() - records.keys():
            del cache[slug]
    files = {registry.kind("api-index").source_path(): index}
    for slug, record in records.items():
        files[registry.kind("api-game").source_path(slug)] = record
    for name, text in schema_texts().items():
        files[f"{API_DIR}/{PUBLISHED_SCHEMAS[name]}"] = text.encode("utf-8")
    return files


def _cached(
    catalog: Catalog, game: Game, directory_urls: bool, cache: ExportCache
) -> tuple[bytes, bytes]:
    """A game's row of the index and its own file, from ``cache`` when its file is unchanged."""
    languages = ",".join(language.code for language in catalog.site.languages)
    key = f"{catalog.digests.get(game.slug)};{catalog.digests.get('')};{languages};{directory_urls}"
    entry = cache.get(game.slug)
    if entry is None or entry[0] != key or catalog.digests.get(game.slug) is None:
        made = game_summary(catalog, game, directory_urls).model_dump_json().encode("utf-8")
        entry = (key, made, _json(game_file(catalog, game, directory_urls)))
        cache[game.slug] = entry
    return entry[1], entry[2]


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
