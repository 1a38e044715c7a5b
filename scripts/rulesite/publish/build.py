"""Stage 4: gather everything, then write: content/ and site/ change only when all succeeded.

Order: refuse a site folder that would hide or replace the user's files → take the project's
build lock → finish or clear what earlier builds left → load + validate every file → render every
page (in memory) → write one MkDocs project per language into a scratch ``content/``
(``engine/projects.py``) → build the languages in parallel processes, each into a folder beside
the site folder → assemble them (the first language at the root, the others under their prefix)
→ swap site and content into place (``publish/site_folder.py``). A failure at any step leaves
the previous ``content/`` and ``site/`` exactly as they were.
"""

from __future__ import annotations

import dataclasses
import gc
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesite import collate, forked
from rulesite.catalog import Catalog, load_catalog, load_site
from rulesite.engine import bytecode, search_terms
from rulesite.engine.export import ExportCache
from rulesite.engine.projects import (
    LanguageProject,
    configured_site_url,
    language_projects,
    write_projects,
)
from rulesite.engine.search_terms import use_cache_root
from rulesite.errors import RulesiteError
from rulesite.model import Language
from rulesite.project import Project
from rulesite.publish import builders as builders_
from rulesite.publish import incremental, workers
from rulesite.publish import site_folder as publish
from rulesite.publish.assemble import assemble, assemble_languages, check_language_codes, writing
from rulesite.publish.build_cache import BuildCache, Manifest, environment
from rulesite.publish.check_cache import CheckCache
from rulesite.publish.early import Early
from rulesite.publish.incremental import CONTENT_GITIGNORE
from rulesite.publish.marker import file_digests, source_digest, source_digest_of, write_marker
from rulesite.publish.mkdocs_run import DIRTY_BUILD_NOTICE, run_mkdocs
from rulesite.publish.preview_build import PreviewBuild, build_previews
from rulesite.publish.progress import LanguageCounts, Progress, Silent
from rulesite.publish.static_files import copy_static_files, static_files

__all__ = [
    "DIRTY_BUILD_NOTICE",
    "BuildReport",
    "PreviewBuild",
    "assemble",
    "build",
    "build_previews",
    "run_mkdocs",
]

_LANGUAGE_BUILDS = ".rulesite-languages"
"""Folder inside the staged site where each language is built before the site is assembled."""


@dataclass(frozen=True)
class BuildReport:
    """What a build produced."""

    pages: int
    """Markdown pages of the languages built (all, or those of ``--language``)."""
    games: int
    """Games in the catalog."""
    seconds: float
    """Wall time of the whole build."""
    site_dir: Path
    """Where the site was written."""
    language_seconds: dict[str, float]
    """Wall time of each language's MkDocs build (they run in parallel)."""
    memory_kb: dict[str, int] = field(default_factory=dict)
    """Peak resident memory (``ru_maxrss``, KB) of the build's process (``""``) and of each
    language's processes (the one that renders it and its builder, summed): summed, an upper
    bound of the build's peak (forks share pages)."""


def build(
    project: Project,
    site_dir: Path | None = None,
    strict: bool = True,
    languages: tuple[str, ...] | None = None,
    progress: Progress | None = None,
    clean: bool = False,
) -> BuildReport:
    """Validate, render and build the site; replace ``site_dir`` only on success.

    With every language (``languages`` None: those of ``data/site.yaml``), the site is whole:
    the first language at its root, the others under their prefix. With one language, the
    site folder holds that language's site alone, ready for ``rulesite assemble``. ``progress``
    shows the stages and counts (the CLI's: on standard error). A whole, strict build keeps a
    cache (``publish/build_cache.py``) and rebuilds from it only what changed
    (``publish/incremental.py``); ``clean`` ignores and empties it. Raises UsageError when the
    site folder is unsafe, a language is unknown or another build is running, DataError for
    invalid data, BuildError when rendering, MkDocs or writing fails.
    """
    started = time.perf_counter()
    shown = progress or Silent()
    if languages is not None:
        check_language_codes(languages, load_site(project))
    target = (site_dir or project.site_dir).resolve()
    publish.check_site_location(project, target)
    with publish.lock(project.root):
        # Before gathering: a swap a kill interrupted is finished even if this build fails.
        publish.recover(project, target)
        publish.check_replaceable(project, target)
        cache = BuildCache(project) if strict and languages is None else None
        previous = cache.open(clean, publish.notice) if cache is not None else None
        count = game_file_count(project)
        shown.stage(f"checking {count:,} game{'' if count == 1 else 's'}")
        # Held in a list so a clean build can take the only reference (see _records_only).
        stored = CheckCache(project, publish.notice, clean) if cache is not None else None
        # jieba's word-table cache lives in the project (engine/search_terms.py), never in
        # /tmp: for jieba loaded here and in every process this one forks.
        use_cache_root(project.root / ".cache")
        # A build that will be clean starts its MkDocs processes now, and so does one from the
        # cache (publish/builders.py): each language's, which it may not need.
        if previous is None:
            builders = builders_.early(project, languages, count)
        else:
            sites = {lang: cache.site(lang) for lang in previous.languages}
            builders = builders_.for_dirty_builds(project, sites)
        try:
            load_shared_tables(project, jieba=not builders)
            loaded = [load_catalog(project, stored=stored)]
            if cache is not None and previous is not None:
                report = _incremental(
                    project, loaded[0], cache, previous, target, shown, started, builders
                )
                if report is not None:
                    return report
                for builder in builders.values():  # the clean build's languages fork anew
                    builder.stop()
                builders = {}
            # Handed over, never named here: this frame must not keep the catalog alive.
            return _clean(
                project, loaded.pop(), cache, target, strict, languages, shown, started, builders
            )
        except BaseException:
            if cache is not None and cache.touched:
                cache.remove()  # a failed build's cache is not one to trust
            raise
        finally:
            for builder in builders.values():
                builder.stop()


