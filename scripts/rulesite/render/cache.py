"""Checked and rendered games kept between rebuilds of one long-running process (``serve``).

A game's checks and pages are made from a few inputs, and the cache keys them on exactly those:

- a checked game file (``validate.load_catalog``): the file's bytes, ``data/site.yaml``'s bytes
  (mechanics and topics) and today's date (no verification date in the future);
- a game's rendered pages (``render_cached``): the file's bytes, ``data/site.yaml``'s bytes
  (labels), the bytes of every page template and the day verification dates are aged on
  (``provenance``: a page flags an old one). A game's pages do not see the other games
  (``render.Renderer``), so another game's edit leaves them as they are;
- a page across games (home, the indexes): the inputs the page registry declares for its kind
  (``pages/registry.py``: every game's card, glossary or rulings: the fields of each game the
  page reads), with ``data/site.yaml``, the templates and the day, as above. Editing a ruling
  renders the topic index again, not the home page.

Keys are SHA-256 digests of those bytes. The code cannot change while the process runs, so it is
not part of a key. The checks across files (unique slugs and calculator ids) are redone every
time: they are cheap, and depend on every game.

The cache lives in memory only. ``rulesite build`` starts a fresh process each time: it keeps
its checked games on disk apart (``publish/check_cache.py``: in the project's private build
cache, each file read back only under its exact key and digest), and its pages in the build
cache (``publish/build_cache.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import jinja2

from rulesite.catalog import Catalog
from rulesite.model import Game
from rulesite.pages import registry
from rulesite.pages.indexes import topic_pages
from rulesite.project import Project
from rulesite.render.renderer import Renderer, folder_digest, make_environment

T = TypeVar("T")

GAME_PAGES = "pages"
"""The cache's kind of a game's pages in every language, one entry per game."""
SITE_PAGE = "site-page"
"""The cache's kind of a page across games, one entry per page."""
ENVIRONMENT = "environment"
"""The cache's kind of the page templates' Jinja environment, one entry."""


class ContentCache:
    """Values made from files, each kept while what it was made from stays the same.

    One entry per kind and name (a file), replaced when its key changes: the cache holds at
    most one version of each file's results.
    """

    def __init__(
        self, prepare: Callable[[jinja2.Environment], jinja2.Environment] | None = None
    ) -> None:
        self.prepare = prepare
        """What is done to each template environment the cache makes (a build's and the
        preview's keep their compiled code in the project's cache: ``engine/bytecode.py``)."""
        self._entries: dict[tuple[str, str], tuple[str, Any]] = {}
        self.hits = 0
        """Values found (for reports and tests)."""
        self.misses = 0
        """Values made."""
        self.input_parts: dict[tuple[str, str], tuple[str, bytes]] = {}
        """Each game's part of each input across games (``InputDigests``), by input name and
        slug, with its key; apart from the entries above (not counted as pages made)."""

    def get(self, kind: str, name: str, key: str, make: Callable[[], T]) -> T:
        """The value of ``kind`` for ``name`` made under ``key``; ``make()`` when there is none."""
        entry = self._entries.get((kind, name))
        if entry is not None and entry[0] == key:
            self.hits += 1
            return entry[1]
        value = make()
        self._entries[(kind, name)] = (key, value)
        self.misses += 1
        return value

    def has(self, kind: str, name: str, key: str) -> bool:
        """Whether the value of ``kind`` for ``name`` made under ``key`` is kept."""
        entry = self._entries.get((kind, name))
        return entry is not None and entry[0] == key

    def put(self, kind: str, name: str, key: str, value: Any) -> None:
        """Keep ``value`` as made under ``key`` (made elsewhere: ``render/parallel.py``)."""
        self._entries[(kind, name)] = (key, value)
        self.misses += 1

    def retain(self, kind: str, names: Iterable[str]) -> None:
        """Forget the entries of ``kind`` whose names are not in ``names`` (deleted files)."""
        keep = set(names)
        for entry_kind, name in list(self._entries):
            if entry_kind == kind and name not in keep:
                del self._entries[(entry_kind, name)]

    def __len__(self) -> int:
        return len(self._entries)


def render_cached(
    project: Project, catalog: Catalog, cache: ContentCache, site_url: str = ""
) -> dict[str, str]:
    """Every page of the site, as ``render.render_pages`` gives them, from ``cache`` where what
    a page is built from is unchanged (``site_url``, the site's address, is part of every key).

    ``catalog`` must come from ``load_catalog`` (it carries the files' digests). Raises
    BuildError, as rendering does, when a template fails.
    """
    return {
        **render_site_pages(project, catalog, cache, site_url),
        **render_game_pages(project, catalog, cache, site_url),
    }


def render_game_pages(
    project: Project, catalog: Catalog, cache: ContentCache, site_url: str = ""
) -> dict[str, str]:
    """Every game's pages (``render_cached``'s, without the pages across games): what the
    preview builds first."""
    renderer, common, _ = renderer_for(project, catalog, cache, site_url)
    pages: dict[str, str] = {}
    for game in catalog.games:
        key = game_key(catalog, game, common)
        if key is None:
            pages.update(_game_pages(renderer, game))
            continue
        pages.update(cache.get(GAME_PAGES, game.slug, key, lambda g=game: _game_pages(renderer, g)))
    cache.retain("pages", (game.slug for game in catalog.games))
    return pages


