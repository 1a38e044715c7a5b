"""Stage 4: gather everything, then write: content/ and site/ change only when all succeeded.

Order: load + validate every file → render every page (in memory) → write the Markdown into a
scratch folder → run MkDocs (strict) from it into a second scratch folder → swap both into place.
A failure at any step leaves the previous ``content/`` and ``site/`` exactly as they were.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesite.errors import BuildError
from rulesite.project import LANGUAGES, Project
from rulesite.render import render_pages
from rulesite.validate import Catalog, load_catalog

log = logging.getLogger("rulesite")

SEARCH_TERMS = ".search-terms.txt"
"""jieba user dictionary in content/ (MkDocs skips dot files, so it is not published)."""


@dataclass(frozen=True)
class BuildReport:
    """What a build produced."""

    pages: int
    """Markdown pages rendered (all languages)."""
    games: int
    """Games in the catalog."""
    seconds: float
    """Wall time of the whole build."""
    site_dir: Path
    """Where the site was written."""


def build(project: Project, site_dir: Path | None = None, strict: bool = True) -> BuildReport:
    """Validate, render and build the site; replace ``site_dir`` only on success."""
    started = time.perf_counter()
    catalog = load_catalog(project)
    pages = render_pages(project, catalog)
    target = (site_dir or project.site_dir).resolve()
    with _scratch_dir(project.root, "build") as scratch:
        docs = scratch / "content"
        write_pages(docs, pages)
        terms = write_search_dictionary(catalog, docs / SEARCH_TERMS)
        built = scratch / "site"
        run_mkdocs(project, catalog, docs, built, terms, strict=strict)
        replace_tree(built, target)
        _install_content(docs, project)
    return BuildReport(len(pages), len(catalog.games), time.perf_counter() - started, target)


def render_content(project: Project) -> int:
    """Validate and write ``content/`` only (used by ``serve``); returns the page count."""
    catalog = load_catalog(project)
    pages = render_pages(project, catalog)
    with _scratch_dir(project.root, "content") as scratch:
        write_pages(scratch, pages)
        write_search_dictionary(catalog, scratch / SEARCH_TERMS)
        _install_content(scratch, project)
    return len(pages)


def _install_content(docs: Path, project: Project) -> None:
    for lang in LANGUAGES:
        replace_tree(docs / lang, project.content_dir / lang)
    (docs / SEARCH_TERMS).replace(project.content_dir / SEARCH_TERMS)


def write_pages(folder: Path, pages: dict[str, str]) -> None:
    """Write rendered pages under ``folder`` (paths are content-relative, '/'-separated)."""
    for relative, text in sorted(pages.items()):
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")


def replace_tree(new: Path, target: Path) -> None:
    """Put ``new`` at ``target``, removing the old tree only after the new one is in place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    old = target.with_name(f".{target.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    try:
        shutil.move(str(new), str(target))
    except BaseException:
        if old.exists() and not target.exists():
            old.rename(target)
        raise
    if old.exists():
        shutil.rmtree(old)


@contextlib.contextmanager
def _scratch_dir(root: Path, purpose: str) -> Iterator[Path]:
    # Inside the project so the final move is a rename on the same file system.
    path = Path(tempfile.mkdtemp(prefix=f".rulesite-{purpose}-", dir=root))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def write_search_dictionary(catalog: Catalog, path: Path) -> Path:
    """A jieba user dictionary of every game's Chinese terms, so they stay whole words."""
    terms = sorted(
        {term for game in catalog.games for term in game.terms}
        | {game.title.zh for game in catalog.games}
    )
    path.write_text(
        "".join(f"{term.replace(' ', '')} 100000\n" for term in terms), encoding="utf-8"
    )
    return path


def run_mkdocs(
    project: Project,
    catalog: Catalog,
    docs_dir: Path,
    site_dir: Path,
    terms_file: Path,
    strict: bool = True,
) -> None:
    """Run a real MkDocs build of ``docs_dir`` into ``site_dir``; warnings fail when strict."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    collector = _WarningCollector(project)
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collector)
    _fresh_jieba()
    try:
        with _source_date_epoch(catalog):
            config = load_config(
                str(project.mkdocs_file),
                docs_dir=str(docs_dir),
                site_dir=str(site_dir),
                strict=strict,
            )
            configure(config, catalog, terms_file)
            config.plugins.on_startup(command="build", dirty=False)
            try:
                mkdocs_build(config)
            finally:
                config.plugins.on_shutdown()
    except (MkDocsException, OSError) as exc:
        raise BuildError("\n".join([*collector.messages, f"MkDocs build failed: {exc}"])) from None
    finally:
        mkdocs_log.removeHandler(collector)
    if strict and collector.messages:
        raise BuildError("\n".join(collector.messages))


def configure(config, catalog: Catalog, terms_file: Path) -> None:
    """Settings that come from the data rather than from ``mkdocs.yml``."""
    i18n = config.plugins.get("i18n")
    if i18n is not None:
        for language in i18n.config.languages:
            settings = getattr(catalog.site, language.locale, None)
            if settings is not None:
                language.site_name = settings.site_name
        config.site_name = catalog.site.zh.site_name
    search = config.plugins.get("material/search")
    if search is not None:
        search.config.jieba_dict_user = str(terms_file)


def _fresh_jieba() -> None:
    with contextlib.suppress(ImportError):
        import jieba

        jieba.setLogLevel(logging.WARNING)
        # Loading user words raises jieba's global word frequencies each time, so a second build
        # in the same process would segment differently; start every build from the stock state.
        jieba.dt.__init__()


@contextlib.contextmanager
def _source_date_epoch(catalog: Catalog) -> Iterator[None]:
    # Dates written into the site (sitemap) must not depend on when the build ran, so two builds
    # of the same data are identical. An explicit SOURCE_DATE_EPOCH wins; otherwise use the
    # newest verification date in the data.
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    newest = max(game.card.verified for game in catalog.games)
    stamp = dt.datetime.combine(newest, dt.time(), tzinfo=dt.UTC).timestamp()
    os.environ["SOURCE_DATE_EPOCH"] = str(int(stamp))
    try:
        yield
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]


class _WarningCollector(logging.Handler):
    """Collects MkDocs warnings, naming the data file a generated page came from."""

    def __init__(self, project: Project) -> None:
        super().__init__(logging.WARNING)
        self.project = project
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "reaches end of life" in message or "Zensical" in message:
            return  # Material's banner about its successor, not a problem with this site
        self.messages.append(f"MkDocs: {_name_data_file(message)}")


def _name_data_file(message: str) -> str:
    import re

    slugs = set(re.findall(r"(?:zh|en)/games/([a-z0-9-]+)/", message))
    if len(slugs) == 1:
        return f"data/games/{slugs.pop()}.yaml: {message}"
    return message
