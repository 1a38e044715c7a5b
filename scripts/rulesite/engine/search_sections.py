"""A page's search entries, exactly as Material's search plugin makes them, at half the cost.

Material's search plugin (``material/search``) cuts each page's HTML into sections (a heading
with an ``id`` and what follows it) with Python's ``html.parser`` and segments Chinese with
jieba, section by section. At 100 games that was 3.5-4 of a Chinese MkDocs build's 8.5-9 CPU
seconds, and 1.7-2 of the English 6.6-7 (measured by building the benchmark's bare projects with
the search plugin on and off): the largest cost of a build after MkDocs' own Markdown.

This module makes the same entries (location, title, text; tags and boost from the page's
front matter) for the HTML MkDocs writes from Markdown, with one regular expression over the
page instead of a parser's call per tag, and each run of Chinese characters segmented once per
build (a glossary term or a question recurs on several pages). The plugin
(``engine/plugin.py``) indexes a page here and tells Material's plugin to skip it through the
page's ``search: exclude`` front matter, Material's documented way to leave a page out. A page
with anything this module does not read exactly as ``html.parser`` does (a comment, a
declaration, a ``<`` that starts no plain tag, a script or style element that never ends) is
left to Material's plugin, so every page's entries are Material's, byte for byte
(``tests/test_search_sections.py`` compares both on every page of the real site, and builds with
this module and without it).

The rules are Material 9's search parser's (``material/plugins/search/plugin.py``, class
``Parser``), including its quirks: elements compare by tag name, so while any element with
the tag of one marked ``data-search-exclude`` is open, nothing is indexed, and the first such
element to close ends the exclusion.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from backrefs import bre

VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
"""Elements that never enclose anything (Material's parser ignores them)."""
KEEP = frozenset(["p", "code", "pre", "li", "ol", "ul", "sub", "sup"])
"""Elements whose tags stay in an entry's text (Material's choice)."""
HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
ALWAYS_SKIPPED = ("object", "script", "style")
"""Elements whose content is never indexed."""
ZWSP = "\u200b"
"""What Material puts around and between the words of a run of Chinese characters."""

_SPACE = r"[\t\n\r\f ]"
_ATTRIBUTE = (
    rf"""{_SPACE}+([^\t\n\r\f "'<>/=]+)"""
    rf"""(?:{_SPACE}*={_SPACE}*("[^"]*"|'[^']*'|[^\t\n\r\f "'<>=`/]+(?=[\t\n\r\f >])))?"""
)
_TOKENS = re.compile(
    rf"""<(?:(?P<start>[a-zA-Z][^\t\n\r\f />\x00]*)(?P<attrs>(?:{_ATTRIBUTE})*)"""
    rf"""{_SPACE}*(?P<close>/?)>"""
    rf"""|/(?P<end>[a-zA-Z][-.a-zA-Z0-9:_]*){_SPACE}*>)|(?P<lt><)"""
)
"""A plain start tag, a plain end tag, or any other ``<`` (which this module does not read)."""
_ATTRS = re.compile(_ATTRIBUTE)
RAW_TEXT = {
    tag: re.compile(rf"</{_SPACE}*{tag}{_SPACE}*>", re.IGNORECASE) for tag in ("script", "style")
}
"""Elements whose content is raw text up to their end tag: where that end is, as
``html.parser`` finds it."""
READ_VALUES = frozenset(("id", "class"))
"""The only attributes whose values matter here (a heading's id, a permalink's class)."""
_HAN = bre.compile_search(r"(\p{script: Han}+)", bre.UNICODE)
"""A run of Chinese characters, as Material finds them (``backrefs``' Unicode script class)."""


class Unread(Exception):
    """The page holds HTML this module does not read as ``html.parser`` does."""


@dataclass
class Section:
    """A heading with an ``id`` and what follows it, up to the next one."""

    tag: str
    """The heading's tag (``h2``), or ``hx`` for what comes before the first heading."""
    depth: int = 0
    """How many elements were open at the heading (itself included)."""
    id: str | None = None
    """The heading's ``id`` (none for the page's first section)."""
    excluded: bool = False
    """The heading is marked ``data-search-exclude``."""
    title: list[str] = field(default_factory=list)
    """The heading's text, in pieces."""
    text: list[str] = field(default_factory=list)
    """What follows the heading, in pieces."""


def _attributes(text: str) -> dict[str, str | None]:
    """A start tag's attributes, as ``html.parser`` reads them (names in lower case, the last
    of a repeated name wins, entities decoded in the values read here)."""
    found: dict[str, str | None] = {}
    for match in _ATTRS.finditer(text):
        name, value = match.group(1).lower(), match.group(2)
        if value is not None and name in READ_VALUES:
            if value[:1] in "'\"":
                value = value[1:-1]
            value = html.unescape(value) if "&" in value else value
        found[name] = value
    return found


class _Reader:
    """Material's section rules over a page's tags and text (one page)."""

    def __init__(self) -> None:
        self.open: list[str] = []  # the open elements' tags, outermost first
        self.headerlinks: list[bool] = []  # each open element: a heading's permalink?
        self.skip: set[str] = set(ALWAYS_SKIPPED)
        self.section: Section | None = None
        self.sections: list[Section] = []

    def start(self, tag: str, attrs: dict[str, str | None]) -> None:
        if tag in VOID:
            return
        self.open.append(tag)
        self.headerlinks.append(tag == "a" and attrs.get("class") == "headerlink")
        if tag in HEADINGS and "id" in attrs:
            depth = len(self.open)
            if tag != "h1" and not self.sections:
                self.sections.append(Section("hx", depth))
            section = Section(tag, depth, excluded="data-search-exclude" in attrs)
            if self.sections:
                section.id = attrs["id"]
            self.sections.append(section)
            self.section = section
        section = self._current()
        for key, value in attrs.items():
            if key == "data-search-exclude" or (key == "class" and value == "linenodiv"):
                self.skip.add(tag)
                return
        if tag in KEEP and self.skip.isdisjoint(self.open):
            self._pieces(section).append(f"<{tag}>")

    def end(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            return
        section = self._current()
        if section.depth > len(self.open):  # a heading nested in an element that closes
            for earlier in reversed(self.sections):
                if earlier.depth <= len(self.open):
                    section.depth = 1 << 62  # never returned to
                    self.section = section = earlier
                    break
        self.open.pop()
        self.headerlinks.pop()
        if tag in self.skip:
            if tag not in ALWAYS_SKIPPED:
                self.skip.remove(tag)
            return
        if tag in KEEP and self.skip.isdisjoint(self.open):
            pieces = self._pieces(section)
            opened = pieces.index(f"<{tag}>")
            if _blank_from(pieces, opened + 1):
                del pieces[opened:]  # an element with nothing in it leaves nothing
            else:
                pieces.append(f"</{tag}>")

    def data(self, text: str) -> None:
        if not self.skip.isdisjoint(self.open):
            return
        if "pre" not in self.open:
            text = " " if text.isspace() else text.replace("\n", " ")
        section = self._current()
        if section.tag in self.open:
            if not any(self.headerlinks):
                section.title.append(html.escape(text, quote=False))
        elif text.isspace():
            if not section.text or not section.text[-1].isspace() or "pre" in self.open:
                section.text.append(text)
        else:
            section.text.append(html.escape(text, quote=False))

    def _current(self) -> Section:
        if self.section is None:
            self.section = Section("hx")
            self.sections.append(self.section)
        return self.section

    def _pieces(self, section: Section) -> list[str]:
        return section.title if section.tag in self.open else section.text


def _decoded(text: str) -> str:
    """Text between tags with its character references decoded, as ``html.parser`` hands it."""
    return html.unescape(text) if "&" in text else text


def _blank_from(pieces: list[str], start: int) -> bool:
    """Whether every piece from ``start`` on is white space (looked at up to the first that is
    not: a long section's pieces are not copied at each closing tag)."""
    return not any(not pieces[at].isspace() for at in range(start, len(pieces)))


def sections(page_html: str) -> list[Section]:
    """The page's sections, as Material's search parser cuts them; raises Unread for HTML
    it would read differently."""
    reader = _Reader()
    at = 0
    while (match := _TOKENS.search(page_html, at)) is not None:
        if match.start() > at:
            reader.data(_decoded(page_html[at : match.start()]))
        at = match.end()
        start, attrs, close, end, other = match.group("start", "attrs", "close", "end", "lt")
        if end is not None:
            reader.end(end.lower())
            continue
        if other is not None:
            raise Unread("a comment, a declaration or a < that starts no plain tag")
        tag = start.lower()
        reader.start(tag, _attributes(attrs) if attrs else {})
        if close:  # <tag/>: opened and closed at once
            reader.end(tag)
        elif tag in RAW_TEXT:  # text up to its end tag (never indexed)
            closing = RAW_TEXT[tag].search(page_html, at)
            if closing is None:
                raise Unread(f"a {tag} element that never ends")
            if closing.start() > at:
                reader.data(page_html[at : closing.start()])
            reader.end(tag)
            at = closing.end()
    if at < len(page_html):
        reader.data(_decoded(page_html[at:]))
    return reader.sections


class Segmenter:
    """Chinese runs in a text segmented as Material does (jieba's words between zero-width
    spaces), each distinct run once: jieba's dictionary does not change within a build."""

    def __init__(
        self, cut: Callable[[str], Iterable[str]], known: dict[str, str] | None = None
    ) -> None:
        self._cut = cut
        self._runs: dict[str, str] = known if known is not None else {}
        """Each run segmented (``known``: runs another process segmented ahead and adds to)."""

    def __call__(self, text: str) -> str:
        return _HAN.sub(self._run, text).strip(ZWSP)

    def _run(self, match: re.Match[str]) -> str:
        run = match.group(0)
        done = self._runs.get(run)
        if done is None:
            done = self._runs[run] = segmented(self._cut, run)
        return done


def han_runs(text: str) -> Iterator[str]:
    """The runs of Chinese characters in ``text``, as the Segmenter finds them."""
    return (match.group(0) for match in _HAN.finditer(text))


def segmented(cut: Callable[[str], Iterable[str]], run: str) -> str:
    """One run of Chinese characters as the index holds it: jieba's words between zero-width
    spaces."""
    return ZWSP + ZWSP.join(cut(run)) + ZWSP


def _toc_url(toc: Iterable[Any], anchor: str | None) -> str | None:
    """The URL of the table of contents' item with this id, searched depth first."""
    for item in toc:
        if item.id == anchor:
            return item.url
        found = _toc_url(item.children, anchor)
        if found is not None:
            return found
    return None


def entries(
    page_html: str,
    url: str,
    toc: Iterable[Any],
    meta: Mapping[str, Any],
    title: object,
    segment: Callable[[str], str] | None,
) -> list[dict[str, Any]]:
    """The search entries of a page (its HTML, URL, table of contents, front matter and
    title), in Material's shape; raises Unread for a page to leave to Material's plugin."""
    search = meta.get("search") or {}
    if search.get("exclude"):
        return []
    tags = meta.get("tags")
    made = []
    for section in sections(page_html):
        if section.excluded:
            continue
        anchor = _toc_url(toc, section.id)
        location = url + anchor if anchor else (f"{url}#{section.id}" if section.id else url)
        heading = "".join(section.title or [str(meta.get("title", title))]).strip()
        text = "".join(section.text).strip()
        if segment is not None:
            heading, text = segment(heading), segment(text)
        entry: dict[str, Any] = {"location": location, "title": heading, "text": text}
        if isinstance(tags, list):
            entry["tags"] = [
                str(name) for name in tags if name and isinstance(name, (str, int, float, bool))
            ]
        if "boost" in search:
            entry["boost"] = search["boost"]
        made.append(entry)
    return made
