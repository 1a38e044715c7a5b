"""One MkDocs build of one generated language project, its warnings named by data file."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from rulesite.errors import BuildError
from rulesite.terminal import printable

DIRTY_BUILD_NOTICE = "A 'dirty' build is being performed"
"""How MkDocs' warning about a dirty build begins."""


def run_mkdocs(
    config_file: Path,
    site_dir: Path,
    strict: bool = True,
    dirty: bool = False,
    command: str = "build",
) -> None:
    """Run a real MkDocs build of one generated project into ``site_dir``.

    Warnings fail the build when strict; each names the data file its page came from. With
    ``dirty`` (previews), MkDocs rebuilds only pages whose HTML is missing or older than their
    Markdown and keeps the rest of ``site_dir``. ``command`` is what the plugins' ``on_startup``
    hears: ``serve`` for a preview's builds (the ``rulesite`` plugin then keeps what its dirty
    builds need, ``engine/search_pieces.py``).
    """
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    collector = _WarningCollector()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collector)
    try:
        # A dirty build always warns that it is one: strict, it would fail on that warning
        # alone. Our collector is strict instead (it skips that one).
        engine_strict = strict and not dirty
        config = load_config(str(config_file), site_dir=str(site_dir), strict=engine_strict)
        config.plugins.on_startup(command=command, dirty=dirty)
        try:
            mkdocs_build(config, dirty=dirty)
        finally:
            config.plugins.on_shutdown()
    except MkDocsException as exc:
        raise BuildError("\n".join([*collector.messages, f"MkDocs build failed: {exc}"])) from None
    except OSError as exc:
        # A full disk, not the data: MkDocs' own log of the page it was writing adds nothing.
        raise BuildError(f"MkDocs build failed: {printable(str(exc))}") from None
    finally:
        mkdocs_log.removeHandler(collector)
    if strict and collector.messages:
        raise BuildError("\n".join(collector.messages))


class _WarningCollector(logging.Handler):
    """Collects MkDocs warnings, naming the data file a generated page came from."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "reaches end of life" in message or "Zensical" in message:
            return  # Material's banner about its successor, not a problem with this site
        if message.startswith(DIRTY_BUILD_NOTICE):
            return  # asked for (previews): what it warns of is handled there (serve/preview.py)
        self.messages.append(f"MkDocs: {_name_data_file(message)}")


def _name_data_file(message: str) -> str:
    slugs = set(re.findall(r"\bgames/([a-z0-9-]+)/", message))
    if len(slugs) == 1:
        return f"data/games/{slugs.pop()}.yaml: {message}"
    return message
