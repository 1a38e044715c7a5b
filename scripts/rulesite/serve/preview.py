"""Live preview that rebuilds only what an edit changed, into the HTML a real build writes.

``rulesite serve`` works in a scratch folder outside the project:

- ``content/<lang>/``: its own copy of the generated MkDocs projects (``engine/projects.py``). The
  project's ``content/`` belongs to ``rulesite build``, so the preview never waits for its lock;
- ``languages/<lang>/``: each language's MkDocs site, kept between builds;
- ``site/``: what the server serves, the languages assembled as a build assembles them.

The first build is a clean build's (``serve/first_build.py``). A watcher
(``serve/watcher.py``) polls ``data/``, ``templates/`` and ``mkdocs.yml``; a small server of our
own (``serve/server.py``) serves ``site/`` and reloads open pages after each rebuild. On a
change:

1. load and validate: a game file whose bytes did not change is not checked again
   (``render/cache.py``);
   the checks across files always run. Invalid data is reported exactly as ``rulesite validate``
   reports it, and the preview keeps its last good pages;
2. first phase, what the editor looks at: render the games' pages (an unchanged game's come
   from the cache) and, in each language whose settings and theme are unchanged, write the
   changed games' pages into ``content/`` and build them (a MkDocs dirty build; the plugin's
   ``defer`` leaves search and the offline files alone), copy them into ``site/``; open pages
   reload;
3. second phase: render the pages across games (each only when the inputs its kind declares
   changed), make the other generated files (word lists, feed, the JSON export: each game's
   records kept by its file's digest), write into ``content/`` the files whose bytes changed
   (the preview keeps their digests, not their bytes), and build each language that has a
   changed file (``publish/plan.py``): a whole build when its settings (``mkdocs.yml``: site
   name, address, build date, navigation titles...) or its theme changed, else a dirty build of
   the changed games' pages and the changed site-wide pages, with the language's search index
   and offline lists; both languages at once, each in a forked process, as MkDocs' ``serve``
   command (so the ``rulesite`` plugin completes the search index of a dirty build:
   ``engine/search_pieces.py``);
4. copy what the builds wrote into ``site/``; the browser reloads.

A dirty build writes the same HTML for a page as a whole build does (``publish/plan.py`` says
why), and after the second phase every file of ``site/`` is what a whole build writes
(``tests/test_incremental.py``). Between the phases, the search index and offline lists are
the previous ones, and a game page that links to a page first written in the second phase (a
new topic) links to it as MkDocs links a missing page until the second phase rebuilds it.
"""

from __future__ import annotations

import hashlib
import signal
import sys
import time
from multiprocessing.synchronize import Event
from pathlib import Path

import yaml

from rulesite import forked
from rulesite.catalog import Catalog, load_catalog
from rulesite.engine import bytecode
from rulesite.engine.export import ExportCache
from rulesite.engine.projects import (
    CONFIG_FILE,
    DOCS_DIR,
    THEME_DIR,
    config_files,
    configured_site_url,
    generated_files,
    site_path,
    theme_files,
)
from rulesite.engine.search_split import shard_path
from rulesite.engine.search_terms import use_cache_root
from rulesite.errors import DataError, RulesiteError
from rulesite.model import Language
from rulesite.project import Project
from rulesite.publish.plan import Plan, in_docs, is_game_page, page_output, plan_language, settings
from rulesite.publish.preview_build import PreviewBuild, build_previews
from rulesite.publish.progress import Progress
from rulesite.render.cache import ContentCache, render_game_pages, render_site_pages
from rulesite.render.parallel import render_missing_in_parallel
from rulesite.serve.console import logged_to_console, say
from rulesite.serve.files import (
    Snapshot,
    copy_file,
    publish_build,
    remove_file,
    scratch_folder,
    snapshot,
)
from rulesite.serve.first_build import check_and_build, compile_templates
from rulesite.serve.overlay import Problems
from rulesite.serve.server import Versions, open_server
from rulesite.serve.watcher import Watcher
from rulesite.terminal import printable

