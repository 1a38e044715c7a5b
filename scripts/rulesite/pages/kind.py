"""What a page kind is: the record the page registry (``registry.py``) declares each kind with.

A :class:`PageKind` knows its paths (its source under ``content/<lang>/docs/``, its URL as MkDocs
gives it, in either URL form, and the file it becomes), and can tell whether a URL is one of its
own; the registry says which kinds there are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rulesite.model import Game

GAME_FOLDER = "games/{slug}/"
"""Where every page of one game lives (under a language's root): the game's own folder, so a
URL names its game and a game's pages can be rebuilt, stored and searched together."""
SLUG = "{slug}"
"""The placeholder a game kind's paths take for the game's slug (a topic kind's: the topic's id)."""
_SLUG_PATTERN = "(?P<slug>[a-z0-9-]+)"
"""A slug as data/ allows it (lowercase letters, digits, hyphens)."""


class Scope(Enum):
    """How many of a kind there are in one language."""

    SITE = "one per language"
    GAME = "one per game and language (where the game has it)"
    TOPIC = "one per topic and language (where some ruling is tagged with it)"


class Writer(Enum):
    """What writes a kind's files."""

    TEMPLATE = "its template under templates/pages/, rendered into Markdown by render/"
    MKDOCS = "MkDocs and the theme (templates/theme/)"
    ENGINE = "the engine (engine/), as a static file or after MkDocs"


class Search(Enum):
    """A kind's role in search: the chunked index every page searches (``engine/search_chunks.py``)
    and the game shards offline search reads (``engine/search_split.py``)."""

    SITE = "in the chunked index, whole"
    TITLES = "in the chunked index, its titles only (its text repeats every game's)"
    SHARD = "in the chunked index whole, and in its game's shard"
    NONE = "not searched"


@dataclass(frozen=True)
class Input:
    """Something pages are built from: what a cache keys a page on (``render/cache.py``)."""

    name: str
    """Short name, for messages and cache keys."""
    fields: tuple[str, ...] = ()
    """For an input across every game: the fields of each game it reads."""
    doc: str = ""
    """What it is."""


@dataclass(frozen=True)
class PageKind:
    """One kind of page (or published file) and everything the stages need to know of it."""

    name: str
    """Its name: ``overview``, ``rules``; a game page's label is ``page_<name>``."""
    scope: Scope
    """One per language, or one per game and language."""
    writer: Writer
    """What writes it."""
    source: str | None
    """Its path under ``content/<lang>/docs/`` (``{slug}`` for the game); None for a file
    written straight into the built site (the 404 and offline pages)."""
    output: str | None = None
    """Its path in the built site when it has no source."""
    template: str | None = None
    """Its template under ``templates/pages/`` (``writer`` TEMPLATE only)."""
    context: Callable[..., dict[str, Any]] | None = None
    """What its template is given besides what every page is given: ``(catalog, lang)`` for a
    site page, ``(game, lang)`` for a game's, ``(catalog, topic_id, lang)`` for a topic's."""
    nav: bool = False
    """Listed in the site navigation (in :data:`KINDS` order); a game's pages are not: MkDocs
    puts the whole navigation into every page."""
    nav_title: str | None = None
    """A ``nav`` kind's title: the label (``data/site.yaml``) its page's front matter and its
    navigation entry both show. The generated ``mkdocs.yml`` gives the navigation its titles,
    so a page's entry needs no rendering of that page (``engine/projects.py``)."""
    tab: bool = False
    """One of a game's tabs (in :data:`KINDS` order)."""
    search: Search = Search.NONE
    """Its role in search."""
    offline: bool = False
    """Saved for offline reading by the service worker (``engine/offline.py``)."""
    sitemap: bool = False
    """Listed in ``sitemap.xml`` (MkDocs lists every page it renders from Markdown)."""
    root_only: bool = False
    """Published only with the root language's site (the JSON export: its texts hold every
    language)."""
    exists: Callable[[Game], bool] | None = None
    """For a game kind: whether ``game`` has one (None: every game has)."""
    inputs: tuple[Input, ...] = ()
    """What it is built from."""
    doc: str = ""
    """What it is, for readers of this list."""
    _patterns: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        path = self.source if self.source is not None else self.output
        if path is None:
            raise ValueError(f"page kind {self.name!r} has neither a source nor an output")
        if self.nav and not self.nav_title:
            raise ValueError(f"page kind {self.name!r} is in the navigation without a nav_title")
        # Both URL forms: with directory URLs (games/x/rules/) and without (games/x/rules.html).
        urls = dict.fromkeys([_url(path, True), _url(path, False)])
        object.__setattr__(self, "_patterns", tuple(path_pattern(url) for url in urls))

    @property
    def per_game(self) -> bool:
        return self.scope is Scope.GAME

    def exists_for(self, game: Game) -> bool:
        """Whether ``game`` has a page of this kind."""
        return self.per_game and (self.exists is None or self.exists(game))

    def source_path(self, slug: str = "") -> str:
        """Its source under ``docs/`` (``slug``: the game's, for a game kind)."""
        if self.source is None:
            raise ValueError(f"page kind {self.name!r} has no source: it is written as built")
        return _fill(self.source, slug)

    def url(self, slug: str = "", directory_urls: bool = True) -> str:
        """Its URL relative to a language's root, as MkDocs gives it (``games/x/rules/``, or
        ``games/x/rules.html`` without directory URLs; ``""`` for the home page)."""
        return _fill(_url(self.source or self.output or "", directory_urls), slug)

    def in_game_folder(self, *, source: bool = False, directory_urls: bool = True) -> str:
        """A game kind's URL (``rules/``) or, with ``source``, its source (``rules.md``),
        relative to its game's folder: what a game's pages link each other by."""
        if not self.per_game or self.source is None or not self.source.startswith(GAME_FOLDER):
            raise ValueError(f"page kind {self.name!r} is not in a game's folder")
        path = self.source if source else _url(self.source, directory_urls)
        return path.removeprefix(GAME_FOLDER)

    def site_file(self, slug: str = "", directory_urls: bool = True) -> str:
        """The file it becomes in a language's built site (``games/x/rules/index.html``)."""
        path = _fill(self.source or self.output or "", slug)
        if not path.endswith(".md"):
            return path
        url = _url(path, directory_urls)
        return url + "index.html" if url == "" or url.endswith("/") else url

    def match(self, url: str) -> str | None:
        """The slug (``""`` for a site kind) when ``url`` is this kind's, else None."""
        for pattern in self._patterns:
            found = pattern.fullmatch(url)
            if found is not None:
                return found.groupdict().get("slug") or ""
        return None


def _url(path: str, directory_urls: bool) -> str:
    # As MkDocs maps a Markdown source to its URL; any other file keeps its path.
    if not path.endswith(".md"):
        return path
    stem = path.removesuffix(".md")
    folder, _, name = stem.rpartition("/")
    folder = folder + "/" if folder else ""
    if not directory_urls:
        return f"{stem}.html"
    return folder if name == "index" else f"{stem}/"


def _fill(path: str, slug: str) -> str:
    if SLUG in path and not slug:
        raise ValueError(f"{path}: a game kind's path needs the game's slug")
    return path.replace(SLUG, slug)


def path_pattern(path: str) -> re.Pattern[str]:
    """``path`` as a pattern, its ``{slug}`` matching any slug."""
    return re.compile(re.escape(path).replace(re.escape(SLUG), _SLUG_PATTERN))