def _clean(
    project: Project,
    catalog: Catalog,
    cache: BuildCache | None,
    target: Path,
    strict: bool,
    languages: tuple[str, ...] | None,
    shown: Progress,
    started: float,
    builders: dict[str, builders_.Builder] | None = None,
) -> BuildReport:
    """A whole build (keeping a cache for the next one, with ``cache``); ``builders`` build
    their languages (``publish/builders.py``)."""
    if cache is not None:
        cache.empty()
    held = workers.Held(_records_only(catalog))
    del catalog
    site, games = held.loaded.site, len(held.loaded.games)
    extra = static_files(project)
    keys: dict[str, str] = {}
    # The trees the swap replaces (the previous site and content/) go to the cache's trash,
    # removed by a process of their own, as after an incremental build: at 1,000 games that is
    # over 20,000 files the build need not wait for.
    trash = cache.trash if cache is not None else None
    with writing(project, target), publish.staged(project.content_dir, target, trash) as swap:
        builds = swap.new_site / _LANGUAGE_BUILDS
        early = (
            Early(lambda: _content_done(swap.new_content, cache), "content-done")
            if cache is not None
            else None
        )
        outcomes = render_and_build(
            project,
            held,
            swap.new_content,
            builds,
            languages,
            strict,
            shown,
            pieces=cache is not None,
            keys=keys if cache is not None else None,
            exports=cache.exports if cache is not None else None,
            early=early,
            builders=builders,
        )
        chosen = [lang for lang in site.codes if languages is None or lang in languages]
        shown.stage("publishing")
        if cache is not None and early is not None:  # early exists with the cache
            digests = early.result()
            source = source_digest_of(digests)
            cache.keep_sites({lang: builds / lang for lang in chosen})
        else:
            source = source_digest(swap.new_content)
        assemble_languages(
            {lang: builds / lang for lang in chosen},
            swap.new_site,
            site,
            whole=len(chosen) > 1,
        )
        builds.rmdir()
        # The publisher's own files belong at the root of the site, so with the root
        # language (a whole build, or its part for `assemble`).
        if site.root_language.code in chosen:
            copy_static_files(project, extra, swap.new_site)
        # The marker says what this folder is: its languages, what they were built from
        # (the generated projects of every language: parts of one build agree) and its files.
        write_marker(swap.new_site, tuple(chosen), source)
        # content/ holds nothing but generated files, so it is replaced as one folder:
        # readers of content/ (a person, a preview) never see one language new, one old;
        # and it is swapped with site/, so the two always come from one build.
        swap.publish()
    if cache is not None:
        content = {name: digest.hex() for name, digest in digests.items()}
        manifest = Manifest(keys, content, languages=list(chosen), environment=environment())
        cache.keep_manifest(manifest, publish.notice)
    shown.done()
    # The pages of the languages built (content/ holds every language's).
    built = sum(outcomes[lang].pages for lang in chosen)
    seconds = {lang: outcomes[lang].seconds for lang in chosen}
    memory = {"": workers.peak_kb(), **{lang: o.peak_kb for lang, o in outcomes.items()}}
    return BuildReport(built, games, time.perf_counter() - started, target, seconds, memory)


