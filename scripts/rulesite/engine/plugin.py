"""The ``rulesite`` MkDocs plugin: what a generated per-language project needs beyond MkDocs.

Installed by entry point (``mkdocs.plugins``: ``rulesite``), so each generated project builds
with plain ``mkdocs build -f content/<lang>/mkdocs.yml`` (and with ProperDocs, which loads
``mkdocs.plugins`` entry points too). Five jobs:

- **search terms**: the glossaries' Chinese names and aliases and the game titles are a jieba
  user dictionary, so search keeps them whole words; given to jieba as Material's
  ``jieba_dict_user`` would give them, each word once per process (``engine/search_terms.py``).
- **build date**: the generated config carries the data's newest verification date
  (``source_date_epoch``; ``SOURCE_DATE_EPOCH`` wins when the environment sets it); the plugin
  dates every page and template context with it (``engine/build_date.py``), so the sitemap's
  dates do not depend on the environment.
- **search that does not grow**: after Material's search plugin has written the language's
  index, every document is given the glossary's synonyms it uses as search words
  (``search_synonyms``, ``engine/search_split.py``), and the index is cut into chunks by word
  start that the theme's worker fetches per query (``engine/search_chunks.py``); each game's
  full text is also written as its shard, which the worker searches offline (the chunks and
  the shards are written by two processes at once, ``forked.in_process``). Every page loads
  ``assets/search-setup.js``, which points Material's search at ``assets/search-worker.js``.
- **pages that arrive**: in a clean build's builder, a page may still be rendering when MkDocs
  reads it; ``on_page_read_source`` waits for it, and the search index takes the Chinese words
  the rendering process segmented ahead (``engine/arriving.py``).
- **offline** (option ``offline``): the web app manifest, what each game needs offline (what
  each page loads, from the page MkDocs hands to ``on_post_page``), the offline page and the
  service worker with its build id (``engine/offline.py``).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jieba
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, event_priority

from rulesite import forked
from rulesite.engine import (
    arriving,
    build_date,
    bytecode,
    offline,
    progress,
    search_chunks,
    search_pieces,
    search_sections,
    search_split,
    sitemap,
)
from rulesite.engine.search_terms import add_search_terms, prepare_jieba
from rulesite.engine.search_words import read_synonyms

log = logging.getLogger(f"mkdocs.plugins.{__name__}")

FREE_PAGES = True
"""Drop each page's Markdown once converted and its HTML once written (memory; a test builds
with it off and compares)."""
OWN_SECTIONS = True
"""Index the pages here (``engine/search_sections.py``: Material's entries, made faster) and
tell Material's search plugin to skip them (a test builds with it off and compares)."""
KEEP_PIECES = False
"""Keep the search pieces (``engine/search_pieces.py``) in every build, as under ``serve``: a
build that keeps a cache for the next one sets it in its language processes
(``publish/build_cache.py``), whose next builds are dirty."""


class RulesitePluginConfig(base.Config):
    """Options of the ``rulesite`` plugin in a generated ``mkdocs.yml``."""

    search_terms = c.Optional(c.File(exists=True))
    """jieba user dictionary (``word frequency`` per line), relative to the config file."""
    source_date_epoch = c.Optional(c.Type(int))
    """Seconds since 1970 for dates written into the site, unless ``SOURCE_DATE_EPOCH`` is set."""
    offline = c.Type(bool, default=False)
    """Offline and installable: manifest, offline lists and page, service worker
    (``engine/offline.py``)."""
    split_search = c.Type(bool, default=False)
    """Split search: titles, questions and glossary words site-wide; each game's full text apart."""
    defer = c.Type(bool, default=False)
    """Pages only: leave the search split, the sitemap's split and the offline files as the
    last build wrote them (a live preview's first phase, ``serve/preview.py``; the second
    phase builds again without it)."""
    search_synonyms = c.Optional(c.File(exists=True))
    """The language's glossary synonym groups and game titles (JSON,
    ``engine/search_words.py``), relative
    to the config file; used by ``split_search``."""


class RulesitePlugin(BasePlugin[RulesitePluginConfig]):
    """Search dictionary, build date and search split for one generated language project."""

    def __init__(self) -> None:
        super().__init__()
        self._epoch: int | None = None
        self._serving = False
        self._pieces = False
        self._dirty = False
        self._games: set[str] = set()
        self._page_urls: list[str] = []
        self._written: set[str] = set()
        self._built = offline.BuiltPages()
        self._language: str | None = None
        self._indexed: dict[str, list[dict[str, Any]] | None] = {}
        self._hidden: dict[str, Any] = {}
        self._env: Any = None
        """The build's theme environment (``on_env``)."""
        self._segment = search_sections.Segmenter(jieba.cut)

    def on_startup(self, *, command, dirty) -> None:
        # Under `serve`, builds may be dirty: the plugin keeps the search pieces for them; so
        # does a build that keeps a cache (its next build is dirty).
        self._serving = command == "serve"
        self._pieces = self._serving or KEEP_PIECES
        self._dirty = dirty

    def on_config(self, config):
        self._epoch = build_date.build_epoch(self.config.source_date_epoch)
        prepare_jieba()  # before Material's search asks jieba anything, in every language
        # Deferred, search's output is not kept: the words would only cost time.
        if self.config.search_terms and not self.config.defer:
            add_search_terms(self.config.search_terms)
        return config

    def on_pre_template(self, template, *, template_name, config):
        # A deferred build (a preview's first phase) publishes the edited pages alone: the
        # theme's pages about the whole site (sitemap.xml, 404.html) are not rendered, and the
        # sitemap lists every page (5,000 at 1,000 games). MkDocs writes no empty template.
        if self.config.defer and template_name in config.theme.static_templates:
            return template.environment.from_string("")
        return template

    def on_pre_build(self, *, config) -> None:
        theme = config.get("theme")  # the language names the stop words of the chunked index
        self._language = theme.get("language") if theme else None
        self._games = set()
        self._written = set()
        self._built = offline.BuiltPages()
        self._indexed = {}
        # jieba's dictionary may have changed since the last build (a preview's new terms).
        # A clean build's Chinese may come segmented ahead (engine/arriving.py).
        self._segment = search_sections.Segmenter(jieba.cut, arriving.runs_ahead())

    def on_files(self, files, *, config):
        # MkDocs converts every page before writing any: count both (engine/progress.py).
        progress.pages_started(len(files.documentation_pages()), progress.CONVERTED)
        return files

    def on_page_read_source(self, *, page, config):
        # A clean build's page may still be rendering (engine/arriving.py): MkDocs reads it
        # once it is there.
        arriving.wait_for(page.file.src_uri)
        return None

    def on_env(self, env, *, config, files):
        # Every page of the build exists now (a dirty build's unwritten ones too), and none is
        # rendered yet: date them all, and note where each goes and the theme's files.
        pages = files.documentation_pages()
        if self._epoch is not None:
            build_date.date_pages((file.page for file in pages if file.page), self._epoch)
        self._built.pages = [file.dest_uri for file in pages]
        # Every page, written this time or not: the search index and its shards cover them all.
        self._page_urls = [file.page.url for file in pages if file.page]
        self._games = {slug for url in self._page_urls if (slug := search_split.game_of(url))}
        self._built.theme_files = [file.src_uri for file in files.javascript_files()]
        progress.pages_started(len(pages), progress.WRITTEN)
        # Material's templates compiled once, not in every build (engine/bytecode.py).
        if env is not None and env.bytecode_cache is None:
            env.bytecode_cache = bytecode.cache("theme")
        self._env = env  # the offline page is rendered in it too (on_post_build)
        return env

    @event_priority(50)  # before Material's search reads the page (priority 0)
    def on_page_context(self, context, *, page, config, nav):
        if OWN_SECTIONS and self.config.split_search:
            if self.config.defer:
                # The first phase of a preview's update keeps no search index (the second
                # phase indexes the page): Material's search need not read it either.
                self._exclude_from_search(page)
            else:
                self._index(page)
        # Every page points the theme's search at the chunked index's worker; a game's pages
        # name the game's shard (saved with it for offline reading, searched offline).
        context["rulesite_search_chunks"] = self.config.split_search
        if self.config.split_search:
            slug = search_split.game_of(page.url)
            context["rulesite_search_shard"] = search_split.shard_path(slug) if slug else None
        self._written.add(page.url)
        if self._epoch is not None:
            build_date.dated_context(context, self._epoch)
        return context

    def _index(self, page) -> None:
        """The page's search entries, made here; Material's search then skips the page (its
        documented ``search: exclude``), unless it holds HTML only Material reads exactly."""
        try:
            made = search_sections.entries(
                page.content or "", page.url, page.toc, page.meta, page.title, self._segment
            )
        except search_sections.Unread as why:
            log.debug("search: %s is left to Material's search (%s)", page.url or "/", why)
            self._indexed[page.url] = None
            return
        self._indexed[page.url] = made
        self._exclude_from_search(page)

    def _exclude_from_search(self, page) -> None:
        """Material's search skips the page (its documented ``search: exclude``); the page's
        own setting is given back once it is written (``on_post_page``)."""
        self._hidden[page.url] = page.meta.get("search")
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}

    def on_template_context(self, context, *, template_name, config):
        if self._epoch is not None:
            build_date.dated_context(context, self._epoch)
        return context

    @event_priority(-100)  # after every plugin that reads the page's Markdown
    def on_page_content(self, html, *, page, config, files):
        # A build holds every page's Markdown, HTML and contents until it writes the first: at
        # 1,000 games that is most of its memory. Once converted, nothing reads the Markdown
        # again ("", not None: MkDocs reads None as "not read yet"; titles come from the render).
        if FREE_PAGES and not self._serving:
            page.markdown = ""
        progress.page_done()
        return html

    @event_priority(-100)  # after any plugin that still changes the page
    def on_post_page(self, output, *, page, config):
        if page.url in self._hidden:  # as the page's front matter has it (see _index)
            hidden = self._hidden.pop(page.url)
            if hidden is None:
                page.meta.pop("search", None)
            else:
                page.meta["search"] = hidden
        # What the page loads, from the page MkDocs hands over, for the offline lists (which a
        # deferred build leaves as they were).
        if self.config.offline and not self.config.defer:
            offline.note_page(self._built, page, output)
        progress.page_done()
        # Written: its HTML and its table of contents are not needed again (search took both
        # in on_page_context; checking links reads the anchors MkDocs keeps apart).
        if FREE_PAGES and not self._serving:
            page.content = None
            page.toc = []  # MkDocs' own value for a page not rendered
        return output

    # Material's search plugin writes the index in its on_post_build (priority 0): split after it.
    @event_priority(-100)
    def on_post_build(self, *, config) -> None:
        arriving.stop_receiving()  # every page is indexed: no run is wanted any more
        if self.config.defer:
            return
        site_dir = Path(config.site_dir)

        def rest() -> None:
            # More pages than one sitemap may list: sitemap.xml becomes an index
            # (engine/sitemap.py).
            sitemap.write_split(site_dir, getattr(config, "site_url", None) or "", self._epoch)
            # offline.json names the search index and the shards, and reads neither: it may be
            # written while they are.
            if self.config.offline:
                offline.write_offline_files(config, self._built, self._env)

        if self.config.split_search:
            self._split_search_index(site_dir, rest)
        else:
            rest()

    def _split_search_index(self, site_dir: Path, rest: Callable[[], None]) -> None:
        """Split the index Material wrote into the chunked index and the game shards; ``rest``
        (the build's other last files) is written meanwhile or after."""
        search_dir = site_dir / search_split.SEARCH_DIR
        index_file = search_dir / search_split.INDEX_FILE
        if not index_file.is_file():
            log.warning("split_search: %s was not written (is the search plugin on?)", index_file)
            rest()
            return
        index = self._whole_entries(json.loads(index_file.read_text(encoding="utf-8")))
        if self._pieces:  # a dirty build indexed only the pages it wrote
            index = search_pieces.whole_index(index, site_dir, self._page_urls, self._written)
        synonyms = self.config.search_synonyms
        words = read_synonyms(synonyms) if synonyms else None
        prepared = search_split.prepare(index, words)  # both halves tokenize each text once
        lang = str(self._language or "en").split("_")[0].split("-")[0]

        def shards() -> None:
            search_split.write_shards(search_dir, search_split.game_shards(prepared, self._games))
            # What hits show: the chunked index's page parts (made here, the shorter half).
            search_chunks.write_parts(search_dir, search_chunks.page_parts(prepared.docs))

        def chunks() -> None:
            # The index the theme's worker reads a chunk at a time replaces Material's; the
            # shards stay beside it, for the games saved for offline reading
            # (engine/search_chunks.py).
            chunked = search_chunks.from_material(prepared, lang, words, parts=False)
            search_chunks.write(search_dir, chunked, search_split.INDEX_FILE)

        # The halves write different files from the same prepared index. A dirty build (after
        # an edit: the build cache's, the preview's) rewrites a few pages, and the split is most
        # of its time: the chunks (the longer half) go to a process of their own, on a core such
        # a build mostly leaves idle (at 1,000 games, after one FAQ edit, the Chinese build's
        # 13.8 s became 6.8 s). A clean build splits here, one half after the other: the other
        # language is often still building then (no idle core), and a copy of this process at
        # its largest raised the build's peak memory at 1,000 games from about 2.0 to 2.2-2.4 GB.
        # A process with threads (plain `mkdocs serve` on a generated project) never forks.
        # The build's other last files are written beside the chunks too (at 1,000 games the
        # offline lists take half a second): the shorter half and they take about as long.
        if self._dirty and threading.active_count() == 1:

            def meanwhile() -> None:
                shards()
                rest()

            forked.in_process(chunks, meanwhile=meanwhile, what="splitting the search index")
        else:
            shards()
            chunks()
            rest()
        log.debug("split the search index of %s into %d game shards", search_dir, len(self._games))

    def _whole_entries(self, index: dict[str, Any]) -> dict[str, Any]:
        """Material's ``index`` with the entries made here, page by page in the build's order
        (the order in which Material's plugin would have indexed them)."""
        if not self._indexed:
            return index
        left = search_pieces.by_page(index["docs"])  # the pages left to Material's plugin
        docs = []
        for url, made in self._indexed.items():
            docs.extend(left.get(url, []) if made is None else made)
        return {**index, "docs": docs}
