"""A live preview's search index: whole after a dirty build, from the pieces the plugin keeps.

In a dirty build (``mkdocs serve --dirty``, or ``rulesite serve``'s builds of the changed
games) MkDocs renders only some pages, so Material's search plugin indexes only those. Under
``serve`` (the command MkDocs' ``on_startup`` event names) the plugin keeps, beside the site,
Material's entries of every page by page (``PIECES``); a dirty build takes the pages it
rendered from Material's index and every other page from the pieces, in the order of the
build's files, which is the order in which a whole build indexes them. The index the search
split then reads is byte for byte the one a whole build gives Material's search. A whole build
under ``build`` keeps nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger(f"mkdocs.plugins.{__name__}")

PIECES = ".rulesite-search-pieces.json"
"""In the site folder of a build under ``serve``: Material's index entries, by page URL (a
preview never publishes it)."""


def page_of(location: str) -> str:
    """The page URL of an index location (``games/x/rules/#setup`` → ``games/x/rules/``)."""
    return location.partition("#")[0]


def by_page(docs: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Index entries by the URL of their page, each page's in their order."""
    pages: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        pages.setdefault(page_of(doc["location"]), []).append(doc)
    return pages


def whole_index(
    index: dict[str, Any], site_dir: Path, page_urls: Iterable[str], written: set[str]
) -> dict[str, Any]:
    """Material's ``index`` of the pages ``written`` this build, completed with the kept pieces
    of every other page in ``page_urls`` (the build's pages, in build order); the pieces are
    then updated for the next build."""
    fresh = by_page(index["docs"])
    kept = _read(site_dir / PIECES)
    pages: dict[str, list[Any]] = {}
    for url in page_urls:
        docs = fresh.get(url, []) if url in written else kept.get(url)
        if docs is None:
            log.warning("search: no entries kept for %s; rebuild it whole", url or "/")
            docs = []
        pages[url] = docs
    text = json.dumps({"pages": pages}, ensure_ascii=False, separators=(",", ":"))
    (site_dir / PIECES).write_text(text, encoding="utf-8")
    return {**index, "docs": [doc for docs in pages.values() for doc in docs]}


def kept_texts(site_dir: Path) -> Iterator[str]:
    """The title and text of every entry of the pieces kept in ``site_dir`` (none when it has
    none, or they cannot be read): what the next dirty build's split will mostly tokenize."""
    for docs in _read(site_dir / PIECES).values():
        for doc in docs if isinstance(docs, list) else ():
            if isinstance(doc, dict):
                yield from (str(doc.get("title", "")), str(doc.get("text", "")))


def _read(path: Path) -> dict[str, list[Any]]:
    try:
        pages = json.loads(path.read_text(encoding="utf-8"))["pages"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return pages if isinstance(pages, dict) else {}
