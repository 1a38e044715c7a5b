"""Offline and installable: what a language's site needs for its service worker and web app.

Called by the ``rulesite`` plugin after MkDocs, Material's search and the search split have
written the language's site (``on_post_build``), so everything listed here exists. It writes,
at the language's root (``/`` for the default language, ``<lang>/`` for the others):

- ``manifest.json``: the web app manifest (name, language, colours, icons; start URL and scope
  relative, so the site installs from any sub-path);
- ``offline.json``: what each game's pages need offline, relative to the language root:
  ``{"shared": [...], "games": {slug: [...]}, "site": [...], "about": {slug: {...}}}``, the
  files every game needs once and each game's own (its pages, its search shard), the site-wide
  pages the worker stores at the first visit (home, games index, glossary, topics, the offline
  page) with what they load, and each game's title and overview address (what the offline page
  and the saved-games lists show). A page's needs are what it links and loads
  (stylesheets, scripts, icons, the manifest, the search index: its ``<link>`` and ``<script>``
  elements in the page MkDocs hands the plugin's ``on_post_page``, found as an HTML parser
  finds them, ``page_resources``),
  Material's search worker (among the build's scripts) and the lunr languages that loads. One
  file, not one per game: a live preview, which copies only what a build wrote, then never keeps
  a deleted game's list;
- ``offline.html``: the page the worker shows for a page it has not stored (from the theme's
  ``offline.html``, self-contained because it is shown at any address);
- ``sw.js``: the theme's worker with the build's settings filled in: the build id (a digest of
  what the language's site is built from, so any change installs a new worker), the paths
  under this scope that belong to other languages (their own workers handle them once
  installed) and every language's root relative to this one (a game is saved in all of them).

Each language has its own worker, scoped to its own site: one language's site is a complete
MkDocs site (built, tested and deployable alone), and no build has to see another's files.
Saving a game stores its pages in every language (each language's ``offline.json``, fetched
by the worker at that moment), so the language menu works offline before the other language's
worker is installed: the root worker's scope covers the other languages' folders.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import logging
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from importlib import metadata
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from rulesite.engine import search_split
from rulesite.pages import registry

log = logging.getLogger(f"mkdocs.plugins.{__name__}")

MANIFEST = "manifest.json"
WORKER = "sw.js"
OFFLINE_PAGE = "offline.html"
LISTS = "offline.json"
SEARCH_FOLDER = f"{search_split.SEARCH_DIR}/"
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

_WORKERS = "assets/javascripts/workers/"
"""Where Material keeps its web workers (the search worker) among its theme files."""


def write_offline_files(config: Any, built: BuiltPages, env: Any) -> None:
    """Write the manifest, the games' file lists, the offline page and the worker; ``env``: the
    build's theme environment (MkDocs' ``on_env``)."""
    site = Path(config.site_dir)
    write_manifest(site, config.site_name, config.theme["language"])
    write_offline_page(site, config, env)
    extra_files = [
        MANIFEST,
        *(icon for icon, _, _ in ICONS),
        *search_worker(built.theme_files),
        *search_worker_files(config),
    ]
    previous = previous_lists(site)
    lists = offline_lists(game_files(built, extra_files, previous))
    # The search index (the chunked index's manifest), which every page loads first.
    site_extra = [*extra_files, f"{SEARCH_FOLDER}{search_split.INDEX_FILE}"]
    lists["site"] = site_files(built, site_extra, previous)
    lists["about"] = game_about(built, config.use_directory_urls, previous)
    write_if_changed(site / LISTS, json.dumps(lists, separators=(",", ":"), sort_keys=True) + "\n")
    settings = {"build": build_id(config), "offline": OFFLINE_PAGE, "lists": LISTS}
    settings["skip"] = other_language_paths(config)
    settings["languages"] = language_roots(config)
    write_worker(site, worker_source(config.theme.dirs), settings)


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it: a preview rebuild that changed one game
    leaves these site-wide files (and their times) alone, as it does every other page; a file
    that changes is written new, never into (``search_split.keep_or_write``)."""
    search_split.keep_or_write(path, text.encode())


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


