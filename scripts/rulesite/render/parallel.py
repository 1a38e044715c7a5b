"""Many pages to render at once (the preview after an edited template): one process per
language, as ``rulesite build`` renders.

The preview keeps every rendered page in its cache (``render/cache.py``). When most of them are
missing, rendering them one after the other in the preview's process costs the sum of the
languages; here each language renders in a forked process of its own, at once, and sends its
pages back, which go into the cache under the keys ``render_game_pages`` and
``render_site_pages`` look for. Those then find every page and render nothing: what they return,
and so every file the preview writes, is the same as without this step.

Anything that goes wrong here (a template error, a process that dies) leaves the cache as it
was: the ordinary rendering that follows renders the pages and reports the error as it always
does.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import sys
from multiprocessing.connection import Connection

from rulesite.catalog import Catalog
from rulesite.forked import collecting_seldom, die_with_parent
from rulesite.pages import registry
from rulesite.pages.indexes import topic_pages
from rulesite.project import Project
from rulesite.render.cache import (
    GAME_PAGES,
    SITE_PAGE,
    ContentCache,
    InputDigests,
    game_key,
    renderer_for,
)
from rulesite.render.renderer import Renderer

MIN_GAMES = 8
"""Fewer missing games than this render in the preview's own process: starting processes and
sending pages back costs more than a few games take."""


def render_missing_in_parallel(
    project: Project, catalog: Catalog, cache: ContentCache, site_url: str = ""
) -> int:
    """Render the pages ``cache`` lacks, each language in a process of its own, into ``cache``;
    how many games' pages were rendered so (0: too few were missing, or it failed)."""
    langs = list(catalog.site.codes)
    if len(langs) < 2 or not _fork_available():
        return 0
    renderer, common, site_digest = renderer_for(project, catalog, cache, site_url)
    if site_digest is None:
        return 0
    games = {
        game.slug: key
        for game in catalog.games
        if (key := game_key(catalog, game, common)) is not None
        and not cache.has(GAME_PAGES, game.slug, key)
    }
    if len(games) < MIN_GAMES:
        return 0
    site_keys = _site_keys(catalog, cache, common)
    results = _run(renderer, langs, set(games), site_keys)
    if results is None:
        return 0
    for slug, key in games.items():
        pages: dict[str, str] = {}
        for lang in langs:  # in the order render_game_pages gives them
            pages.update(results[lang][0][slug])
        cache.put(GAME_PAGES, slug, key, pages)
    for lang in langs:
        for path, text in results[lang][1].items():
            cache.put(SITE_PAGE, path, site_keys[path], text)
    return len(games)


def _site_keys(catalog: Catalog, cache: ContentCache, common: str) -> dict[str, str]:
    """Every page across games of every language (``<lang>/<source>``) and its cache key, as
    ``render_site_pages`` keys them."""
    inputs = InputDigests(catalog, cache)
    keys: dict[str, str] = {}
    for lang in catalog.site.codes:
        for kind in registry.rendered_kinds(registry.Scope.SITE):
            keys[f"{lang}/{kind.source_path()}"] = f"{inputs.key(kind.inputs)};{common}"
        for kind in registry.topic_kinds():
            key = f"{inputs.key(kind.inputs)};{common}"
            for topic_id in topic_pages(catalog):
                keys[f"{lang}/{kind.source_path(topic_id)}"] = key
    return {path: key for path, key in keys.items() if not cache.has(SITE_PAGE, path, key)}


Rendered = tuple[dict[str, dict[str, str]], dict[str, str]]
"""One language's pages: per game slug its pages, and the pages across games, by path."""


def _run(
    renderer: Renderer, langs: list[str], slugs: set[str], site_keys: dict[str, str]
) -> dict[str, Rendered] | None:
    """Each language's pages, rendered in a forked process; None if any process failed."""
    ctx = multiprocessing.get_context("fork")
    running = []
    gc.freeze()  # the catalog and the compiled templates stay shared with the processes
    try:
        for lang in langs:
            receiver, sender = ctx.Pipe(duplex=False)
            wanted = {path for path in site_keys if path.startswith(f"{lang}/")}
            args = (sender, renderer, lang, slugs, wanted)
            process = ctx.Process(target=_render_language, args=args, daemon=True)
            process.start()
            sender.close()
            running.append((lang, process, receiver))
    finally:
        gc.unfreeze()
    results: dict[str, Rendered] = {}
    try:
        for lang, _, receiver in running:
            with contextlib.suppress(EOFError, OSError):
                message = receiver.recv()
                if isinstance(message, tuple):
                    results[lang] = message
    finally:
        for _, process, receiver in running:
            receiver.close()
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
    return results if len(results) == len(langs) else None


def _render_language(
    sender: Connection, renderer: Renderer, lang: str, slugs: set[str], site_paths: set[str]
) -> None:
    """Child process: render ``lang``'s pages of the games ``slugs`` and the pages across games
    ``site_paths``, and send them; send None if rendering fails (the parent renders again)."""
    die_with_parent()
    try:
        with collecting_seldom():  # this process renders, then ends
            games = {
                game.slug: renderer.game_pages(game, lang)
                for game in renderer.catalog.games
                if game.slug in slugs
            }
            site: dict[str, str] = {}
            for kind in registry.rendered_kinds(registry.Scope.SITE):
                if (path := f"{lang}/{kind.source_path()}") in site_paths:
                    site[path] = renderer.site_page(kind, lang)
            for kind in registry.topic_kinds():
                for topic_id in topic_pages(renderer.catalog):
                    if (path := f"{lang}/{kind.source_path(topic_id)}") in site_paths:
                        site[path] = renderer.topic_page(kind, topic_id, lang)
        sender.send((games, site))
    except Exception:  # reported by the ordinary rendering that follows
        with contextlib.suppress(OSError):
            sender.send(None)
    finally:
        sender.close()


def _fork_available() -> bool:
    return sys.platform != "win32" and "fork" in multiprocessing.get_all_start_methods()