def _incremental(
    project: Project,
    catalog: Catalog,
    cache: BuildCache,
    previous: Manifest,
    target: Path,
    shown: Progress,
    started: float,
    ready: dict[str, builders_.Builder],
) -> BuildReport | None:
    """Rebuild from the cache what changed (each language in its builder of ``ready``, if
    any); None when a clean build is the better one."""
    bytecode.use(project.root / ".cache")
    # The catalog lives as long as the build: no collection walks it. Rendering and the
    # search words set off full collections over it (two, 1.3 s at 300 games, before the
    # languages could start building); what it frees goes as its count drops.
    gc.freeze()
    try:
        with writing(project, target):
            done = incremental.run(project, catalog, cache, previous, target, shown, ready)
    finally:
        gc.unfreeze()
    if done is None:
        return None
    shown.done()
    games, spent = len(catalog.games), time.perf_counter() - started
    return BuildReport(done[0], games, spent, target, done[1], {"": workers.peak_kb()})


def render_and_build(
    project: Project,
    held: workers.Held,
    content: Path,
    builds: Path,
    languages: tuple[str, ...] | None,
    strict: bool,
    shown: Progress,
    *,
    pieces: bool = False,
    keys: dict[str, str] | None = None,
    exports: ExportCache | None = None,
    early: Early[Any] | None = None,
    builders: dict[str, builders_.Builder] | None = None,
) -> dict[str, workers.Outcome]:
    """Write ``content`` and build each chosen language into ``builds/<lang>``.

    A process per language renders its pages into its project and then builds it
    (``publish/workers.py``); meanwhile one more process writes the rest of every project
    (``_write_rest``). Every language's pages are rendered (``content/`` is whole); only the
    chosen ones are built. One language too builds in a process of its own: a build adds its
    search terms to jieba's word table (``engine/search_terms.py``), which must not stay in this
    process. Once those processes started, this process lets go of the catalog (``held``): they
    have their own copy, and it is a third of the build's memory while they build. For builds
    that follow (the build cache's, the preview's): with ``pieces`` the languages keep their
    search pieces, ``keys`` receives every page's render key (``publish/incremental.py``) and
    ``exports`` the exported files. ``early`` starts once every language builds: ``content/``
    is then finished. A language with one of ``builders`` is built by it, not by the process
    that renders it.
    """
    builders = builders or {}
    site = held.loaded.site
    builds.mkdir(parents=True, exist_ok=True)
    bytecode.use(project.root / ".cache")
    site_url = configured_site_url(project)
    gate = forked.context().Event()
    projects = language_projects(content, site)
    # Languages whose builders start while their pages render (engine/arriving.py).
    arriving = {
        language.lang
        for language in projects
        if language.lang in builders
        and builders[language.lang].arrivals is not None
        and (languages is None or language.lang in languages)
        and held.loaded.games
    }
    # Pages that arrive as their builders build need no share: each builder starts at once.
    given, helps = _shares(projects) if not arriving else ({}, {})
    jobs = []
    for language in projects:
        built = languages is None or language.lang in languages
        builder = builders.get(language.lang)
        job = workers.RenderJob(
            project,
            held,
            site_url,
            language.lang,
            language.root,
            builds / language.lang if built else None,
            strict,
            gate,
            pieces=pieces,
            given=given.get(language.lang),
            helps=helps.get(language.lang, ()),
            builder=builder.settings if builder is not None else None,
            arriving=language.lang in arriving,
            arrivals=builder.arrivals if builder is not None else None,
            segment_ahead=language.language.search.jieba,
        )
        jobs.append((language.lang, workers.render_and_build, (job,)))
    langs = [lang for lang, _, _ in jobs]
    listener = LanguageCounts(shown, langs, early.start if early else None, arriving)
    shown.stage(f"rendering {', '.join(lang for lang, _, _ in jobs)}")
    rest = lambda: _write_rest(project, content, held, gate, site_url, keys, exports)  # noqa: E731

    def stopped() -> None:
        """A process that stops leaves no share unfinished that another waits for."""
        for share in given.values():
            share.done.set()

    try:
        outcomes = workers.run(
            jobs,
            listener,
            meanwhile=rest,
            stopped=stopped,
            builders=builders,
            rendered=listener.rendered,
        )
    finally:
        if early is not None:
            early.join()  # never left reading content/ while a failed build removes it
    workers.problems_of(outcomes)
    return outcomes


def _giving(languages: Sequence[Language]) -> list[Language]:
    """The languages whose game pages two processes render (``workers.Share``): each whose
    search splits words with jieba (its MkDocs build the longest), when a language that does
    not is there to help."""
    heavy = [language for language in languages if language.search.jieba]
    return heavy if len(heavy) < len(languages) else []


