"""The ``rulesite`` MkDocs plugin: what a generated per-language project needs beyond MkDocs.

Installed by entry point (``mkdocs.plugins``: ``rulesite``), so each generated project builds
with plain ``mkdocs build -f content/<lang>/mkdocs.yml`` (and with ProperDocs, which loads
``mkdocs.plugins`` entry points too). Two jobs, both about reproducible output:

- **search terms**: each game's Chinese terms are a jieba user dictionary, so search keeps them
  whole words. jieba's word table is global and loading words raises their frequencies, so every
  build starts from the stock table (a second build in one process segments like the first).
- **build date**: the sitemap's dates come from ``SOURCE_DATE_EPOCH``; the generated config
  carries the data's newest verification date, used when the environment does not set one.
"""

from __future__ import annotations

import logging
import os

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin

log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class RulesitePluginConfig(base.Config):
    """Options of the ``rulesite`` plugin in a generated ``mkdocs.yml``."""

    search_terms = c.Optional(c.File(exists=True))
    """jieba user dictionary (``word frequency`` per line), relative to the config file."""
    source_date_epoch = c.Optional(c.Type(int))
    """Seconds since 1970 for dates written into the site, unless ``SOURCE_DATE_EPOCH`` is set."""


class RulesitePlugin(BasePlugin[RulesitePluginConfig]):
    """Search dictionary and build date for one generated language project."""

    def __init__(self) -> None:
        super().__init__()
        self._epoch_set_here = False

    def on_config(self, config):
        epoch = self.config.source_date_epoch
        if epoch is not None and ("SOURCE_DATE_EPOCH" not in os.environ or self._epoch_set_here):
            os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
            self._epoch_set_here = True
        if self.config.search_terms:
            load_search_terms(self.config.search_terms)
        return config

    def on_shutdown(self) -> None:
        if self._epoch_set_here:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
            self._epoch_set_here = False


def load_search_terms(path: str) -> None:
    """Reset jieba to its stock word table, then add the words in ``path``."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.dt.__init__()
    jieba.load_userdict(path)
    log.debug("loaded jieba user dictionary %s", path)
