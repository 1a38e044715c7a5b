"""The ``rulesite`` MkDocs plugin: what a generated per-language project needs beyond MkDocs.

Installed by entry point (``mkdocs.plugins``: ``rulesite``), so each generated project builds
with plain ``mkdocs build -f content/<lang>/mkdocs.yml`` (and with ProperDocs, which loads
``mkdocs.plugins`` entry points too). Four jobs:

- **search terms**: the glossaries' Chinese names and aliases and the game titles are a jieba
  user dictionary, so search keeps them whole words. jieba's word table is global and loading
  words raises their frequencies, so every build starts from the stock table (a second build in
  one process segments like the first).
- **build date**: the sitemap's dates come from ``SOURCE_DATE_EPOCH``; the generated config
  carries the data's newest verification date, used when the environment does not set one.
- **search that scales**: after Material's search plugin has written the language's index, it is
  split into a small site-level index and one shard per game (``engine/search_split.py``), every
  document given the glossary's synonyms it uses as search words (``search_synonyms``); game
  pages name their shard for ``assets/search-shards.js``, which merges it in when search loads.
- **offline** (option ``offline``): the web app manifest, what each game needs offline, the
  offline page and the service worker with its build id (``engine/offline.py``).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, event_priority

from rulesite.engine import offline, search_split
from rulesite.engine.search_words import read_synonyms

log = logging.getLogger(f"mkdocs.plugins.{__name__}")


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
    search_synonyms = c.Optional(c.File(exists=True))
    """The language's glossary synonym groups and game titles (JSON,
    ``engine/search_words.py``), relative
    to the config file; used by ``split_search``."""


class RulesitePlugin(BasePlugin[RulesitePluginConfig]):
    """Search dictionary, build date and search split for one generated language project."""

    def __init__(self) -> None:
        super().__init__()
        self._epoch_set_here = False
        self._games: set[str] = set()

    def on_config(self, config):
        epoch = self.config.source_date_epoch
        if epoch is not None and ("SOURCE_DATE_EPOCH" not in os.environ or self._epoch_set_here):
            os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
            self._epoch_set_here = True
        if self.config.search_terms:
            load_search_terms(self.config.search_terms)
        return config

    def on_pre_build(self, *, config) -> None:
        self._games = set()

    def on_page_context(self, context, *, page, config, nav):
        # A game's pages name the game's shard; the theme loads assets/search-shards.js for it.
        if self.config.split_search:
            slug = search_split.game_of(page.url)
            context["rulesite_search_shard"] = search_split.shard_path(slug) if slug else None
            if slug:
                self._games.add(slug)
        return context

    # Material's search plugin writes the index in its on_post_build (priority 0): split after it.
    @event_priority(-100)
    def on_post_build(self, *, config) -> None:
        if self.config.split_search:
            split_search_index(
                Path(config.site_dir) / "search", self.config.search_synonyms, self._games
            )
        if self.config.offline:  # after the split: offline.json names the index and shards
            offline.write_offline_files(config)

    def on_shutdown(self) -> None:
        if self._epoch_set_here:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
            self._epoch_set_here = False


def split_search_index(search_dir: Path, synonyms_file: str | None, games: set[str]) -> None:
    """Split the index Material wrote in ``search_dir`` into the site-level index and shards."""
    index_file = search_dir / search_split.INDEX_FILE
    if not index_file.is_file():
        log.warning("split_search: %s was not written (is the search plugin on?)", index_file)
        return
    index = json.loads(index_file.read_text(encoding="utf-8"))
    words = read_synonyms(synonyms_file) if synonyms_file else None
    search_split.write_split(search_dir, search_split.split_index(index, words, games))
    log.debug("split the search index of %s into %d game shards", search_dir, len(games))


_jieba_holds: tuple[object, ...] | None = None
"""What this process last loaded: the terms' digest and jieba's word table right after."""


def load_search_terms(path: str) -> None:
    """Reset jieba to its stock word table, then add the words in ``path``.

    Loading the stock table takes half a second, once per build. When this process last loaded
    these very words onto a fresh table, and the table is still as that load left it, the reset
    and reload are skipped: the table is the one they would give, so segmentation is the same
    as in a fresh process. (A live preview builds many times in one process, and its forked
    workers inherit a table the preview loaded before forking.)
    """
    import hashlib
    import io

    import jieba

    global _jieba_holds

    def word_table() -> tuple[object, ...]:
        # Every change jieba's API can make (add_word, del_word, load_userdict, set_dictionary,
        # initialize) moves one of these.
        dt = jieba.dt
        return (
            id(dt),
            dt.initialized,
            dt.dictionary,
            dt.total,
            len(dt.FREQ),
            len(dt.user_word_tag_tab),
            len(jieba.finalseg.Force_Split_Words),
        )

    jieba.setLogLevel(logging.WARNING)
    with open(path, "rb") as file:
        words = io.BytesIO(file.read())
    words.name = path  # jieba names the file in its errors
    digest = hashlib.sha256(words.getvalue()).hexdigest()
    if _jieba_holds == (digest, word_table()):
        log.debug("jieba already holds the user dictionary %s", path)
        return
    _jieba_holds = None
    jieba.dt.__init__()
    jieba.load_userdict(words)
    _jieba_holds = (digest, word_table())
    log.debug("loaded jieba user dictionary %s", path)
