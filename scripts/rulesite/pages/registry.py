"""The page registry: every kind of page or file the site publishes, declared once.

Each :class:`PageKind` says where the kind lives (its source under ``content/<lang>/docs/`` and
its URL in every language), who writes it (a template under ``templates/pages/``, MkDocs' theme
or the engine), its place in the navigation or in a game's tabs, its role in search, whether it
is saved for offline reading and listed in the sitemap, for which games it exists and what it is
built from. :data:`KINDS` holds them in order; every later stage (render and its cache, the
generated MkDocs projects, the search split, the feed, the export, the preview, the tests) looks
kinds up here instead of keeping its own list of page files or URL patterns.

A new page kind is one entry in :data:`KINDS`, its template and its golden files (and, when its
template needs more than every page is given, a function in ``pages/`` that gives it).
What a kind is (its paths and URL forms) is ``kind.py``; what each template is given is
``indexes.py`` (pages across games) and ``game_pages.py`` (a game's pages).
"""

from __future__ import annotations

import functools
import posixpath
from typing import Any

from rulesite.model import Game, Language
from rulesite.pages import game_pages, indexes
from rulesite.pages.kind import (
    GAME_FOLDER,
    SLUG,
    Input,
    PageKind,
    Scope,
    Search,
    Writer,
    path_pattern,
)

__all__ = ["GAME_FOLDER", "SLUG", "Input", "PageKind", "Scope", "Search", "Writer"]

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


def _has_glossary(game: Game) -> bool:
    return bool(game.glossary)


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


def _site(
    name: str, source: str, nav_title: str, search: Search = Search.SITE, **declared: Any
) -> PageKind:
    """A page of the site navigation rendered from ``<name>.md.j2`` into ``source``, titled by
    the label ``nav_title``, saved for offline reading and listed in the sitemap; searched as the
    chunked index unless ``search`` says otherwise."""
    return PageKind(
        name=name,
        scope=Scope.SITE,
        writer=Writer.TEMPLATE,
        source=source,
        template=f"{name}.md.j2",
        nav=True,
        nav_title=nav_title,
        search=search,
        offline=True,
        sitemap=True,
        **declared,
    )


