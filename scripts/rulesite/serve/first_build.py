"""The preview's first build: ``rulesite build``'s own pipeline, then the preview's state read
back from what it wrote.

Every page is missing at the start, so the preview's own way (render every page in this process
or two forked ones, send them back, write the projects, then start MkDocs) is the slow one: at
1,000 games it started MkDocs 35 s in and was up after a clean build's time. A clean build's
pipeline (``publish.build.render_and_build``) renders each language inside its MkDocs process,
shares the Chinese game pages with the English process and starts each MkDocs as soon as its
pages are written. Afterwards the preview needs what its edits start from:

- the render cache (``render/cache.py``) with every page, under the key the preview's rendering
  looks for: the build's rest-writer computes every page's key anyway for the build cache
  (``incremental.render_keys``, the same keys), and the pages' text is read back from
  ``content/`` (while MkDocs builds: a thread started once every language builds, as the
  clean build digests ``content/``);
- the SHA-256 of every file of ``content/``, and each game's export records;
- each language's site with its search pieces (built with them kept, as for the build cache),
  which the preview's dirty builds complete their search index from.

Like a clean build, it forks each language's MkDocs process (``publish/builders.py``) before
the catalog is loaded, while the heap is small: a language process that rendered its pages
and then built them would carry the catalog through MkDocs (at 1,000 games the preview's
Chinese build took 139.8 s against the clean build's 119.2 s, and the preview started after
161.7 s against a clean build's 138.1 s).

The first edit then finds everything cached (``tests/test_serve.py`` rebuilds after the first
build and expects "no page changed"), and the site is byte for byte a build's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulesite.catalog import Catalog, load_catalog
from rulesite.engine.export import ExportCache
from rulesite.engine.projects import DOCS_DIR, configured_site_url
from rulesite.project import Project
from rulesite.publish import builders as builders_
from rulesite.publish import workers
from rulesite.publish.build import game_file_count, load_shared_tables, render_and_build
from rulesite.publish.check_cache import CheckCache
from rulesite.publish.early import Early
from rulesite.publish.incremental import GAME_PAGES, SITE_PAGE
from rulesite.publish.progress import Progress
from rulesite.render.cache import ContentCache, game_page_paths, renderer_for


@dataclass
class FirstBuild:
    """What the first build left for the preview's edits."""

    written: dict[str, str]
    """Every file of each language's project under ``content/`` and the SHA-256 of its bytes."""
    files: dict[str, str | bytes]
    """Every such file, by the same path: a page as its text (the very string the cache
    holds), any other file as its bytes."""
    exports: ExportCache
    """Each game's JSON export records."""
    seconds: dict[str, float]
    """Each language's MkDocs time."""
    page_count: int
    """Markdown pages of every language."""


def check_and_build(
    project: Project,
    cache: ContentCache,
    content: Path,
    builds: Path,
    shown: Progress,
    say: Callable[[str], None],
) -> tuple[Catalog, FirstBuild]:
    """Load and check the catalog, then build it whole (``build_whole``), each language by a
    builder forked first (``publish/builders.py``); ``say`` tells the stages. Raises DataError
    for invalid data and BuildError as a build does."""
    say("rulesite: checking data/…")
    builders = builders_.early(project, None, game_file_count(project))
    try:
        load_shared_tables(project, jieba=not builders)  # before the catalog, as a build does
        # The checked games the project's last build kept (``publish/check_cache.py``): after
        # `rulesite build` the game files need not be checked again (at 1,000 games, 11.8 s of
        # a start of 161 s); what changed since is checked and kept.
        catalog = load_catalog(project, cache=cache, stored=CheckCache(project, say))
        cache.retain("checked", (doc.file for doc in catalog.documents.values()))
        say(f"rulesite: {len(catalog.games)} games valid")
        return catalog, build_whole(project, catalog, cache, content, builds, shown, builders)
    finally:
        for builder in builders.values():
            builder.stop()


