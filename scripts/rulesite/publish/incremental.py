"""An incremental ``rulesite build``: from the build cache, only what the data's changes touch.

After loading (the checks are those of every build), the pages are keyed as the preview keys
them (``render/cache.py``: a game's pages by its file, a page across games by the inputs its kind
declares, all by ``data/site.yaml``, the templates, the day and the site's address); a page whose
key is the cached one is not rendered again. When every game's key changed (the site data, the
templates or the day did), the build is clean instead: it renders in parallel.

Then, as the preview's second phase does (``serve/preview.py``), with the cache's copy of
``content/`` and of each language's site (``publish/build_cache.py``):

1. every file of ``content/`` is compared by digest with the cached one; the manifest is
   deleted, then the changed files are written into the cache (new files, never in place);
2. each language with a changed file is built by MkDocs: dirty, into a fresh folder that holds
   the outputs of its unchanged pages and static files (hard links to the last site) and the
   search pieces and offline lists the plugin completes (``engine/search_pieces.py``,
   ``engine/offline.py``); every other file (the theme's, the search index, the sitemap, the
   offline files) is written anew. A change to its settings, theme or search word list
   (``mkdocs.yml``, ``theme/``, ``search-terms.txt``) builds the language whole;
3. the site and ``content/`` are published as a clean build publishes them (staged, the marker,
   the swap), their files linked from the cache; then the manifest is written.

The site is the one a clean build writes, byte for byte (``tests/test_build_cache.py``).
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

from rulesite.catalog import Catalog
from rulesite.engine.export import ExportCache
from rulesite.engine.offline import LISTS
from rulesite.engine.projects import (
    CONFIG_FILE,
    DOCS_DIR,
    THEME_DIR,
    configured_site_url,
    generated_files,
    site_path,
    theme_files,
)
from rulesite.engine.search_pieces import PIECES
from rulesite.engine.search_words import SYNONYMS_FILE
from rulesite.model import Game
from rulesite.pages import registry
from rulesite.project import Project
from rulesite.publish import site_folder as publish
from rulesite.publish import workers
from rulesite.publish.build_cache import (
    SITES,
    BuildCache,
    Manifest,
    environment,
    link_file,
    link_tree,
    write_new,
)
from rulesite.publish.marker import source_digest_of, write_marker
from rulesite.publish.progress import Progress
from rulesite.publish.static_files import copy_static_files, static_files
from rulesite.render.cache import ContentCache, render_game_pages, render_site_pages

T = TypeVar("T")

GAME_PAGES = "pages"
SITE_PAGE = "site-page"
"""The render cache's kinds of pages (``render/cache.py``)."""


class _Kept(str):
    """A page whose key is the cached one: its Markdown is the cache's."""


KEPT = _Kept("")
"""Stands for a page's Markdown in the cache (compared by identity)."""


class KeyedPages(ContentCache):
    """The render cache of one build, with the keys of the last: a page whose key is unchanged
    is ``KEPT``, not rendered. ``probe``: keys only, nothing rendered."""

    def __init__(self, catalog: Catalog, previous: dict[str, str], probe: bool) -> None:
        super().__init__()
        self.games: dict[str, Game] = {game.slug: game for game in catalog.games}
        self.codes = catalog.site.codes
        self.previous = previous
        self.probe = probe
        self.keys: dict[str, str] = {}
        """Every page's key, as the manifest keeps them (``<kind>:<name>``)."""
        self.made: set[str] = set()

    def get(self, kind: str, name: str, key: str, make: Callable[[], T]) -> T:
        if kind not in (GAME_PAGES, SITE_PAGE):
            return super().get(kind, name, key, make)
        entry = f"{kind}:{name}"
        self.keys[entry] = key
        if self.probe or self.previous.get(entry) == key:
            return self._kept(kind, name)  # type: ignore[return-value]
        self.made.add(entry)
        return make()

    def _kept(self, kind: str, name: str) -> Any:
        if kind == SITE_PAGE:
            return KEPT
        game = self.games[name]
        return {
            f"{lang}/{kind_.source_path(name)}": KEPT
            for lang in self.codes
            for kind_ in registry.game_kinds(game)
        }


def render_keys(project: Project, catalog: Catalog, site_url: str) -> dict[str, str]:
    """Every page's render key (a clean build's, for the manifest)."""
    keyed = KeyedPages(catalog, {}, probe=True)
    render_site_pages(project, catalog, keyed, site_url)
    render_game_pages(project, catalog, keyed, site_url)
    return keyed.keys


@dataclass
class Update:
    """What an incremental build writes and builds."""

    keys: dict[str, str]
    """Every page's render key."""
    digests: dict[str, str]
    """SHA-256 of every file of the new ``content/``."""
    writes: dict[str, bytes] = field(default_factory=dict)
    """The files of ``content/`` whose bytes changed (or are new)."""
    removed: set[str] = field(default_factory=set)
    """The files of ``content/`` that are gone."""
    pages: int = 0
    """Rendered pages of every language (kept or made anew)."""
    games_changed: int = 0
    """Games whose pages were rendered again, added or removed."""
    plans: dict[str, LanguagePlan] = field(default_factory=dict)
    """The languages to build, by code."""