def write_offline_page(site: Path, config: Any, env: Any) -> None:
    """The theme's ``offline.html``, with the language's wording from the generated config,
    rendered in ``env`` (the build's: its compiled templates are kept between builds)."""
    template = env.get_template(OFFLINE_PAGE)
    html = template.render(config=config, theme_colour=THEME_COLOUR)
    write_if_changed(site / OFFLINE_PAGE, html)


@dataclass
class BuiltPages:
    """What the ``rulesite`` plugin saw of a build's pages (its page events)."""

    pages: list[str] = field(default_factory=list)
    """Every page of the build, where MkDocs writes it (``games/x/rules/index.html``), whether or
    not a dirty build writes it this time."""
    loads: dict[str, set[str]] = field(default_factory=dict)
    """Per page written by this build: what it loads, relative to the site root."""
    theme_files: list[str] = field(default_factory=list)
    """The scripts among the build's files (Material's search worker is one)."""
    titles: dict[str, str] = field(default_factory=dict)
    """Per game written by this build: its title (its overview page's, as plain text)."""


def note_page(built: BuiltPages, page: Any, output: str) -> None:
    """What the offline lists need of a page MkDocs has rendered (``on_post_page``)."""
    dest = page.file.dest_uri
    built.loads[dest] = page_resources(output, dest.rpartition("/")[0])
    found = registry.kind_of_url(page.url or "./")
    if found is not None and found[0].name == "overview" and page.title:
        # The front matter's title is HTML-escaped (markup.front_matter): plain text here.
        built.titles[found[1]] = html.unescape(str(page.title))


def site_files(
    built: BuiltPages, extra: Iterable[str], previous: PreviousLists | None = None
) -> list[str]:
    """The site-wide pages the worker stores at the first visit, with what they load."""
    files = {*extra, OFFLINE_PAGE}
    for page in built.pages:
        folder, _, name = page.rpartition("/")
        url = folder + "/" if folder else ""
        found = registry.kind_of_url(url) if name == "index.html" else None
        if found is None or not found[0].offline or found[0].scope is not registry.Scope.SITE:
            continue
        files.add(url or "./")
        if page in built.loads:
            files.update(built.loads[page])
        elif previous is not None:  # a preview's partial build: what it loaded last time
            files.update(previous.site)
    return sorted(files)


def game_about(
    built: BuiltPages, directory_urls: bool, previous: PreviousLists | None = None
) -> dict[str, dict[str, str]]:
    """Per game, its title and its overview's address (relative to the language root)."""
    about = dict(previous.about) if previous is not None else {}
    overview = registry.kind("overview")
    for slug, title in built.titles.items():
        about[slug] = {"title": title, "url": overview.url(slug, directory_urls) or "./"}
    games = {slug for page in built.pages if (slug := registry.game_slug(page))}
    return {slug: about[slug] for slug in sorted(about) if slug in games}


def game_files(
    built: BuiltPages, extra: Iterable[str], previous: PreviousLists | None = None
) -> dict[str, list[str]]:
    """Per game slug, the files its pages need, relative to the site root, sorted.

    A game's list is its pages' folders, ``extra`` and what each of its pages loads. When a
    build did not write every page of a game (a live preview's dirty build writes only the
    games that changed), the lists an earlier build of this folder wrote (``previous``) stand
    in for the pages it did not write. (A whole build writes every page.)
    """
    games: dict[str, list[str]] = {}
    for page in built.pages:
        folder, _, name = page.rpartition("/")
        found = registry.kind_of_url(folder + "/") if name == "index.html" else None
        # The registry says which of a game's pages the worker saves once the game is opened.
        if found is not None and found[0].offline and found[0].scope is registry.Scope.GAME:
            games.setdefault(found[1], []).append(page)
    result: dict[str, list[str]] = {}
    for slug, pages in sorted(games.items()):
        files = set(extra) | {page.rpartition("/")[0] + "/" for page in pages}
        for page in pages:
            files.update(built.loads.get(page, ()))
        if previous is not None and any(page not in built.loads for page in pages):
            files.update(previous.loads(slug))
        # Not filtered by what is on disk: a live preview's partial build holds only the
        # rebuilt games' shards (tests/test_offline.py checks that every listed file exists).
        result[slug] = sorted(files)
    return result


