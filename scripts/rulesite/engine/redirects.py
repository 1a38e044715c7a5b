"""Old URLs of a renamed game: a small static page per old page that sends the reader on.

A game that changed its slug lists the earlier ones (``aliases``); the registry says which
pages each had (``registry.redirects``). Each becomes a static HTML file in the language
project's ``docs/``, which MkDocs copies as it is (like the feed): no search entry, no sitemap
line, no offline copy. The page replaces itself with the current URL, carrying the ``?query``
and ``#anchor`` (a link to a ruling still lands on it); without JavaScript, a meta refresh and
a link do the same minus the anchor. Search engines are told the current URL (canonical) and
not to index the old one.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from rulesite.catalog import Catalog
from rulesite.model import Language
from rulesite.pages import registry

_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<meta name="robots" content="noindex">
<link rel="canonical" href="{href}">
<meta http-equiv="refresh" content="0; url={href}">
<script>location.replace({target} + location.search + location.hash);</script>
</head>
<body>
<p><a href="{href}">{title}</a></p>
</body>
</html>
"""


def redirect_page(target: str, title: str, html_lang: str) -> str:
    """The page at an old URL that points at ``target`` (relative to the old page's folder)."""
    return _PAGE.format(
        lang=html.escape(html_lang),
        title=html.escape(title),
        href=html.escape(target),
        # In a script, "</" could end it early: JSON with "<" escaped is safe there.
        target=json.dumps(target).replace("<", "\\u003c"),
    )


def redirect_pages(catalog: Catalog, language: Language, config: dict[str, Any]) -> dict[str, str]:
    """Every renamed game's old pages in a language project's ``docs/``: path → page."""
    directory_urls = config.get("use_directory_urls", True) is not False
    pages = {}
    for game in catalog.games:
        title = game.title.get(language.code)
        for old, target in registry.redirects(game, directory_urls):
            pages[old] = redirect_page(target, title, language.html_lang)
    return pages


def write_redirects(
    docs_dir: Path, catalog: Catalog, language: Language, config: dict[str, Any]
) -> list[Path]:
    """Write every renamed game's old pages into a language project's ``docs/``."""
    directory_urls = config.get("use_directory_urls", True) is not False
    written = []
    for game in catalog.games:
        title = game.title.get(language.code)
        for old, target in registry.redirects(game, directory_urls):
            path = docs_dir / old
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(redirect_page(target, title, language.html_lang), encoding="utf-8")
            written.append(path)
    return written