@dataclass(frozen=True)
class LanguagePlan:
    lang: str
    whole: bool
    """Settings, theme or search words changed (or no cached site): a whole build."""
    rebuild: frozenset[str] = frozenset()
    """Paths under ``docs/`` whose outputs are made anew (changed files, and every page of a
    game with a changed page: its pages link to each other's headings)."""


def prepare(
    project: Project,
    catalog: Catalog,
    previous: Manifest,
    site_url: str,
    exports: ExportCache,
) -> Update | None:
    """Render what changed and compare ``content/`` with the cache; None when a clean build
    is the better one (every game's pages changed). Nothing is written."""
    keyed = KeyedPages(catalog, previous.render, probe=True)
    render_game_pages(project, catalog, keyed, site_url)
    games = [entry for entry in keyed.keys if entry.startswith(f"{GAME_PAGES}:")]
    changed = [entry for entry in games if previous.render.get(entry) != keyed.keys[entry]]
    if games and len(changed) == len(games) and len(games) > 1:
        return None
    if previous.environment != environment():
        return None
    keyed.probe = False
    pages: dict[str, str] = {
        **render_site_pages(project, catalog, keyed, site_url),
        **render_game_pages(project, catalog, keyed, site_url),
    }
    files: dict[str, str | bytes] = {}
    theme = theme_files(project)
    for lang in catalog.site.codes:
        files.update({f"{lang}/{THEME_DIR}/{path}": data for path, data in theme.items()})
    files.update(generated_files(project, catalog, exports))
    for relative, text in pages.items():
        lang, _, page = relative.partition("/")
        files[f"{lang}/{DOCS_DIR}/{page}"] = text
    files[".gitignore"] = _gitignore()
    update = _compare(files, previous, keyed.keys)
    if update is None:
        return None
    update.pages = len(pages)
    gone = {e for e in previous.render if e.startswith(f"{GAME_PAGES}:")} - set(games)
    update.games_changed = len(changed) + len(gone)
    update.plans = _plans(catalog.site.codes, update, previous)
    return update


def _gitignore() -> bytes:
    from rulesite.publish.build import CONTENT_GITIGNORE

    return CONTENT_GITIGNORE.encode("utf-8")


def _compare(
    files: dict[str, str | bytes], previous: Manifest, keys: dict[str, str]
) -> Update | None:
    """The new ``content/`` against the cached one; None when a kept page is not in the cache
    (then the cache does not hold what its keys say: build clean)."""
    update = Update(keys, {})
    for relative, data in files.items():
        if data is KEPT:
            digest = previous.content.get(relative)
            if digest is None:
                return None
            update.digests[relative] = digest
            continue
        raw = data.encode("utf-8") if isinstance(data, str) else data
        digest = hashlib.sha256(raw).hexdigest()
        update.digests[relative] = digest
        if previous.content.get(relative) != digest:
            update.writes[relative] = raw
    update.removed = set(previous.content) - set(files)
    return update


def _plans(codes: tuple[str, ...], update: Update, previous: Manifest) -> dict[str, LanguagePlan]:
    touched = set(update.writes) | update.removed
    plans = {}
    for lang in codes:
        mine = {path.removeprefix(f"{lang}/") for path in touched if path.startswith(f"{lang}/")}
        if lang not in previous.languages:
            plans[lang] = LanguagePlan(lang, whole=True)
            continue
        if not mine:
            continue
        docs = f"{DOCS_DIR}/"
        if any(not path.startswith(docs) and path != SYNONYMS_FILE for path in mine):
            plans[lang] = LanguagePlan(lang, whole=True)
            continue
        pages = {path.removeprefix(docs) for path in mine if path.startswith(docs)}
        groups = {_group(page) for page in pages if page.endswith(".md")}
        present = {
            path.removeprefix(f"{lang}/{docs}")
            for path in update.digests
            if path.startswith(f"{lang}/{docs}")
        }
        again = {page for page in present if page.endswith(".md") and _group(page) in groups}
        plans[lang] = LanguagePlan(lang, whole=False, rebuild=frozenset(pages | again))
    return plans


def _group(page: str) -> str:
    """Pages rebuilt together: a game's (its folder), or a page alone."""
    slug = registry.game_slug(page)
    return registry.GAME_FOLDER.format(slug=slug) if slug else page


def write_content(cache: BuildCache, update: Update) -> None:
    """Bring the cache's ``content/`` up to date (the manifest is gone by now)."""
    for relative in sorted(update.removed):
        (cache.content / relative).unlink(missing_ok=True)
    for relative, data in update.writes.items():
        write_new(cache.content / relative, data)