KINDS: tuple[PageKind, ...] = (
    _site(
        "home",
        "index.md",
        "page_home",
        context=indexes.home,
        inputs=(CARDS, SITE),
        doc="the home page: every game with its card's essentials",
    ),
    _site(
        "games",
        "games/index.md",
        "page_games",
        context=indexes.games_index,
        inputs=(CARDS, SITE),
        doc="the games index: a table of every game with filters and sorting",
    ),
    PageKind(
        name="games-rows",
        scope=Scope.SITE,
        writer=Writer.TEMPLATE,
        source="games/rows.json",
        template="games_rows.json.j2",
        context=indexes.games_rows,
        inputs=(CARDS, SITE),
        doc="what the games index's script builds each row from, beyond indexes.TABLE_ROWS games",
    ),
    _site(
        "glossary",
        "glossary/index.md",
        "page_glossary",
        search=Search.TITLES,
        context=indexes.glossary,
        inputs=(GLOSSARIES, SITE),
        doc="the glossary's index: every game that has terms, linking to its glossary page",
    ),
    _site(
        "topics",
        "topics/index.md",
        "page_topics",
        context=indexes.topics,
        inputs=(RULINGS, SITE),
        doc="the topic index: every topic that tags a ruling, linking to its page",
    ),
    PageKind(
        name="glossary-game",
        scope=Scope.GAME,
        writer=Writer.TEMPLATE,
        source="glossary/{slug}.md",
        template="glossary_game.md.j2",
        context=game_pages.context,
        # Titles only: each term is in the game's shard already (the rules page's glossary),
        # so a second copy would list every term twice.
        search=Search.TITLES,
        # Saved with the game's pages once the reader opens the game (engine/offline.py).
        offline=True,
        sitemap=True,
        exists=_has_glossary,
        inputs=(GAME, SITE),
        doc="one game's glossary: its terms, with a jump list (only a game that has terms)",
    ),
    PageKind(
        name="topic",
        scope=Scope.TOPIC,
        writer=Writer.TEMPLATE,
        source="topics/{slug}.md",
        template="topic.md.j2",
        context=indexes.topic,
        # Not searched (its front matter excludes it): its text is every game's FAQ questions,
        # each a result of its own, and its title ("Player count: every ruling") would come
        # before the rulings for any query naming the topic. The topic index is searched.
        search=Search.NONE,
        sitemap=True,
        inputs=(RULINGS, SITE),
        doc="one topic's rulings across games, game by game (only a topic that tags some)",
    ),
    _site(
        "history",
        "history/index.md",
        "history_title",
        context=indexes.history,
        # MkDocs indexes and maps every page it renders from Markdown: only its title and lead
        # are text here (the plays are read by a script), which is what search finds.
        search=Search.SITE,
        inputs=(CARDS, SITE),
        doc="game nights saved on this device (a script reads them): plays, wins, best scores",
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


def redirects(game: Game, directory_urls: bool = True) -> list[tuple[str, str]]:
    """The old pages of a renamed game: (the file an earlier slug's page was, under a
    language's root; where it points now, relative to that file's folder), one per tab the
    game has, for each of its ``aliases``."""
    found = []
    for alias in game.aliases:
        for tab in tabs_of(game):
            old = tab.site_file(alias, directory_urls)
            new = tab.url(game.slug, directory_urls)
            folder = posixpath.dirname(old) or "."
            target = posixpath.relpath(new or ".", folder)
            # A folder URL keeps its slash; the current page of a file URL is its file.
            found.append((old, target + "/" if new.endswith("/") else target))
    return found


def nav_sources() -> list[str]:
    """The site navigation: the sources of the kinds it lists, in order."""
    return [k.source_path() for k in nav_kinds()]


def nav_kinds() -> tuple[PageKind, ...]:
    """The kinds the site navigation lists, in order (each with its ``nav_title``)."""
    return tuple(k for k in KINDS if k.nav)


def not_in_nav() -> str:
    """MkDocs' ``not_in_nav``: every game's pages (linked by their tabs, not the navigation),
    and the pages of each game's glossary and each topic (linked from their index pages)."""
    folders = [GAME_FOLDER.replace(SLUG, "*")]
    for kind_ in KINDS:
        markdown = (kind_.source or "").endswith(".md")
        if kind_.scope is not Scope.SITE and markdown and not kind_.nav:
            pattern = kind_.source.replace(SLUG, "*")
            if not any(pattern.startswith(folder) for folder in folders):
                folders.append(pattern)
    return "".join(f"/{folder}\n" for folder in folders)


def topic_kinds() -> tuple[PageKind, ...]:
    """The kinds rendered once per topic that tags some ruling."""
    return rendered_kinds(Scope.TOPIC)


def language_folder(language: Language) -> str:
    """Where a language is published, relative to the site root: ``""`` or ``"en/"``."""
    return f"{language.prefix}/" if language.prefix else ""


def published_in(kind_: PageKind, language: Language, root: Language) -> bool:
    """Whether ``language``'s site has pages of ``kind_`` (``root``: the site's root language)."""
    return not kind_.root_only or language.code == root.code


_GAME_URL = path_pattern(GAME_FOLDER)


def game_slug(url: str) -> str | None:
    """The game a URL, index location or source path belongs to (``games/<slug>/...``, from a
    language's root), or None."""
    found = _GAME_URL.match(url)
    return found.group("slug") if found else None


def kind_of_url(url: str) -> tuple[PageKind, str] | None:
    """The kind of the page at ``url`` (relative to a language's root, either URL form; an
    ``#anchor`` or ``?query`` is ignored) and its game's slug (``""`` for a site kind)."""
    return _kind_of_page(url.split("#", 1)[0].split("?", 1)[0])


@functools.lru_cache(maxsize=16384)
def _kind_of_page(page: str) -> tuple[PageKind, str] | None:
    # Cached by page, not by location: a search index has a location per section.
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
        found = path_pattern(candidate.source).fullmatch(path)
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
    reading: the site-wide pages with the first visit, a game's pages once the reader saves
    the game."""
    found = kind_of_url(url)
    return found is not None and found[0].offline
