"""Offline and installable: what a language's site needs for its service worker and web app.

Called by the ``rulesite`` plugin after MkDocs, Material's search and the search split have
written the language's site (``on_post_build``), so everything listed here exists. It writes,
at the language's root (``/`` for the default language, ``<lang>/`` for the others):

- ``manifest.json``: the web app manifest (name, language, colours, icons; start URL and scope
  relative, so the site installs from any sub-path);
- ``offline.json``: what each game's pages need offline, relative to the language root:
  ``{"shared": [...], "games": {slug: [...]}}``, the files every game needs once and each
  game's own (its pages, its search shard). A page's needs are what it links and loads
  (stylesheets, scripts, icons, the manifest, the search index), Material's search worker and
  the lunr languages that loads. One file, not one per game: a live preview, which copies only
  what a build wrote, then never keeps a deleted game's list;
- ``offline.html``: the page the worker shows for a page it has not stored (from the theme's
  ``offline.html``, self-contained because it is shown at any address);
- ``sw.js``: the theme's worker with the build's settings filled in: the build id (a digest of
  what the language's site is built from, so any change installs a new worker) and the paths
  under this scope that belong to other languages (their own workers handle them).

Each language has its own worker, scoped to its own site: one language's site is a complete
MkDocs site (built, tested and deployable alone), and no build has to see another's files.
"""

from __future__ import annotations

import hashlib
import json
import logging
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

log = logging.getLogger(f"mkdocs.plugins.{__name__}")

MANIFEST = "manifest.json"
WORKER = "sw.js"
OFFLINE_PAGE = "offline.html"
LISTS = "offline.json"
ICONS = (
    ("assets/icons/icon-192.png", "192x192", "any"),
    ("assets/icons/icon-512.png", "512x512", "any"),
    ("assets/icons/icon-maskable-512.png", "512x512", "maskable"),
)
"""The theme's icons (drawn by scripts/make_icons.py): path, size, purpose."""
THEME_COLOUR = "#00695c"
"""The header's teal, ``--md-primary-fg-color`` in assets/rulesite.css."""
BACKGROUND_COLOUR = "#ffffff"
"""The page background of Material's light scheme, shown while an installed app starts."""
_SETTINGS_MARK = "__RULESITE_OFFLINE__"
"""Where the worker's source takes its settings (unfilled, the worker fails to start)."""

_TAG = re.compile(r"<(?:link|script)\b[^>]*>")  # as MkDocs and Material write them
_ATTRIBUTE = re.compile(r'\s(src|href|data-index|data-shard)="([^"]*)"')
_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)


def write_offline_files(config: Any) -> None:
    """Write the manifest, the games' file lists, the offline page and the worker."""
    site = Path(config.site_dir)
    write_manifest(site, config.site_name, config.theme["language"])
    write_offline_page(site, config)
    extra_files = [MANIFEST, *(icon for icon, _, _ in ICONS), *search_worker_files(config)]
    lists = offline_lists(game_files(site, extra_files, previous_lists(site)))
    write_if_changed(site / LISTS, json.dumps(lists, separators=(",", ":"), sort_keys=True) + "\n")
    settings = {"build": build_id(config), "offline": OFFLINE_PAGE, "lists": LISTS}
    settings["skip"] = other_language_paths(config)
    write_worker(site, worker_source(config.theme.dirs), settings)


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it: a preview rebuild that changed one game
    leaves these site-wide files (and their times) alone, as it does every other page."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    path.write_text(text, encoding="utf-8", newline="\n")


def manifest(name: str, lang: str) -> dict[str, Any]:
    """The web app manifest of a language's site."""
    return {
        "id": "./",
        "name": name,
        "short_name": name,
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": src, "sizes": sizes, "type": "image/png", "purpose": purpose}
            for src, sizes, purpose in ICONS
        ],
    }


def write_manifest(site: Path, name: str, lang: str) -> None:
    text = json.dumps(manifest(name, lang), ensure_ascii=False, indent=1)
    write_if_changed(site / MANIFEST, text + "\n")


def write_offline_page(site: Path, config: Any) -> None:
    """The theme's ``offline.html``, with the language's wording from the generated config."""
    template = config.theme.get_env().get_template(OFFLINE_PAGE)
    html = template.render(config=config, theme_colour=THEME_COLOUR)
    write_if_changed(site / OFFLINE_PAGE, html)


def game_files(
    site: Path, extra: Iterable[str], previous: PreviousLists | None = None
) -> dict[str, list[str]]:
    """Per game slug, the files its pages need, relative to the site root, sorted.

    With the lists an earlier build of this folder wrote (``previous``), a game none of whose
    pages was written since keeps its list: a live preview's partial build reads only the pages
    it rebuilt. (A whole build starts from an empty folder, so it reads every page.)
    """
    result: dict[str, list[str]] = {}
    games = site / "games"
    for game in sorted(p for p in games.iterdir() if p.is_dir()) if games.is_dir() else []:
        pages = sorted(game.rglob("index.html"))
        if not pages:
            continue
        folders = {page.parent.relative_to(site).as_posix() + "/" for page in pages}
        kept = previous.unchanged(game.name, pages, folders) if previous else None
        if kept is not None:
            result[game.name] = kept
            continue
        files = set(extra) | folders
        for page in pages:
            folder = page.parent.relative_to(site).as_posix()
            files.update(page_resources(page.read_text(encoding="utf-8"), folder))
        # Not filtered by what is on disk: a live preview's partial build holds only the
        # rebuilt games' shards (tests/test_offline.py checks that every listed file exists).
        result[game.name] = sorted(files)
    return result