def build_languages(cache: BuildCache, update: Update) -> dict[str, float]:
    """Build each planned language into a fresh folder, then put it in place of its cached
    site; each language's MkDocs time. Raises BuildError with the languages' problems."""
    if not update.plans:
        return {}
    folders = {lang: cache.root / SITES / f".{lang}.next" for lang in update.plans}
    for lang, plan in update.plans.items():
        shutil.rmtree(folders[lang], ignore_errors=True)
        folders[lang].mkdir(parents=True)
        if not plan.whole:
            _link_unchanged(cache, plan, update, folders[lang])
    jobs = [
        (
            lang,
            workers.mkdocs_only,
            (
                str(cache.content / lang / CONFIG_FILE),
                str(folders[lang]),
                True,
                not plan.whole,
                "build",
                True,
            ),
        )
        for lang, plan in update.plans.items()
    ]
    outcomes = workers.run(jobs)
    workers.problems_of(outcomes)
    for lang, folder in folders.items():
        shutil.rmtree(cache.site(lang), ignore_errors=True)
        folder.rename(cache.site(lang))
    return {lang: outcome.seconds for lang, outcome in outcomes.items()}


def _link_unchanged(cache: BuildCache, plan: LanguagePlan, update: Update, folder: Path) -> None:
    """Give a dirty build's folder what it keeps of the last site: the outputs of the pages and
    static files it does not make anew (links), and the files the plugin completes (the
    search pieces, moved; the offline lists, copied: the published site shares their file)."""
    old = cache.site(plan.lang)
    docs = cache.content / plan.lang / DOCS_DIR
    directory_urls = _directory_urls(cache.content / plan.lang / CONFIG_FILE)
    prefix = f"{plan.lang}/{DOCS_DIR}/"
    for relative in update.digests:
        if not relative.startswith(prefix):
            continue
        page = relative.removeprefix(prefix)
        if page in plan.rebuild:
            continue
        output = page_output(page, directory_urls)
        source, kept = docs / page, old / output
        try:
            # MkDocs makes an output older than its source anew (writing into it): never link one.
            if kept.stat().st_mtime_ns < source.stat().st_mtime_ns:
                continue
        except FileNotFoundError:
            continue
        (folder / output).parent.mkdir(parents=True, exist_ok=True)
        link_file(kept, folder / output)
    if (old / PIECES).is_file():
        (old / PIECES).rename(folder / PIECES)
    if (old / LISTS).is_file():
        shutil.copyfile(old / LISTS, folder / LISTS)


def _directory_urls(config_file: Path) -> bool:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    config = yaml.load(config_file.read_bytes(), Loader=loader)
    return not isinstance(config, dict) or config.get("use_directory_urls", True) is not False


def page_output(page: str, use_directory_urls: bool) -> str:
    """Where MkDocs writes ``page`` (a path under ``docs/``), relative to the site."""
    from mkdocs.structure.files import File

    return File(page, None, None, use_directory_urls).dest_uri


def run(
    project: Project,
    catalog: Catalog,
    cache: BuildCache,
    previous: Manifest,
    target: Path,
    shown: Progress,
) -> tuple[int, dict[str, float]] | None:
    """Rebuild from ``cache`` what changed and publish the site into ``target``: the Markdown
    pages of the site and each language's MkDocs time; None (nothing done) when a clean build
    is the better one."""
    update = prepare(project, catalog, previous, configured_site_url(project), cache.exports)
    if update is None:
        return None
    site = catalog.site
    shown.stage(describe(update, len(catalog.games)))
    cache.forget()
    write_content(cache, update)
    cache.write_exports()
    seconds = build_languages(cache, update)
    shown.stage("publishing")
    with publish.staged(project.content_dir, target) as swap:
        assert swap.new_site is not None
        swap.new_content.rmdir()
        link_tree(cache.content, swap.new_content)
        for language in site.languages:
            folder = swap.new_site / site_path(language)
            link_tree(cache.site(language.code), folder, frozenset({PIECES}))
        copy_static_files(project, static_files(project), swap.new_site)
        source = source_digest_of({k: bytes.fromhex(v) for k, v in update.digests.items()})
        write_marker(swap.new_site, site.codes, source)
        swap.publish()
    manifest = Manifest(update.keys, update.digests, languages=list(site.codes))
    manifest.environment = environment()
    cache.keep_manifest(manifest, publish.notice)
    return update.pages, {lang: seconds.get(lang, 0.0) for lang in site.codes}


def describe(update: Update, games: int) -> str:
    """The stage line: how many games changed and what is built."""
    each = [
        f"{plan.lang} {'whole' if plan.whole else _pages(plan)}" for plan in update.plans.values()
    ]
    what = f"rebuilding {', '.join(each)}" if each else "no page changed"
    return f"{update.games_changed:,} of {games:,} games changed; {what}"


def _pages(plan: LanguagePlan) -> str:
    count = sum(page.endswith(".md") for page in plan.rebuild)
    return f"{count} page{'' if count == 1 else 's'}"