POLL_SECONDS = 0.1
"""How often the server looks at the watched files (stat calls only)."""
PAGES_ONLY_CONFIG = ".mkdocs-pages-only.yml"
"""The first phase's settings, beside the generated ones while it builds."""
RETRY_SECONDS = 0.1
"""Pause before the one retry of a rebuild that failed unexpectedly (a race is usually over)."""


def serve(project: Project, dev_addr: str) -> None:
    """Build the whole preview (errors are fatal here), then serve it with live reload."""
    use_cache_root(project.root / ".cache")  # jieba's cache: the project's own
    # Material's templates compiled once, not in every build's process (half a second of each
    # edit's first build otherwise), as `rulesite build` keeps them (engine/bytecode.py).
    bytecode.use(project.root / ".cache")
    # Stopped by a process manager (or a test): leave as from Ctrl-C, removing the scratch folder.
    signal.signal(signal.SIGTERM, _interrupt)
    stopping = forked.context().Event()  # seen by the builds' processes too
    with (
        scratch_folder("rulesite-preview-") as scratch,
        logged_to_console(stopping),
    ):
        preview = Preview(project, scratch, stopping)
        versions = Versions()
        preview.on_published = versions.bump  # the changed games' pages reload first
        # The address first: a mistake in it is told at once, not after a whole build.
        server = open_server(dev_addr, preview.site, versions, say, preview.problems.overlay)
        try:
            preview.start()
        except BaseException:
            server.server_close()
            raise

        def rebuild() -> None:
            preview.rebuild()
            versions.bump()  # open pages reload (unchanged pages reload unchanged)

        watched = [project.data_dir, project.templates_dir, project.mkdocs_file]
        watcher = Watcher([path for path in watched if path.exists()], rebuild, POLL_SECONDS)
        watcher.start()
        try:
            server.serve_forever()  # Ctrl-C or SIGTERM: KeyboardInterrupt, exit 130 (cli.py)
        finally:
            # Before its folder goes: a rebuild still running then has nothing to report.
            stopping.set()
            watcher.stop()
            server.server_close()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class Preview:
    """The preview's files and what it last built; ``rebuild()`` brings it up to date."""

    def __init__(self, project: Project, folder: Path, stopping: Event | None = None) -> None:
        self.project = project
        self.folder = folder
        self.stopping = stopping if stopping is not None else forked.context().Event()
        """Set when the preview stops (its folder is about to go): a rebuild that fails then
        reports nothing."""
        self.content = folder / "content"
        self.builds = folder / "languages"
        self.site = folder / "site"
        # Its templates' compiled code kept in the project's cache, as builds keep it: the
        # start compiles every template in this process (first_build.compile_templates), and a
        # restart, or a build after it, loads them.
        self.cache = ContentCache(bytecode.pages)
        self.written: dict[str, str] = {}
        """Every file in ``content/`` (relative path) and the SHA-256 of its bytes."""
        self._sources: dict[str, str | bytes] = {}
        """What each file of ``content/`` was written from: a page's text is the render
        cache's own, so the same object again means the same file, with nothing to digest."""
        self.pending: set[str] = set()
        """Files the first phase built that the second has not built yet (it failed, or a
        later step did): built again by the next second phase."""
        self.exports: ExportCache = {}
        """Each game's JSON export records (``engine/export.py``)."""
        self.stale: set[str] = set()
        """Languages whose site may not match ``content/``: built whole next time."""
        self.languages: dict[str, Language] = {}
        """The site's languages by code, as ``data/site.yaml`` last declared them."""
        self.problems = Problems()
        """What the last rebuild could not get past: shown over every page (the overlay)."""

    def start(self) -> None:
        """The first, whole build, by ``rulesite build``'s pipeline (``serve/first_build.py``);
        problems are raised, as ``rulesite build`` raises them."""
        started = time.perf_counter()
        self.site.mkdir(parents=True, exist_ok=True)
        catalog, built = check_and_build(
            self.project, self.cache, self.content, self.builds, Progress(sys.stderr), say
        )
        self.languages = {language.code: language for language in catalog.site.languages}
        self.written, self.exports = built.written, built.exports
        self._sources = built.files
        for lang in self.languages:
            self._publish(lang, True, {})
        each = ", ".join(f"{lang}: whole ({s:.1f} s)" for lang, s in built.seconds.items())
        spent = time.perf_counter() - started
        say(f"rulesite: built {each}; {built.page_count} pages; {spent:.1f} s in all")
        compile_templates(self.project, catalog, self.cache)

    def rebuild(self) -> None:
        """Bring the preview up to date after a change; reports problems, never raises.

        Invalid data, a failing template or a failed MkDocs build are reported and the last good
        pages stay. Any other failure (a file deleted halfway through a step) is reported in
        one line and retried once, since a race is usually over by then.
        """
        for retrying in (False, True):
            try:
                self.update()
                self.problems.clear()
                return
            except Exception as error:
                if self.stopping.is_set():  # its files went under it: no news
                    return
                if not self._reported(error, retrying):
                    return

    def _reported(self, error: Exception, retrying: bool) -> bool:
        """Say what stopped a rebuild (here and over every page); whether to try again."""
        if isinstance(error, DataError):
            say("rulesite: data has errors; the preview keeps the last good pages")
            for line in error.lines():
                say(line)
            self.problems.set(error.lines())  # the browser says the same (the overlay)
            return False
        if isinstance(error, RulesiteError):
            say("rulesite: cannot rebuild; the preview keeps the last good pages")
            for line in error.lines():
                say(line)
            self.problems.set(error.lines())
            return False
        then = "waiting for the next change" if retrying else "trying again"
        say(
            f"rulesite: rebuilding failed: {type(error).__name__}: "
            f"{printable(str(error))}; the preview keeps the last good pages; {then}"
        )
        if retrying:
            self.problems.set([f"rebuilding failed: {type(error).__name__}: {error}"])
            return False
        time.sleep(RETRY_SECONDS)
        return True

    def update(self) -> None:
        """Validate, render, write what changed, build it and publish it into ``site/``.

        Two phases: first the changed games' pages, published as soon as they are built (what
        the editor is looking at); then every other changed file (the pages across games,
        settings, theme), with the search index, its shards and the offline lists of the
        whole language, which the first phase leaves as they were.
        """
        started = time.perf_counter()
        catalog = load_catalog(self.project, cache=self.cache)
        self.cache.retain("checked", (doc.file for doc in catalog.documents.values()))
        site_url = configured_site_url(self.project)
        # An edited template (every page to render): each language's in a process of its own.
        render_missing_in_parallel(self.project, catalog, self.cache, site_url)
        game_pages = render_game_pages(self.project, catalog, self.cache, site_url)
        # A language not built yet (one just declared) is built whole.
        self.stale |= {code for code in catalog.site.codes if code not in self.languages}
        self.languages = {language.code: language for language in catalog.site.languages}
        # The first phase needs the games' pages, the settings and the theme: nothing made
        # from every game (the pages across games, search's word lists, the export) yet.
        early = {**self._theme(catalog), **config_files(self.project, catalog)}
        early.update(in_docs(game_pages))
        first = self._game_pages_first(early)
        if first:
            seconds = self._build([plan for plan, _ in first], {}, pages_only=True)
            shown = time.perf_counter() - started
            say(f"rulesite: {_summary([p for p, _ in first], seconds)}; shown after {shown:.1f} s")
            self.pending |= {path for _, paths in first for path in paths}
            self.on_published()
        pages = {**render_site_pages(self.project, catalog, self.cache, site_url), **game_pages}
        files = self._generated(catalog, pages)
        # Every build writes the sitemap, 404 page and search files again, and the second
        # phase rebuilds the first one's pages: what the first phase wrote is new again here.
        before = {lang: snapshot(self.builds / lang) for lang in self.languages}
        changed = self._write(files) | self.pending
        plans = [
            plan
            for lang in self.languages
            if (plan := self._plan(lang, changed, files)) is not None
        ]
        if not plans:
            self.pending.clear()
            say("rulesite: no page changed")
            return
        seconds = self._build(plans, before)
        self.pending.clear()
        say(f"rulesite: {_summary(plans, seconds)}; {time.perf_counter() - started:.1f} s in all")

    def on_published(self) -> None:
        """Called when the first phase has published the changed games' pages (the server
        makes open pages reload); the second phase follows."""

    def _game_pages_first(self, files: dict[str, str | bytes]) -> list[tuple[Plan, set[str]]]:
        """Write the changed games' pages of each language that needs no whole build; their
        plans and the paths written. Nothing else is written yet."""
        first = []
        for lang in self.languages:
            if lang in self.stale:
                continue
            config = f"{lang}/{CONFIG_FILE}"
            if self._differs(config, files.get(config)) or any(
                self._differs(path, files.get(path))
                for path in files.keys() | self.written.keys()
                if path.startswith(f"{lang}/{THEME_DIR}/")
            ):
                continue
            docs = f"{lang}/{DOCS_DIR}/"
            mine = {
                path: data
                for path, data in files.items()
                if path.startswith(docs)
                and self._differs(path, data)
                and is_game_page(path.removeprefix(docs))
            }
            if not mine:
                continue
            written = self._write(mine, partial=True)
            plan = self._plan(lang, written, files)
            if plan is not None and not plan.whole:
                first.append((plan, written))
        return first

    def _differs(self, relative: str, data: str | bytes | None) -> bool:
        """Whether ``data`` (None: no such file now) is not what ``content/`` holds."""
        if data is None:
            return relative in self.written
        if self._sources.get(relative) is data:  # the very text the cache gave last time
            return False
        return self.written.get(relative) != _digest(data)

    def error_page(self, code: int) -> bytes | None:
        """The site's own 404 page for the server's errors, as ``mkdocs serve`` does."""
        page = self.site / "404.html"
        try:
            return page.read_bytes() if code == 404 else None
        except OSError:
            return None

    # --- content/ ---------------------------------------------------------------------------

    def _generated(self, catalog: Catalog, pages: dict[str, str]) -> dict[str, str | bytes]:
        """Every file of ``content/``, as ``rulesite build`` writes it, by relative path: the
        pages as text (from the render cache), the rest as bytes."""
        files = self._theme(catalog)
        files.update(generated_files(self.project, catalog, self.exports))
        files.update(in_docs(pages))
        return files

    def _theme(self, catalog: Catalog) -> dict[str, str | bytes]:
        """The theme in each language's project."""
        theme = theme_files(self.project)
        return {
            f"{lang}/{THEME_DIR}/{relative}": data
            for lang in catalog.site.codes
            for relative, data in theme.items()
        }

    def _write(self, files: dict[str, str | bytes], partial: bool = False) -> set[str]:
        """Make ``content/`` hold ``files``, touching only what differs; the paths changed.
        ``partial``: ``files`` are some of the files, the others stay (else they go)."""
        changed = set()
        for relative, data in files.items():
            if not self._differs(relative, data):
                self._sources[relative] = data
                continue
            raw = data.encode("utf-8") if isinstance(data, str) else data
            path = self.content / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(raw)
            self.written[relative] = _digest(raw)
            self._sources[relative] = data
            changed.add(relative)
        if not partial:
            for relative in self.written.keys() - files.keys():
                (self.content / relative).unlink(missing_ok=True)
                del self.written[relative]
                self._sources.pop(relative, None)
                changed.add(relative)
        return changed

    def _plan(self, lang: str, changed: set[str], files: dict[str, str | bytes]) -> Plan | None:
        mine = {path.removeprefix(f"{lang}/") for path in changed if path.startswith(f"{lang}/")}
        docs = f"{lang}/{DOCS_DIR}/"
        present = {path.removeprefix(docs) for path in files if path.startswith(docs)}
        return plan_language(lang, mine, present, settings(files, lang), lang in self.stale)

    # --- building and publishing -------------------------------------------------------------

    def _build(
        self, plans: list[Plan], before: dict[str, Snapshot], pages_only: bool = False
    ) -> dict[str, float]:
        """Build and publish ``plans``; ``before``: each language's site before this update.
        ``pages_only``: the first phase (the plans' pages; no search, no offline lists)."""
        for plan in plans:
            self.stale.add(plan.lang)  # until it is published: a failure means a whole build
            if not plan.whole:
                self._forget_pages(plan)
        self._load_search_terms(plans)
        configs = {plan.lang: self.content / plan.lang / CONFIG_FILE for plan in plans}
        if pages_only:
            configs = {lang: self._pages_only_config(lang) for lang in configs}
        try:
            seconds = build_previews(
                [
                    PreviewBuild(
                        plan.lang, configs[plan.lang], self.builds / plan.lang, dirty=not plan.whole
                    )
                    for plan in plans
                ]
            )
        finally:
            if pages_only:
                for config in configs.values():
                    config.unlink(missing_ok=True)
        for plan in plans:
            if pages_only:
                self._publish_pages(plan)
            else:
                self._publish(plan.lang, plan.whole, before.get(plan.lang, {}))
            self.stale.discard(plan.lang)
        return seconds

    def _pages_only_config(self, lang: str) -> Path:
        """The language's settings for the first phase: the plugin leaves search and the offline
        files alone (``defer``); the theme's compiled templates are kept as in every build
        (``engine/bytecode.py``). Beside the generated settings (their paths are relative),
        removed once built."""
        config = settings(self._sources, lang)
        for entry in config.get("plugins", []):
            if isinstance(entry, dict) and "rulesite" in entry:
                entry["rulesite"] = {**entry["rulesite"], "defer": True}
        path = self.content / lang / PAGES_ONLY_CONFIG
        path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), "utf-8")
        return path

    def _forget_pages(self, plan: Plan) -> None:
        # MkDocs' dirty build rebuilds a page whose HTML is missing: deleting it is surer than
        # comparing modification times a few milliseconds apart. Gone pages leave the site too.
        target = self.site / site_path(self.languages[plan.lang])
        for page in plan.pages + plan.removed:
            output = page_output(page, plan.use_directory_urls)
            (self.builds / plan.lang / output).unlink(missing_ok=True)
            if page in plan.removed:
                remove_file(target / output, target)
        for slug in plan.removed_games:
            remove_file(target / shard_path(slug), target)

    def _load_search_terms(self, plans: list[Plan]) -> None:
        # Loading jieba's stock word table costs 0.15 s and 65 MB: do it once here, before forking,
        # so every build's worker inherits it. The workers add the search terms themselves (the
        # plugin): this process never does, so each build's words are those of its own project.
        if any(self.languages[plan.lang].search.jieba for plan in plans):
            from rulesite.engine.search_terms import warm_up

            warm_up()

    def _publish_pages(self, plan: Plan) -> None:
        """Copy the pages the first phase built into ``site/`` (nothing else: its search
        index covers those pages only, the second phase writes the whole)."""
        source = self.builds / plan.lang
        target = self.site / site_path(self.languages[plan.lang])
        for page in plan.pages:
            output = page_output(page, plan.use_directory_urls)
            if (source / output).is_file():
                copy_file(source / output, target / output)

    def _publish(self, lang: str, whole: bool, before: Snapshot) -> None:
        """Copy what the build of ``lang`` wrote into ``site/``, where the language lives."""
        others = [
            site_path(language).rstrip("/")
            for code, language in self.languages.items()
            if code != lang
        ]
        target = self.site / site_path(self.languages[lang])
        publish_build(self.builds / lang, target, whole, before, others)


def _digest(data: str | bytes) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def _summary(plans: list[Plan], seconds: dict[str, float]) -> str:
    """``built zh: 6 pages (0.5 s), en: whole (7.7 s)``: Markdown pages; the static files
    rebuilt with them (the feed, the JSON export) are not pages."""
    parts = [
        f"{plan.lang}: {'whole' if plan.whole else f'{plan.markdown_pages} pages'} "
        f"({seconds.get(plan.lang, 0.0):.1f} s)"
        for plan in plans
    ]
    return "built " + ", ".join(parts)