def build_whole(
    project: Project,
    catalog: Catalog,
    cache: ContentCache,
    content: Path,
    builds: Path,
    shown: Progress,
    builders: dict[str, builders_.Builder] | None = None,
) -> FirstBuild:
    """Write ``content/<lang>/`` and build each language into ``builds/<lang>`` as a build does
    (never strict, like every preview build; a language of ``builders`` by its builder), then
    fill ``cache`` with every page; raises BuildError as a build does."""
    keys: dict[str, str] = {}
    exports: ExportCache = {}
    reader = Early(lambda: _read_content(content, catalog.site.codes), "content-read")
    outcomes = render_and_build(
        project,
        workers.Held(catalog),
        content,
        builds,
        None,
        False,
        shown,
        pieces=True,
        keys=keys,
        exports=exports,
        early=reader,
        builders=builders,
    )
    shown.done()
    written, files = reader.result()
    pages = _fill(cache, catalog, keys, files)
    return FirstBuild(
        written,
        {**files, **pages},
        exports,
        {lang: outcome.seconds for lang, outcome in outcomes.items()},
        sum(outcome.pages for outcome in outcomes.values()),
    )


def _fill(
    cache: ContentCache, catalog: Catalog, keys: dict[str, str], files: dict[str, bytes]
) -> dict[str, str]:
    """Put every page the build wrote (in ``files``, by path under ``content/``) into
    ``cache`` under its render key (``keys``: the manifest's ``<kind>:<name>``), as
    ``render_game_pages`` and ``render_site_pages`` keep them: a game's pages of every language
    together, a page across games alone; the pages put, by path under ``content/``. A page
    missing from ``content/`` leaves its entry out (the first edit renders it)."""
    games = {game.slug: game for game in catalog.games}
    put: dict[str, str] = {}

    def under_content(path: str) -> str:
        """``<lang>/<source>`` as its path under ``content/``."""
        lang, _, page = path.partition("/")
        return f"{lang}/{DOCS_DIR}/{page}"

    def text(path: str) -> str | None:
        raw = files.get(under_content(path))
        return None if raw is None else raw.decode("utf-8")

    for entry, key in keys.items():
        kind, _, name = entry.partition(":")
        if kind == SITE_PAGE:
            if (found := text(name)) is not None:
                cache.put(SITE_PAGE, name, key, found)
                put[under_content(name)] = found
        elif kind == GAME_PAGES and name in games:
            texts = {path: text(path) for path in game_page_paths(catalog.site.codes, games[name])}
            if all(found is not None for found in texts.values()):
                cache.put(GAME_PAGES, name, key, texts)
                put.update((under_content(path), found) for path, found in texts.items())
    return put


def compile_templates(project: Project, catalog: Catalog, cache: ContentCache) -> None:
    """Compile every page template in this process now: the first build rendered in forked
    processes, so the first edit would compile them before its game's pages show (a second at
    1,000 games; the next edits find them compiled). ``cache``'s environment loads the
    compiled code the project's builds keep, where it is still that of the templates (the
    preview's cache: ``Preview``): the real project's 26 templates took 0.30 CPU s to compile
    and 0.01 s to load so."""
    renderer, _, _ = renderer_for(project, catalog, cache, configured_site_url(project))
    for name in renderer.env.list_templates(extensions=["j2"]):
        renderer.env.get_template(name)


def _read_content(
    content: Path, langs: tuple[str, ...] | list[str]
) -> tuple[dict[str, str], dict[str, bytes]]:
    """The SHA-256 and the bytes of every file under ``content/<lang>/``, by path under
    ``content/``."""
    written: dict[str, str] = {}
    files: dict[str, bytes] = {}
    for lang in langs:
        for path in sorted((content / lang).rglob("*")):
            if not path.is_file():
                continue
            relative = path.relative_to(content).as_posix()
            raw = path.read_bytes()
            written[relative] = hashlib.sha256(raw).hexdigest()
            files[relative] = raw
    return written, files
