"""The Atom feeds: every game's "What changed" entries, one feed per language (RFC 4287).

Each language's site gets ``feed.xml`` at its root (``/feed.xml``, ``/en/feed.xml``), written into
its generated MkDocs project's ``docs/`` (a static file: MkDocs copies it as it is), so a build,
``rulesite assemble`` and the preview all publish the same bytes.

- Entries: every game's changes, newest first, at most :data:`FEED_LIMIT`; ``updated`` is the
  change's date (midnight UTC), so the same data gives the same feed (no build time in it).
- Ids are what a feed reader keys on to tell a new entry from one it has shown: they are
  ``urn:uuid:`` names derived from the language, the game's slug and the change's permanent id
  (``uuid5``). They do not depend on where the site is published, so moving the site or
  setting ``RULESITE_SITE_URL`` never makes readers show old entries again.
- Links: with a site URL (``site_url`` in ``mkdocs.yml``, ``RULESITE_SITE_URL``) they are
  absolute. Without one they are relative references, which RFC 4287 (section 2, ``xml:base``)
  and RFC 3986 (5.1.3) resolve against the feed's own address: the feed still works at the
  root, under a sub-path or on any host, like the site's pages.
- Text: data is Markdown; titles and summaries are plain text, the content is the page's own
  sanitized HTML (``markup.py``) carried as escaped text (``type="html"``). ElementTree escapes
  everything it writes, so no data text ever becomes XML markup.
"""

from __future__ import annotations

import datetime as dt
import html
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesite import markup
from rulesite.catalog import Catalog
from rulesite.model import Change, Game, Language
from rulesite.pages import registry
from rulesite.render.renderer import Labels

FEED_FILE = registry.kind("feed").url()
"""The feed's file at each language's site root (the registry's ``feed`` kind)."""
FEED_LIMIT = 50
"""Most entries in a feed: the newest changes across all games."""
ATOM_NS = "http://www.w3.org/2005/Atom"
XML_NS = "http://www.w3.org/XML/1998/namespace"
_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/rulesite/rulesite#feed")
"""Namespace of the name-based UUIDs of feeds and entries (fixed: ids must never change)."""


@dataclass(frozen=True)
class FeedContext:
    """What one language's feed needs besides the data."""

    lang: str
    """Language code."""
    site_url: str
    """Absolute address of the language's site root, ending in ``/``; ``""`` when no site URL
    is configured (links are then relative to the feed, which sits at that root)."""
    site_name: str
    """The site's name in this language (plain text)."""
    tagline: str
    """The site's tagline in this language (Markdown)."""
    directory_urls: bool = True
    """As ``use_directory_urls``: ``games/x/`` or ``games/x/index.html``."""
    xml_lang: str = ""
    """The language's tag for ``xml:lang`` (its ``html_lang``); the code when empty."""

    def page(self, slug: str, page: str = "overview") -> str:
        """Address of a game's page of kind ``page`` (``overview``, ``rules``, ``faq``)."""
        return self.site_url + registry.kind(page).url(slug, self.directory_urls)


def entry_id(lang: str, slug: str, change_id: str) -> str:
    """The permanent Atom id of one change in one language's feed."""
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'change/{lang}/{slug}/{change_id}')}"


def feed_id(lang: str) -> str:
    """The permanent Atom id of one language's feed."""
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'feed/{lang}')}"


def newest_changes(games: list[Game], limit: int = FEED_LIMIT) -> list[tuple[Game, Change]]:
    """Every game's changes, newest first (games by slug, then as listed), at most ``limit``."""
    entries = [
        (game, change) for game in sorted(games, key=lambda g: g.slug) for change in game.changes
    ]
    # sorted() is stable: entries of one date keep the games' order and each file's own order.
    return sorted(entries, key=lambda entry: entry[1].date, reverse=True)[:limit]


def _timestamp(date: dt.date) -> str:
    return f"{date.isoformat()}T00:00:00Z"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM_NS}}}{tag}", attrs)
    if text is not None:
        element.text = text
    return element


