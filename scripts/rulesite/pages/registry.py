"""The page registry: every kind of page or file the site publishes, declared once.

Each :class:`PageKind` says where the kind lives (its source under ``content/<lang>/docs/`` and
its URL in every language), who writes it (a template under ``templates/pages/``, MkDocs' theme
or the engine), its place in the navigation or in a game's tabs, its role in search, whether it
is saved for offline reading and listed in the sitemap, for which games it exists and what it is
built from. :data:`KINDS` holds them in order; every later stage (render and its cache, the
generated MkDocs projects, the search split, the feed, the export, the preview, the tests) looks
kinds up here instead of keeping its own list of page files or URL patterns.

A new page kind is one entry in :data:`KINDS`, its template and its golden files.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rulesite.model import Game, Language
from rulesite.pages import game_pages, indexes

GAME_FOLDER = "games/{slug}/"
"""Where every page of one game lives (under a language's root): the game's own folder, so a
URL names its game and a game's pages can be rebuilt, stored and searched together."""
SLUG = "{slug}"
"""The placeholder a game kind's paths take for the game's slug."""
_SLUG_PATTERN = "(?P<slug>[a-z0-9-]+)"
"""A slug as data/ allows it (lowercase letters, digits, hyphens)."""


class Scope(Enum):
    """How many of a kind there are in one language."""

    SITE = "one per language"
    GAME = "one per game and language (where the game has it)"


class Writer(Enum):
    """What writes a kind's files."""

    TEMPLATE = "its template under templates/pages/, rendered into Markdown by render/"
    MKDOCS = "MkDocs and the theme (templates/theme/)"
    ENGINE = "the engine (engine/), as a static file or after MkDocs"


class Search(Enum):
    """A kind's role in the split search index (``engine/search_split.py``)."""

    SITE = "in the site-level index, whole"
    TITLES = "in the site-level index, its titles only (its text repeats every game's)"
    SHARD = "in its game's shard whole; in the site-level index by titles and search words"
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


GAME = Input("game", doc="one game's data file (and the pictures it shows)")
SITE = Input("site", doc="data/site.yaml: languages, labels, mechanics, topics")
CARDS = Input(
    "cards",
    ("slug", "title", "summary", "card", "scoring"),
    "every game's title, summary, parameter card and whether it has calculators",
)
GLOSSARIES = Input(
    "glossaries", ("slug", "title", "glossary", "rules"), "every game's glossary and rule titles"
)
RULINGS = Input("rulings", ("slug", "title", "faq"), "every game's FAQ rulings")
CHANGES = Input(
    "changes",
    ("slug", "title", "changes", "rules", "faq", "sources"),
    "every game's change log, with the sections, rulings and sources it names",
)
GAMES = Input("games", doc="every game's data file, whole")


def _has_calculators(game: Game) -> bool:
    return bool(game.scoring)


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
    site page, ``(game, lang)`` for a game's."""
    nav: bool = False
    """Listed in the site navigation (in :data:`KINDS` order); a game's pages are not: MkDocs
    puts the whole navigation into every page."""
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
        # Both URL forms: with directory URLs (games/x/rules/) and without (games/x/rules.html).
        urls = dict.fromkeys([_url(path, True), _url(path, False)])
        object.__setattr__(self, "_patterns", tuple(_path_pattern(url) for url in urls))

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


def _path_pattern(path: str) -> re.Pattern[str]:
    """``path`` as a pattern, its ``{slug}`` matching any slug."""
    return re.compile(re.escape(path).replace(re.escape(SLUG), _SLUG_PATTERN))


def _game(name: str, file: str, **declared: Any) -> PageKind:
    """A game page rendered from ``<name>.md.j2`` into ``games/<slug>/<file>``."""
    return PageKind(
        name=name,
        scope=Scope.GAME,
        writer=Writer.TEMPLATE,
        source=GAME_FOLDER + file,
        template=f"{name}.md.j2",
        context=game_pages.context,
        tab=True,
        search=Search.SHARD,
        offline=True,
        sitemap=True,
        inputs=(GAME, SITE),
        **declared,
    )


KINDS: tuple[PageKind, ...] = (
    PageKind(
        name="home",
        scope=Scope.SITE,
        writer=Writer.TEMPLATE,
        source="index.md",
        template="home.md.j2",
        context=indexes.home,
        nav=True,
        search=Search.SITE,
        sitemap=True,
        inputs=(CARDS, SITE),
        doc="the home page: every game with its card's essentials",
    ),
    PageKind(
        name="games",
        scope=Scope.SITE,
        writer=Writer.TEMPLATE,
        source="games/index.md",
        template="games.md.j2",
        context=indexes.games_index,
        nav=True,
        search=Search.SITE,
        sitemap=True,
        inputs=(CARDS, SITE),
        doc="the games index: a table of every game with filters and sorting",
    ),
    PageKind(
        name="glossary",
        scope=Scope.SITE,
        writer=Writer.TEMPLATE,
        source="glossary/index.md",
        template="glossary.md.j2",
        context=indexes.glossary,
        nav=True,
        search=Search.TITLES,
        sitemap=True,
        inputs=(GLOSSARIES, SITE),
        doc="every game's glossary, game by game",
    ),
    PageKind(
        name="topics",
        scope=Scope.SITE,
        writer=Writer.TEMPLATE,
        source="topics/index.md",
        template="topics.md.j2",
        context=indexes.topics,
        nav=True,
        search=Search.SITE,
        sitemap=True,
        inputs=(RULINGS, SITE),
        doc="every ruling across games, by topic",
    ),
    _game("overview", "index.md", doc="a game's overview: card, intro, decisions, changes"),
    _game("rules", "rules.md", doc="a game's rules summary"),
    _game("faq", "faq.md", doc="a game's FAQ rulings"),
    _game(
        "score",
        "score.md",
        exists=_has_calculators,
        doc="a game's scoring calculators (only a game that has some)",
    ),
    PageKind(
        name="offline",
        scope=Scope.SITE,
        writer=Writer.ENGINE,
        source=None,
        output="offline.html",
        offline=True,
        inputs=(SITE,),
        doc="what the service worker shows for a page it has not stored (theme/offline.html)",
    ),
    PageKind(
        name="404",
        scope=Scope.SITE,
        writer=Writer.MKDOCS,
        source=None,
        output="404.html",
        inputs=(SITE,),
        doc="the page a host serves for a missing address (Material's 404.html)",
    ),
    PageKind(
        name="feed",
        scope=Scope.SITE,
        writer=Writer.ENGINE,
        source="feed.xml",
        inputs=(CHANGES, SITE),
        doc="the Atom feed of every game's changes (engine/feed.py)",
    ),
    PageKind(
        name="api-index",
        scope=Scope.SITE,
        writer=Writer.ENGINE,
        source="api/games.json",
        root_only=True,
        inputs=(GAMES, SITE),
        doc="the JSON export's index of games (engine/export.py)",
    ),
    PageKind(
        name="api-game",
        scope=Scope.GAME,
        writer=Writer.ENGINE,
        source="api/games/{slug}.json",
        root_only=True,
        inputs=(GAME, SITE),
        doc="one game's JSON export (engine/export.py)",
    ),
)
"""Every kind, in order: the navigation and a game's tabs follow this order."""

_BY_NAME = {kind.name: kind for kind in KINDS}


def kind(name: str) -> PageKind:
    """The kind called ``name``; KeyError for an unknown one."""
    return _BY_NAME[name]


def rendered_kinds(scope: Scope) -> tuple[PageKind, ...]:
    """The kinds of ``scope`` rendered from a template, in order."""
    return tuple(k for k in KINDS if k.scope is scope and k.template is not None)


def tab_kinds() -> tuple[PageKind, ...]:
    """Every kind of game page that is one of a game's tabs, in tab order."""
    return tuple(k for k in KINDS if k.tab)


def tabs_of(game: Game) -> tuple[PageKind, ...]:
    """The tabs ``game`` has, in order (a score page only when it has calculators)."""
    return tuple(k for k in tab_kinds() if k.exists_for(game))


def game_kinds(game: Game) -> tuple[PageKind, ...]:
    """The pages rendered for ``game``, in order."""
    return tuple(k for k in rendered_kinds(Scope.GAME) if k.exists_for(game))


def nav_sources() -> list[str]:
    """The site navigation: the sources of the kinds it lists, in order."""
    return [k.source_path() for k in KINDS if k.nav]


def not_in_nav() -> str:
    """MkDocs' ``not_in_nav``: every game's pages (linked by their tabs, not the navigation)."""
    return "/" + GAME_FOLDER.replace(SLUG, "*") + "\n"


def language_folder(language: Language) -> str:
    """Where a language is published, relative to the site root: ``""`` or ``"en/"``."""
    return f"{language.prefix}/" if language.prefix else ""


def published_in(kind_: PageKind, language: Language, root: Language) -> bool:
    """Whether ``language``'s site has pages of ``kind_`` (``root``: the site's root language)."""
    return not kind_.root_only or language.code == root.code


_GAME_URL = _path_pattern(GAME_FOLDER)


def game_slug(url: str) -> str | None:
    """The game a URL, index location or source path belongs to (``games/<slug>/...``, from a
    language's root), or None."""
    found = _GAME_URL.match(url)
    return found.group("slug") if found else None


@functools.lru_cache(maxsize=4096)
def kind_of_url(url: str) -> tuple[PageKind, str] | None:
    """The kind of the page at ``url`` (relative to a language's root, either URL form; an
    ``#anchor`` or ``?query`` is ignored) and its game's slug (``""`` for a site kind)."""
    page = url.split("#", 1)[0].split("?", 1)[0]
    for candidate in KINDS:
        slug = candidate.match(page)
        if slug is not None:
            return candidate, slug
    return None


@functools.lru_cache(maxsize=4096)
def kind_of_source(path: str) -> tuple[PageKind, str] | None:
    """The kind of the file at ``path`` under ``docs/`` and its game's slug (``""`` for a site
    kind)."""
    for candidate in KINDS:
        if candidate.source is None:
            continue
        found = _path_pattern(candidate.source).fullmatch(path)
        if found:
            return candidate, found.groupdict().get("slug") or ""
    return None


def is_search_kind(url: str, role: Search) -> bool:
    """Whether the page at ``url`` is of a kind whose search role is ``role``."""
    found = kind_of_url(url)
    return found is not None and found[0].search is role


def offline_kinds() -> tuple[PageKind, ...]:
    """The kinds the service worker saves for offline reading."""
    return tuple(k for k in KINDS if k.offline)


def saved_offline(url: str) -> bool:
    """Whether the page at ``url`` (relative to a language's root) is saved for offline
    reading: a game's pages are, once the reader opens the game."""
    found = kind_of_url(url)
    return found is not None and found[0].offline
