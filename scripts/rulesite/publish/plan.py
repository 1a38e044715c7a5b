"""What one language's build must do after an edit: whole, or the changed games' pages.

Shared by the preview (``serve/preview.py``) and the build from the cache
(``publish/incremental.py``), which plan their dirty builds alike.

A dirty build writes the same HTML for a page as a whole build does: every page is in its file
list, so links resolve as in a whole build; the navigation lists only the site-wide pages, each
with its title given in the settings (``engine/projects.py``), so MkDocs writes every page's
navigation without reading the pages it lists, and a site-wide page is rebuilt only when its
own Markdown changed; and every page of a changed game is rebuilt, since a game's pages link to
each other's headings. A change to the settings (the titles among them) rebuilds everything.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from rulesite.engine.projects import CONFIG_FILE, DOCS_DIR, THEME_DIR
from rulesite.pages import registry


@dataclass(frozen=True)
class Plan:
    """What one language's build must do."""

    lang: str
    """The language's code."""
    whole: bool
    """Build everything (settings or theme changed, or the last build failed)."""
    pages: tuple[str, ...] = ()
    """Pages to rebuild (paths under ``docs/``), in a dirty build."""
    removed: tuple[str, ...] = ()
    """Pages that are gone (paths under ``docs/``)."""
    removed_games: tuple[str, ...] = ()
    """Games that are gone (slugs): their search shards go too."""
    use_directory_urls: bool = True
    """As the language's settings say: where MkDocs writes a page."""

    @property
    def markdown_pages(self) -> int:
        """How many Markdown pages a dirty build rebuilds (not the static files with them)."""
        return sum(page.endswith(".md") for page in self.pages)


def plan_language(
    lang: str,
    changed: Collection[str],
    present: Collection[str],
    config: dict[str, Any],
    stale: bool,
    whole_for: Collection[str] = (),
) -> Plan | None:
    """The build of ``lang`` after the files ``changed`` (paths under ``content/<lang>/``), with
    ``present`` the files of its ``docs/`` now and ``config`` its settings; None: no build.
    ``stale``: its site may not match its files (never built, or the last build failed).
    ``whole_for``: other files of the language's project whose change needs a whole build."""
    if not changed and not stale:
        return None
    if (
        stale
        or CONFIG_FILE in changed
        or any(path.startswith(f"{THEME_DIR}/") or path in whole_for for path in changed)
        or not isinstance(config.get("nav"), list)  # then every page is in every page's nav
    ):
        return Plan(lang, whole=True)
    docs = f"{DOCS_DIR}/"
    touched = {path.removeprefix(docs) for path in changed if path.startswith(docs)}
    present = set(present)
    groups = {group(page) for page in touched & present}
    rebuild = {page for page in present if group(page) in groups}
    removed = touched - present
    gone = {group(page) for page in removed} - {group(page) for page in present}
    return Plan(
        lang,
        whole=False,
        pages=tuple(sorted(rebuild & present)),
        removed=tuple(sorted(removed)),
        removed_games=tuple(sorted(slug for g in gone if (slug := _game_of_group(g)))),
        use_directory_urls=config.get("use_directory_urls", True) is not False,
    )


def group(page: str) -> str:
    """Pages rebuilt together: a game's pages (they link to each other's headings, and the
    registry keeps them in the game's folder), or one page alone."""
    slug = registry.game_slug(page)
    return registry.GAME_FOLDER.format(slug=slug) if slug else page


def _game_of_group(group_: str) -> str | None:
    """The slug of a group that is a game's folder (``games/<slug>/``), else None."""
    slug = registry.game_slug(group_)
    return slug if slug and group_ == registry.GAME_FOLDER.format(slug=slug) else None


def page_output(page: str, use_directory_urls: bool) -> str:
    """Where MkDocs writes ``page`` (a path under ``docs/``), relative to the site."""
    from mkdocs.structure.files import File

    return File(page, None, None, use_directory_urls).dest_uri


def settings(files: Mapping[str, str | bytes], lang: str) -> dict[str, Any]:
    """The language's generated settings (written by ``engine/projects.py``: plain YAML)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        config = yaml.load(files.get(f"{lang}/{CONFIG_FILE}", b"{}"), Loader=loader)
    except yaml.YAMLError:
        config = None
    return config if isinstance(config, dict) else {}


def in_docs(pages: dict[str, str]) -> dict[str, str | bytes]:
    """Rendered pages (``<lang>/<page>``) by their path under ``content/``."""
    found: dict[str, str | bytes] = {}
    for relative, text in pages.items():
        lang, _, page = relative.partition("/")
        found[f"{lang}/{DOCS_DIR}/{page}"] = text
    return found


def is_game_page(page: str) -> bool:
    """Whether ``page`` (a path under ``docs/``) is one of a game's own pages."""
    return group(page) != page