def load_shared_tables(project: Project, jieba: bool = True) -> None:
    """Load the tables the language processes share before the catalog: jieba's word table
    (when a language's search splits words with jieba) and what sorting a shared language's
    glossaries needs (``collate.load_readings``). Each process forked from this one then has
    them without loading them itself, and they lie in memory of their own: loaded after the
    catalog, such tables (pypinyin's 190,000 phrase lists, jieba's 350,000 words) fill the
    holes the checks left between the catalog's objects, and keep those blocks of memory this
    process's after it let go of the catalog (``_write_rest``). An invalid ``site.yaml`` loads
    nothing here: the catalog's load reports it with every other problem. Without ``jieba``
    (a build whose builders load it, ``publish/builders.py``), pypinyin's alone."""
    try:
        site = load_site(project)
    except RulesiteError:
        return
    if jieba and any(language.search.jieba for language in site.languages):
        # Once here instead of once in every language's process: the same wall time (those
        # loaded theirs side by side) for half the CPU; a process that builds many times (the
        # preview, the tests) loads it once.
        search_terms.warm_up()
    for language in _giving(site.languages):
        collate.load_readings(language.code)


def _shares(
    projects: list[LanguageProject],
) -> tuple[dict[str, workers.Share], dict[str, tuple[workers.Share, ...]]]:
    """Which processes render part of another language's game pages (``workers.Share``):
    each language of ``_giving`` shares its games with a language that does not, in turn. The
    shares given and helped with, by language."""
    heavy = {language.code for language in _giving([p.language for p in projects])}
    light = [p for p in projects if p.lang not in heavy]
    given: dict[str, workers.Share] = {}
    helps: dict[str, tuple[workers.Share, ...]] = {}
    if not heavy:
        return given, helps
    ctx = forked.context()
    for index, owner in enumerate(p for p in projects if p.lang in heavy):
        helper = light[index % len(light)].lang
        share = workers.Share(
            owner.lang,
            owner.root,
            ctx.Value("i", 0),
            ctx.RawValue("i", -1),
            ctx.Event(),
        )
        given[owner.lang] = share
        helps[helper] = (*helps.get(helper, ()), share)
    return given, helps


def _records_only(catalog: Catalog) -> Catalog:
    """The catalog without its documents: the line of every key, kept for messages, is no
    longer needed once the checks passed (at 1,000 games it is a third of the catalog's memory,
    which every language process would inherit).

    The documents hold no reference cycles, so they are freed the moment the last reference
    goes (the caller holds none): before the fork, and without a collector pass over the whole
    catalog (``gc.collect()`` here cost over a second at 1,000 games and found only a little
    garbage of the checks)."""
    return dataclasses.replace(catalog, documents={})


def _write_rest(
    project: Project,
    content: Path,
    held: workers.Held,
    gate: Any,
    site_url: str,
    keys: dict[str, str] | None,
    exports: ExportCache | None,
) -> None:
    """While the languages render: write the rest of their projects, then let them build;
    then (``keys``) key every page for the build cache (``exports`` receives the exported
    files for it too).

    This is done by a process of its own, and this process lets go of the catalog as soon as
    that one started: every long-lived object this process made after loading the catalog
    (the written pages' keys, the exports, imports made on the way) would land in the holes
    the checks left between the catalog's objects and keep the catalog's whole memory this
    process's while the languages build (at 1,000 games: 555 MB of the build's 2.2 GB peak)."""

    def work() -> tuple[dict[str, str] | None, ExportCache | None]:
        write_content(project, content, held.loaded, {}, exports)
        gate.set()
        made = incremental.render_keys(project, held.loaded, site_url) if keys is not None else None
        return made, exports

    made, written = forked.in_process(work, meanwhile=held.release)
    if keys is not None and made is not None:
        keys.update(made)
    if exports is not None and written is not None:
        exports.clear()
        exports.update(written)


def game_file_count(project: Project) -> int:
    """How many game files there are to check (before they are read: for the stage line)."""
    return sum(1 for _ in project.games_dir.glob("*.yaml")) if project.games_dir.is_dir() else 0


def _content_done(content: Path, cache: BuildCache) -> dict[str, bytes]:
    """What a clean build does with the finished ``content/`` (``Early``): its files' digests
    (the site's source, the next build's manifest) and the cache's links to it."""
    digests = file_digests(content)
    cache.keep_content(content)
    return digests


def write_content(
    project: Project,
    folder: Path,
    catalog: Catalog,
    pages: dict[str, str],
    exports: ExportCache | None = None,
) -> list[LanguageProject]:
    """Everything ``content/`` holds but the pages the language processes render: a project
    per language (with ``pages``, when given), and the .gitignore."""
    projects = write_projects(project, folder, catalog, pages, exports)
    (folder / ".gitignore").write_text(CONTENT_GITIGNORE, encoding="utf-8")
    return projects