@dataclass(frozen=True)
class PreviousLists:
    """What ``offline.json`` held before this build."""

    games: dict[str, list[str]]
    """Per game, its whole list (the shared files and its own)."""
    site: list[str] = field(default_factory=list)
    """The site-wide pages' list."""
    about: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per game, its title and overview address."""

    def loads(self, slug: str) -> list[str]:
        """What the game's pages loaded then (its list, less its pages' folders)."""
        own = registry.GAME_FOLDER.format(slug=slug)
        return [f for f in self.games.get(slug, []) if not (f.startswith(own) and f.endswith("/"))]


def previous_lists(site: Path) -> PreviousLists | None:
    """The lists an earlier build left in ``site`` (a live preview's folder), if readable."""
    path = site / LISTS
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        shared = list(data["shared"])
        games = {slug: sorted({*shared, *own}) for slug, own in data["games"].items()}
        site_list = [str(file) for file in data.get("site", [])]
        about = {
            str(slug): {"title": str(info["title"]), "url": str(info["url"])}
            for slug, info in dict(data.get("about", {})).items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return PreviousLists(games, site_list, about)


def offline_lists(games: dict[str, list[str]]) -> dict[str, Any]:
    """One file for every game (so a live preview never keeps a deleted game's list): what
    every game's pages need, once, and per game the rest."""
    shared = set.intersection(*(set(files) for files in games.values())) if games else set()
    return {
        "shared": sorted(shared),
        "games": {slug: [f for f in files if f not in shared] for slug, files in games.items()},
    }


_LOADING = {"link", "script"}
"""The elements through which a page loads a file (as MkDocs and Material write them)."""
_URLS = {"src", "href", "data-search-worker", "data-index", "data-shard"}
"""Their attributes that name a file the page loads (``data-*``: search-setup.js's worker, the
search manifest, and the game's search shard the worker searches offline)."""
_SCAN = re.compile(r"<!--|<(link|script|style)(?=[\t\n\r\f />])", re.IGNORECASE)
"""Where a page may load something: a ``<link>`` or ``<script>`` start tag; and what an HTML
parser skips whole: comments, and the text of ``<script>`` and ``<style>`` elements."""
_START_TAG = re.compile(r"""<[a-zA-Z](?:"[^"]*"|'[^']*'|[^'">])*>""")
"""A start tag, to its ``>`` (quoted attribute values may hold one)."""
_COMMENT_END = re.compile(r"--\s*>")
_ELEMENT_END = {
    name: re.compile(rf"</\s*{name}\s*>", re.IGNORECASE) for name in ("script", "style")
}
_TAG_CACHE_SIZE = 20_000
"""Distinct tags whose addresses are kept (the theme writes the same few tags on every page
of a folder depth; a page's own scripts add a few)."""


class _Loads(HTMLParser):
    """The file addresses of one ``<link>`` or ``<script>`` start tag, as an HTML parser reads
    its attributes (quoting, entities, case)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _LOADING:
            self.urls.extend(value for name, value in attrs if name in _URLS and value)

    def of(self, tag: str) -> tuple[str, ...]:
        self.reset()
        self.urls = []
        self.feed(tag)
        return tuple(self.urls)


_parser = _Loads()
_tag_urls: dict[str, tuple[str, ...]] = {}


def page_resources(html: str, folder: str) -> set[str]:
    """What a page at ``folder/`` loads (its links and scripts), relative to the site root.

    The page's ``<link>`` and ``<script>`` start tags, found as an HTML parser finds them (not
    in comments, nor in a script's or a style's text), their attributes read by one; the rest
    of the page is not parsed: a build does this for every page it writes."""
    found: set[str] = set()
    at = 0
    while (match := _SCAN.search(html, at)) is not None:
        if match.group(1) is None:  # a comment: to its end
            end = _COMMENT_END.search(html, match.end())
            at = end.end() if end else len(html)
            continue
        tag = _START_TAG.match(html, match.start())
        if tag is None:
            at = match.end()
            continue
        text, at = tag.group(), tag.end()
        name = match.group(1).lower()
        if name != "style":
            for url in _urls_of(text):
                if path := _site_path(url, folder):
                    found.add(path)
        if name != "link" and not text.endswith("/>"):  # the element's text is not markup
            close = _ELEMENT_END[name].search(html, at)
            at = close.end() if close else len(html)
    return found


def _urls_of(tag: str) -> tuple[str, ...]:
    urls = _tag_urls.get(tag)
    if urls is None:
        if len(_tag_urls) >= _TAG_CACHE_SIZE:
            _tag_urls.clear()
        urls = _tag_urls[tag] = _parser.of(tag)
    return urls


def _site_path(url: str, folder: str) -> str | None:
    # Only this site's own files: no scheme, host or absolute path, nothing above the root.
    if not url or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^/|^#", url):
        return None
    path = url.split("#", 1)[0].split("?", 1)[0]
    joined = posixpath.normpath(posixpath.join(folder, path))
    if joined == "." or joined.startswith("../") or joined == "..":
        return None
    return joined + "/" if path.endswith("/") else joined


def search_worker(theme_files: Iterable[str]) -> list[str]:
    """Material's search worker among the theme's files (its name carries a digest)."""
    return sorted(
        path
        for path in theme_files
        if path.startswith(_WORKERS) and path.endswith(".min.js") and "/search." in path
    )


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


def language_roots(config: Any) -> list[str]:
    """Every language's root relative to this one (``""`` for this one, ``en/``, ``../``)."""
    alternates = (config.extra or {}).get("alternate") or []
    return [str(alt.get("link") or "") for alt in alternates if isinstance(alt, dict)]


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
        digest.update(f"{package}=={_version(package)}\n".encode())
    project = Path(config.config_file_path).parent
    code = Path(rulesite.__file__).parent
    site = Path(config.site_dir).resolve()
    for label, folder in (("project", project), ("rulesite", code)):
        for path in _inputs(folder, site):
            relative = f"{label}/{path.relative_to(folder).as_posix()}"
            digest.update(relative.encode("utf-8") + b"\0" + _file_digest(path))
    return digest.hexdigest()[:16]


@functools.cache
def _version(package: str) -> str:
    # Read once a process: a preview's builds all run one installation.
    return metadata.version(package)


def _inputs(folder: Path, site: Path) -> list[Path]:
    """The files under ``folder`` that ``build_id`` digests, in the order of their paths: not
    in ``site`` (where they really are: a link is followed) and not in ``__pycache__``. Links to
    folders are not followed into, as ``Path.rglob`` does not. Only a link is resolved: a file
    in a real folder is where the folder really is (resolving every file took three quarters
    of this digest's time on the real site: 54 against 12 ms a language)."""
    found: list[Path] = []
    pending = [(folder, folder.resolve())]
    while pending:
        here, real = pending.pop()
        with os.scandir(here) as entries:
            for entry in entries:
                path = here / entry.name
                if entry.is_dir(follow_symlinks=False):
                    pending.append((path, real / entry.name))
                elif entry.is_symlink():
                    if path.is_file() and not path.resolve().is_relative_to(site):
                        found.append(path)
                elif entry.is_file(follow_symlinks=False) and not (
                    real / entry.name
                ).is_relative_to(site):
                    found.append(path)
    return sorted(
        (path for path in found if "__pycache__" not in path.parts), key=lambda path: path.parts
    )


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