def feed_xml(catalog: Catalog, context: FeedContext) -> bytes:
    """One language's feed as bytes (UTF-8, with the XML declaration)."""
    lang = context.lang
    t = Labels(catalog.site, lang)
    entries = newest_changes(catalog.games)
    ET.register_namespace("", ATOM_NS)
    feed = ET.Element(f"{{{ATOM_NS}}}feed", {f"{{{XML_NS}}}lang": context.xml_lang or lang})
    _sub(feed, "id", feed_id(lang))
    _sub(feed, "title", markup.plain(t("feed_title", site=context.site_name)), type="text")
    _sub(feed, "subtitle", markup.plain(markup.inline(context.tagline)), type="text")
    # Without any change yet, the newest verification date: still from the data, reproducible.
    updated = entries[0][1].date if entries else max(g.card.verified for g in catalog.games)
    _sub(feed, "updated", _timestamp(updated))
    author = _sub(feed, "author")
    _sub(author, "name", context.site_name)
    _sub(feed, "link", rel="self", type="application/atom+xml", href=context.site_url + FEED_FILE)
    _sub(feed, "link", rel="alternate", type="text/html", href=context.site_url or "./")
    for game, change in entries:
        _entry(feed, game, change, context, t)
    ET.indent(feed, space="  ")
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


def _entry(feed: ET.Element, game: Game, change: Change, context: FeedContext, t: Labels) -> None:
    lang = context.lang
    entry = _sub(feed, "entry")
    _sub(entry, "id", entry_id(lang, game.slug, change.id))
    kind = t(f"change_kind_{change.kind.value}")
    title = t("feed_entry_title", title=markup.inline(game.title.get(lang)), kind=kind)
    _sub(entry, "title", markup.plain(title), type="text")
    _sub(entry, "updated", _timestamp(change.date))
    _sub(entry, "published", _timestamp(change.date))
    link = f"{context.page(game.slug)}#change-{change.id}"
    _sub(entry, "link", rel="alternate", type="text/html", href=link)
    _sub(entry, "category", term=change.kind.value, label=markup.plain(kind))
    text = change.text.get(lang)
    _sub(entry, "summary", markup.plain(markup.block(text)), type="text")
    _sub(entry, "content", _content_html(game, change, context, t), type="html")


def _content_html(game: Game, change: Change, context: FeedContext, t: Labels) -> str:
    """The change as HTML: its text as the page shows it, then links to the rule sections and
    rulings it affects and the sources it cites."""
    lang = context.lang
    parts = [str(markup.block(change.text.get(lang)))]
    sections = {rule.id: rule for rule in game.rules}
    rulings = {ruling.id: ruling for ruling in game.faq}
    groups = [
        ("change_rules", "rules", [(sections[i].title.get(lang), i) for i in change.rules]),
        ("change_faq", "faq", [(rulings[i].question.get(lang), i) for i in change.faq]),
    ]
    for label, page, targets in groups:
        if not targets:
            continue
        links = " · ".join(
            f'<a href="{html.escape(f"{context.page(game.slug, page)}#{anchor}")}">'
            f"{markup.inline(name)}</a>"
            for name, anchor in targets
        )
        parts.append(f"<p>{t(label)}{t('colon')}{links}</p>")
    sources = {source.id: source for source in game.sources if source.id}
    cited = []
    for cite in change.cites:
        source = sources[cite.source]
        name = markup.inline(source.name.get(lang))
        if source.url:
            name = markup.link(name, source.url)
        if cite.where:
            name = t("change_cite_where", source=name, where=markup.inline(cite.where.get(lang)))
        cited.append(str(name))
    if cited:
        parts.append(f"<p>{t('change_cites')}{t('colon')}{' · '.join(cited)}</p>")
    return "\n".join(parts)


def feed_context(language: Language, config: dict[str, Any]) -> FeedContext:
    """The context of a language's feed from its generated MkDocs settings (``site_url`` is
    that language's site root there, when the base settings have one)."""
    site_url = str(config.get("site_url") or "")
    return FeedContext(
        lang=language.code,
        site_url=site_url.rstrip("/") + "/" if site_url else "",
        site_name=language.site_name,
        tagline=language.tagline,
        directory_urls=config.get("use_directory_urls", True) is not False,
        xml_lang=language.html_lang,
    )


def write_feed(
    docs_dir: Path, catalog: Catalog, language: Language, config: dict[str, Any]
) -> Path:
    """Write ``feed.xml`` into a language project's ``docs/`` (``config``: its MkDocs settings)."""
    path = docs_dir / FEED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(feed_xml(catalog, feed_context(language, config)))
    return path