@dataclass(frozen=True)
class PreviousLists:
    """What ``offline.json`` held before this build, and when it was written."""

    games: dict[str, list[str]]
    """Per game, its whole list (the shared files and its own)."""
    written_ns: int
    """The file's modification time (ns)."""

    def unchanged(self, slug: str, pages: list[Path], folders: set[str]) -> list[str] | None:
        """The game's earlier list, if it has the same pages and none was written since."""
        files = self.games.get(slug)
        if files is None:
            return None
        if folders != {f for f in files if f.startswith(f"games/{slug}/") and f.endswith("/")}:
            return None
        if any(page.stat().st_mtime_ns >= self.written_ns for page in pages):
            return None
        return files


def previous_lists(site: Path) -> PreviousLists | None:
    """The lists an earlier build left in ``site`` (a live preview's folder), if readable."""
    path = site / LISTS
    try:
        written_ns = path.stat().st_mtime_ns
        data = json.loads(path.read_text(encoding="utf-8"))
        shared = list(data["shared"])
        games = {slug: sorted({*shared, *own}) for slug, own in data["games"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return PreviousLists(games, written_ns)


def offline_lists(games: dict[str, list[str]]) -> dict[str, Any]:
    """One file for every game (so a live preview never keeps a deleted game's list): what
    every game's pages need, once, and per game the rest."""
    shared = set.intersection(*(set(files) for files in games.values())) if games else set()
    return {
        "shared": sorted(shared),
        "games": {slug: [f for f in files if f not in shared] for slug, files in games.items()},
    }


def page_resources(html: str, folder: str) -> set[str]:
    """What a page at ``folder/`` loads (its links and scripts), relative to the site root."""
    found: set[str] = set()
    for tag in _TAG.finditer(html):
        for _, value in _ATTRIBUTE.findall(tag.group(0)):
            path = _site_path(value, folder)
            if path:
                found.add(path)
    config = _CONFIG.search(html)
    if config:
        worker = json.loads(config.group(1)).get("search")
        path = _site_path(worker, folder) if isinstance(worker, str) else None
        if path:
            found.add(path)
    return found


def _site_path(url: str, folder: str) -> str | None:
    # Only this site's own files: no scheme, host or absolute path, nothing above the root.
    if not url or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^/|^#", url):
        return None
    path = url.split("#", 1)[0].split("?", 1)[0]
    joined = posixpath.normpath(posixpath.join(folder, path))
    if joined == "." or joined.startswith("../") or joined == "..":
        return None
    return joined + "/" if path.endswith("/") else joined


def search_worker_files(config: Any) -> list[str]:
    """The lunr files Material's search worker loads for the search plugin's languages."""
    langs: list[str] = []
    for name, plugin in config.plugins.items():
        if name.endswith("search") and hasattr(plugin.config, "lang"):
            langs = list(plugin.config.lang or [])
    base = "assets/javascripts/lunr"
    files = [f"{base}/min/lunr.stemmer.support.min.js"]
    for lang in langs:
        if lang == "ja":
            files.append(f"{base}/tinyseg.js")
        if lang in ("hi", "th"):
            files.append(f"{base}/wordcut.js")
        if lang != "en":
            files.append(f"{base}/min/lunr.{lang}.min.js")
    if len(langs) > 1:
        files.append(f"{base}/min/lunr.multi.min.js")
    return files


def other_language_paths(config: Any) -> list[str]:
    """Paths under this language's root that are other languages' sites (``en/``)."""
    alternates = (config.extra or {}).get("alternate") or []
    links = [str(alt.get("link") or "") for alt in alternates if isinstance(alt, dict)]
    return sorted(link for link in links if link and not link.startswith("../"))


def worker_source(theme_dirs: Iterable[str]) -> str:
    """The theme's ``sw.js`` (the first theme folder that has one: the site's overrides)."""
    for folder in theme_dirs:
        path = Path(folder) / WORKER
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise PluginError(f"no {WORKER} in the theme folders")


def build_id(config: Any) -> str:
    """What the language's site is built from: it changes when the site does.

    A digest of the generated project (its ``mkdocs.yml``, pages, theme and word lists), the
    generator's code and the versions of MkDocs and Material. The inputs rather than the
    output: a live preview's partial builds and a whole build of the same project agree.
    """
    import rulesite

    digest = hashlib.sha256()
    for package in ("mkdocs", "mkdocs-material"):
        digest.update(f"{package}=={metadata.version(package)}\n".encode())
    project = Path(config.config_file_path).parent
    code = Path(rulesite.__file__).parent
    site = Path(config.site_dir).resolve()
    for label, folder in (("project", project), ("rulesite", code)):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.resolve().is_relative_to(site):
                continue
            if "__pycache__" in path.parts:
                continue
            relative = f"{label}/{path.relative_to(folder).as_posix()}"
            digest.update(relative.encode("utf-8") + b"\0" + _file_digest(path))
    return digest.hexdigest()[:16]


def _file_digest(path: Path) -> bytes:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").digest()


def write_worker(site: Path, source: str, settings: dict[str, Any]) -> None:
    """``sw.js`` with its settings filled in."""
    if _SETTINGS_MARK not in source:
        raise PluginError(f"the theme's {WORKER} has no {_SETTINGS_MARK} to fill in")
    text = source.replace(_SETTINGS_MARK, json.dumps(settings, sort_keys=True), 1)
    write_if_changed(site / WORKER, text)
    log.debug("wrote %s (build %s)", site / WORKER, settings["build"])