def render_site_pages(
    project: Project, catalog: Catalog, cache: ContentCache, site_url: str = ""
) -> dict[str, str]:
    """The pages across games (home, the indexes, each topic's), keyed on the inputs their
    kinds declare."""
    renderer, common, site_digest = renderer_for(project, catalog, cache, site_url)
    inputs = InputDigests(catalog, cache)
    pages: dict[str, str] = {}
    for lang in catalog.site.codes:
        for kind in registry.rendered_kinds(registry.Scope.SITE):
            path = f"{lang}/{kind.source_path()}"
            if site_digest is None:  # a catalog made some other way: nothing to key on
                pages[path] = renderer.site_page(kind, lang)
                continue
            key = f"{inputs.key(kind.inputs)};{common}"
            make = lambda k=kind, lang=lang: renderer.site_page(k, lang)  # noqa: E731
            pages[path] = cache.get(SITE_PAGE, path, key, make)
        pages.update(_topic_pages(renderer, lang, inputs, common, cache, site_digest))
    return pages


def game_page_paths(codes: Iterable[str], game: Game) -> list[str]:
    """The paths (``<lang>/<source>``) of a game's pages in every language, in the order its
    cache entry holds them (``render_game_pages``)."""
    return [
        f"{lang}/{kind.source_path(game.slug)}"
        for lang in codes
        for kind in registry.game_kinds(game)
    ]


def game_key(catalog: Catalog, game: Game, common: str) -> str | None:
    """The key of a game's pages (``common``: ``renderer_for``'s); None for a catalog made some
    other way (nothing to key on)."""
    file_digest = catalog.digests.get(game.slug)
    if file_digest is None or catalog.digests.get("") is None:
        return None
    return f"game={file_digest};{common}"


def renderer_for(
    project: Project, catalog: Catalog, cache: ContentCache, site_url: str
) -> tuple[Renderer, str, str | None]:
    """The renderer, the part of every key all pages share, and ``data/site.yaml``'s digest."""
    templates = folder_digest(project.templates_dir / "pages")
    renderer = Renderer(project, catalog, _environment(project, cache, templates), site_url)
    site_digest = catalog.digests.get("")
    # as_of: a page flags verification dates older than stale_after_days on that day.
    common = (
        f"site={site_digest};templates={templates};as_of={catalog.as_of.isoformat()};url={site_url}"
    )
    return renderer, common, site_digest


class InputDigests:
    """Digests of what pages across games are built from (``registry.Input``), each made once.

    An input across every game is digested from the fields of each game it declares (the
    home page changes with a game's card, not with its rulings); the site's data and the
    templates are in every page's key already.
    """

    def __init__(self, catalog: Catalog, cache: ContentCache | None = None) -> None:
        self._catalog = catalog
        self._cache = cache
        """Each game's part of each input, kept while its file stays the same: an edit
        digests one game's fields, not every game's."""
        self._made: dict[str, str] = {}

    def key(self, inputs: Iterable[registry.Input]) -> str:
        """The part of a page's key its ``inputs`` give."""
        return ";".join(f"{i.name}={self.digest(i)}" for i in inputs if i is not registry.SITE)

    def digest(self, wanted: registry.Input) -> str:
        if wanted.name not in self._made:
            self._made[wanted.name] = self._make(wanted)
        return self._made[wanted.name]

    def _make(self, wanted: registry.Input) -> str:
        digest = hashlib.sha256()
        for game in self._catalog.games:
            data = self._part(wanted, game)
            digest.update(b"%d\0" % len(data) + data)
        if self._cache is not None:
            slugs = {game.slug for game in self._catalog.games}
            parts = self._cache.input_parts
            for name, slug in [key for key in parts if key[0] == wanted.name]:
                if slug not in slugs:
                    del parts[(name, slug)]
        return digest.hexdigest()

    def _part(self, wanted: registry.Input, game: Game) -> bytes:
        """What one game gives an input: the fields it declares, or its file's digest."""
        file_digest = self._catalog.digests.get(game.slug)
        if not wanted.fields:  # the whole file (and its pictures)
            return (file_digest or "").encode("ascii")
        fields = set(wanted.fields)
        if self._cache is None or file_digest is None:
            return game.model_dump_json(include=fields).encode("utf-8")
        # The record is checked against data/site.yaml too: its digest is part of the key.
        key = f"{file_digest};{self._catalog.digests.get('')}"
        entry = self._cache.input_parts.get((wanted.name, game.slug))
        if entry is None or entry[0] != key:
            entry = (key, game.model_dump_json(include=fields).encode("utf-8"))
            self._cache.input_parts[(wanted.name, game.slug)] = entry
        return entry[1]


def _topic_pages(
    renderer: Renderer,
    lang: str,
    inputs: InputDigests,
    common: str,
    cache: ContentCache,
    site_digest: str | None,
) -> dict[str, str]:
    """Each topic's pages, keyed like a page across games (on the inputs its kind declares)."""
    if site_digest is None:  # a catalog made some other way: nothing to key on
        return renderer.topic_pages(lang)
    pages: dict[str, str] = {}
    for kind in registry.topic_kinds():
        key = f"{inputs.key(kind.inputs)};{common}"
        for topic_id in topic_pages(renderer.catalog):
            path = f"{lang}/{kind.source_path(topic_id)}"
            make = lambda k=kind, t=topic_id: renderer.topic_page(k, t, lang)  # noqa: E731
            pages[path] = cache.get(SITE_PAGE, path, key, make)
    return pages


def _game_pages(renderer: Renderer, game: Game) -> dict[str, str]:
    pages: dict[str, str] = {}
    for lang in renderer.catalog.site.codes:
        pages.update(renderer.game_pages(game, lang))
    return pages


def _environment(project: Project, cache: ContentCache, templates: str) -> jinja2.Environment:
    # Compiling the templates costs more than rendering one game: keep the environment while
    # the templates stay the same.
    def make() -> jinja2.Environment:
        env = make_environment(project)
        return cache.prepare(env) if cache.prepare else env

    return cache.get(ENVIRONMENT, "", templates, make)
