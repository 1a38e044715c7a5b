"""A clean build's MkDocs processes, started before the catalog is loaded.

A language's MkDocs build needs nothing of the catalog, only its generated project. So a clean
build forks one **builder** per language it builds first thing, while its heap is still small;
each loads what its build needs (jieba's word table for a language whose search splits words
with it, MkDocs and Material) on the core the catalog's checks leave free, then waits. The
process that renders the language's pages (``publish/workers.py``) hands it the build's
settings (``LanguageBuild``) once the project is written, and the builder runs MkDocs, sending
its counts and its outcome to the build process as a language process does.

The build process thus never loads jieba, and at 100 games a language starts MkDocs about a
second sooner; a builder's heap holds no copy of the catalog (what a fresh interpreter was
started for, ``publish/language_build.py``). Below ``WARM_GAMES`` the builder is handed its
build as soon as the language's pages start to be rendered, and reads each page once it has
arrived (``engine/arriving.py``).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from rulesite.catalog import load_site
from rulesite.engine import arriving, bytecode, search_pieces, search_split
from rulesite.engine.projects import load_base_config
from rulesite.engine.search_terms import use_cache_root, warm_up
from rulesite.errors import RulesiteError
from rulesite.forked import context, die_with_parent
from rulesite.model import SiteData
from rulesite.project import Project
from rulesite.publish.language_build import LanguageBuild, Outcome, build_and_report, peak_kb

ENGINE_MODULES = (
    "mkdocs.commands.build",
    "mkdocs.config.defaults",
    "material.plugins.search.plugin",
    "rulesite.engine.plugin",
)
"""What every language's MkDocs build imports besides the project's Markdown extensions (the
engine, the theme's search, the ``rulesite`` plugin)."""
WARM_GAMES = 400
"""Below this many game files, a builder loads what its build needs while the catalog is
checked; from it on, once handed its build (as a fresh interpreter does): with a big
catalogue the build's memory peaks while the languages render, each process with its copy of
the catalog's pages it touched, and jieba's table and MkDocs' modules in the builders would add
to that peak (at 1,000 games the sampled PSS peak rose from 1,370-1,428 MB to 1,484 MB, against
a goal of 1.5 GB). For the same reason, only below it does a builder start while its pages are
rendered (``Builder.arrivals``): a build's memory grows as it converts pages."""


@dataclass
class Builder:
    """One language's builder, as the build process holds it."""

    lang: str
    process: Any
    """The builder's process."""
    settings: Connection
    """Where the language's rendering process sends the build's ``LanguageBuild``."""
    outcome: Connection
    """Where the builder's counts and, last, its ``Outcome`` arrive."""
    arrivals: arriving.Arrivals | None = None
    """Where it may be handed its build before its pages are rendered (``engine/arriving.py``):
    how it learns which pages the language's rendering process has written, and that they will
    not all come (it then stops without building); None: its pages are rendered first."""

    def stop(self) -> None:
        """End the builder (its language will not be built, or the build is over)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def early(project: Project, languages: tuple[str, ...] | None, games: int) -> dict[str, Builder]:
    """A builder for each language a clean build builds (``languages``, None: all), where
    processes fork and ``site.yaml`` reads (else none: the languages' own processes build, as
    after an incremental build gave up). ``games``: how many game files there are."""
    site = _site_to_fork_for(project)
    if site is None:
        return {}
    chosen = {
        language.code: language.search.jieba
        for language in site.languages
        if languages is None or language.code in languages
    }
    warm = (*ENGINE_MODULES, *_extension_modules(project)) if games < WARM_GAMES else None
    return start_builders(chosen, project.root / ".cache", warm)


def _site_to_fork_for(project: Project) -> SiteData | None:
    """``data/site.yaml``'s languages, where builders can be forked; None where processes do
    not fork or the file does not read (the catalog's load reports it)."""
    if context().get_start_method() != "fork":
        return None
    try:
        return load_site(project)
    except RulesiteError:
        return None


def _extension_modules(project: Project) -> tuple[str, ...]:
    """The modules of the Markdown extensions ``mkdocs.yml`` names (every generated project
    has them): ``toc`` is ``markdown.extensions.toc``, ``pymdownx.details`` its own name."""
    try:
        named = load_base_config(project).get("markdown_extensions") or []
    except RulesiteError:  # the build reports it
        return ()
    names = [next(iter(entry), "") if isinstance(entry, dict) else entry for entry in named]
    modules = [str(name).partition(":")[0] for name in names if name]
    return tuple(name if "." in name else f"markdown.extensions.{name}" for name in modules)


def start_builders(
    languages: dict[str, bool], cache_root: Path | None, warm: tuple[str, ...] | None
) -> dict[str, Builder]:
    """A builder for each language code of ``languages`` (True: its search splits words with
    jieba), using the project's cache folder ``cache_root``. With ``warm``, each imports those
    modules (and loads jieba where its language needs it) at once; with None, MkDocs loads
    what it needs once the builder is handed its build."""
    ctx = context()
    warmed = warm is not None
    with _frozen():
        return {
            lang: _start(ctx, lang, jieba and warmed, warm or (), cache_root, arrive=warmed)
            for lang, jieba in languages.items()
        }


@contextlib.contextmanager
def _frozen() -> Iterator[None]:
    """While builders are forked: a builder never collects the objects that exist now; it
    would touch (and so copy) every page of memory it shares with this process (a long-lived
    one, such as a test run's)."""
    frozen_by_caller = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        yield
    finally:
        if not frozen_by_caller:
            gc.unfreeze()


def _start(
    ctx: Any,
    lang: str,
    jieba: bool,
    modules: tuple[str, ...],
    cache_root: Path | None,
    cached_site: Path | None = None,
    arrive: bool = False,
) -> Builder:
    settings_receiver, settings_sender = ctx.Pipe(duplex=False)
    outcome_receiver, outcome_sender = ctx.Pipe(duplex=False)
    arrivals = arriving.Arrivals(ctx.RawValue("i", 0), ctx.Event()) if arrive else None
    target, args = _wait_and_build, (jieba, modules, cache_root, arrivals)
    if cached_site is not None:
        target, args = _warm_and_run, (jieba, modules, cache_root, cached_site)
    process = ctx.Process(
        target=target,
        args=(settings_receiver, outcome_sender, *args),
        daemon=True,
        name=f"rulesite-build-{lang}",
    )
    process.start()
    settings_receiver.close()
    outcome_sender.close()
    return Builder(lang, process, settings_sender, outcome_receiver, arrivals)


def _load(jieba: bool, modules: tuple[str, ...], cache_root: Path | None) -> None:
    """In a builder: load jieba (``jieba``) and import ``modules`` (MkDocs loads the rest as it
    builds)."""
    die_with_parent()
    if cache_root is not None:
        bytecode.use(cache_root)
        use_cache_root(cache_root)
    if jieba:
        warm_up()
    for name in modules:
        with contextlib.suppress(ImportError):  # a module a later version moved: MkDocs says
            importlib.import_module(name)


def _wait_and_build(
    settings: Connection,
    sender: Connection,
    jieba: bool,
    modules: tuple[str, ...],
    cache_root: Path | None,
    arrivals: arriving.Arrivals | None = None,
) -> None:
    """The builder: load (``_load``), wait for the settings, build (its pages, when they are
    still arriving, as they arrive: ``arrivals``)."""
    _load(jieba, modules, cache_root)
    try:
        build = settings.recv()
    except EOFError:  # the build ended before this language was rendered
        return
    if build is None:  # its pages were lost with another process (which the build reports)
        settings.close()
        sender.send(Outcome(0.0, None, 0, peak_kb()))
        sender.close()
        return
    if build.arriving:  # pages, then runs segmented ahead, arrive as it builds
        assert arrivals is not None, "pages handed over to arrive to a builder not made for it"
        arriving.expect(arrivals, list(build.arriving))
        arriving.receive_runs(settings)
    else:
        settings.close()
    build_and_report(sender, build)


def for_dirty_builds(project: Project, sites: dict[str, Path]) -> dict[str, Builder]:
    """An incremental build's builder for each language of ``sites`` (code: its cached site),
    started before the catalog is loaded, where processes fork and ``site.yaml`` reads (else
    none: the build forks its language processes when it knows what to build). Each loads what
    a build needs (``_load``) and splits the words of its cached site's texts
    (``search_split.warm_tokenizer``) on the core the loading leaves free, then runs the job
    it is handed (``hand_job``), if any. At 1,000 games, after one FAQ answer was edited, that
    took about a second off the Chinese build, which is most of the build's time."""
    site = _site_to_fork_for(project)
    if site is None:
        return {}
    modules = (*ENGINE_MODULES, *_extension_modules(project))
    cache_root = project.root / ".cache"
    ctx = context()
    with _frozen():
        return {
            language.code: _start(
                ctx, language.code, language.search.jieba, modules, cache_root, sites[language.code]
            )
            for language in site.languages
            if language.code in sites
        }


def _warm_and_run(
    settings: Connection,
    sender: Connection,
    jieba: bool,
    modules: tuple[str, ...],
    cache_root: Path | None,
    cached_site: Path,
) -> None:
    """An incremental build's builder: load (``_load``), split the cached site's texts, wait
    for a job (``hand_job``) and run it; none: the language is not built."""
    _load(jieba, modules, cache_root)
    search_split.warm_tokenizer(search_pieces.kept_texts(cached_site))
    try:
        job = settings.recv()
    except EOFError:
        return
    settings.close()
    target, args = job
    target(sender, *args)


def hand_job(
    builder: Builder, target: Callable[..., None], args: tuple[Any, ...]
) -> tuple[Any, Connection]:
    """Give an incremental build's ``builder`` its job (``target(sender, *args)``, as a forked
    language process would run it); the builder's process and where its outcome arrives."""
    builder.settings.send((target, args))
    builder.settings.close()
    return builder.process, builder.outcome


def hand_over(settings: Connection, build: LanguageBuild | None) -> None:
    """In a language's rendering process: give its builder what to build (None: nothing, its
    pages were not all rendered)."""
    settings.send(build)
    settings.close()
