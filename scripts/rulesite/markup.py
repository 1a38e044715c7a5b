"""Data text → safe HTML fragments that sit inside the generated Markdown pages.

Every text in ``data/`` is Markdown written by an editor, and editors are not trusted with the
page. So data text is never handed to MkDocs' Markdown (which has ``attr_list`` and
``md_in_html`` for the templates' sake). It is rendered here instead:

1. with a restricted Markdown configuration: no raw HTML, no attribute lists, no headings
   (a heading would claim a place in the page outline and an anchor);
2. cleaned with an allow-list that fits data text (links, emphasis, code, lists, tables):
   no ``id``, ``class``, ``title``, ``style`` or ``data-*`` attribute survives, and links go
   to ``http``/``https`` addresses or to an anchor on the same page;
3. made *inert*: in text, every character that Markdown or one of its extensions reacts to
   is written as a character reference, so once the fragment is inside a page, no part of it
   can become a link, an attribute list ``{: }``, a table cell separator or emphasis.

Templates mark the results with :class:`markupsafe.Markup`; anything a template prints that is
not ``Markup`` is escaped by :func:`inert_text` (see ``render.make_environment``).
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Mapping
from html.parser import HTMLParser

import markdown
import nh3
from markdown.extensions.tables import TableExtension
from markupsafe import Markup

BLOCK_TAGS = {
    "a", "blockquote", "br", "code", "em", "hr", "li", "ol", "p", "pre", "strong", "table",
    "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
"""What data text may become: paragraphs, emphasis, code, links, lists, quotes and tables."""

INLINE_TAGS = {"a", "br", "code", "em", "strong"}
"""What a one-line data text (a title, a question, a table cell) may become."""

ATTRIBUTES = {"a": {"href"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}
"""The only attributes data text may produce (nh3 adds ``rel`` to links)."""

_MARKDOWN_SPECIALS = "\\`*_[]{}<>&|~^"
"""Characters written as references in text: everything that starts Markdown syntax in the middle
of a line (emphasis, code, links, escapes, ``{: #id }`` attribute lists, table cells, raw HTML,
and the ``~``/``^`` of common extensions). Line-start syntax (``#``, ``-``, ``1.``) cannot occur:
fragments never start a line of the page."""

_TEXT_ESCAPES = {ord(c): f"&#{ord(c)};" for c in _MARKDOWN_SPECIALS} | {
    0x02: "",  # Python-Markdown's placeholder delimiters: never let data text forge one
    0x03: "",
}
_ATTRIBUTE_ESCAPES = {ord(c): f"&#{ord(c)};" for c in "&<>\"'`{}*_[]\\|"}
_TEXT_SPECIAL = re.compile("[" + re.escape("".join(map(chr, _TEXT_ESCAPES))) + "]")
"""Any character ``_TEXT_ESCAPES`` rewrites: most texts have none, and a search for one is a
fraction of what ``str.translate`` costs (it looks every character up in the table: 2.7 against
0.2 µs for a sentence of 37 Chinese characters)."""


def _relative_url(url: str) -> None:
    """Data links are web addresses only: every relative link is dropped.

    A relative link from data would bypass MkDocs' link checks and rewriting (the fragment is
    raw HTML to MkDocs) and could point anywhere on the host. Links between our own pages come
    from the templates (``rules:`` of a ruling, a calculator's ``rule``). Validation reports
    such links (:func:`unsafe_links`), so nothing is dropped silently.
    """
    return None


_LINK_HINT = re.compile(r"\]\s*[(\[:]|<[a-zA-Z]")
"""Quick test for text that may hold a link or image: ``](``, ``][``, ``]:`` or an autolink."""
_TARGET = re.compile(r'<(a|img) [^>]*?(?:href|src)="([^"]*)"')


def unsafe_links(text: str) -> list[str]:
    """Link targets in data Markdown that are not ``http``/``https`` addresses, and images.

    Images are never shown (they would load from another host), so each one is reported.
    """
    if not _LINK_HINT.search(text):
        return []  # most texts hold no link: skip the Markdown pass
    found = [(kind, html.unescape(url)) for kind, url in _TARGET.findall(_to_html(text))]
    return [
        url
        for kind, url in found
        if kind == "img" or not re.match(r"https?://[^/\s]", url, re.IGNORECASE)
    ]


_BLOCK_CLEANER = nh3.Cleaner(
    tags=BLOCK_TAGS,
    clean_content_tags={"script", "style"},
    attributes={"*": set(), **ATTRIBUTES},  # "*": set() drops nh3's default lang and title
    url_schemes={"http", "https"},
    url_relative=_relative_url,
    strip_comments=True,
)
_INLINE_CLEANER = nh3.Cleaner(
    tags=INLINE_TAGS,
    clean_content_tags={"script", "style"},
    attributes={"*": set(), "a": {"href"}},
    url_schemes={"http", "https"},
    url_relative=_relative_url,
    strip_comments=True,
)


def _data_markdown() -> markdown.Markdown:
    """Python-Markdown without raw HTML, attribute lists or headings."""
    md = markdown.Markdown(extensions=[TableExtension(use_align_attribute=True)])
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.parser.blockprocessors.deregister("hashheader")
    md.parser.blockprocessors.deregister("setextheader")
    return md


_MD = _data_markdown()


_PLAIN_LINE = re.compile(
    r"[^\s\\`*_\[\]<>&!|~^#=+\-.)0-9:/\x00-\x1f\x7f][^\\`*_\[\]<>&!|~^#\n\r\x00-\x1f\x7f\u2028\u2029\x85]*"
)
"""A line that Markdown leaves as plain text: nothing that can start syntax, no line break."""

_CACHED_TEXTS = 1 << 16
"""Rendered texts kept (a few MB): every text of a large catalogue, rendered once per process."""


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _to_html(text: str) -> str:
    # Cached: validation renders a text with links (unsafe_links), then the build renders it
    # again, and a title or question is shown on many pages (a question under every rule
    # section it explains). Each text is parsed once, so a file's Markdown time grows with its
    # size, not with how often its texts are shown (model.TextLimits).
    if _PLAIN_LINE.fullmatch(text):
        # Most titles, names and labels are one line with no Markdown at all: Python-Markdown
        # would only wrap them in a paragraph and escape them (test_markup checks it agrees).
        return f"<p>{html.escape(text, quote=False)}</p>"
    _MD.reset()
    return _MD.convert(text)


def inert_text(value: object) -> Markup:
    """Plain text that stays plain text in HTML and in Markdown (the template default)."""
    if isinstance(value, Markup):
        return value
    text = str(value)
    return Markup(text.translate(_TEXT_ESCAPES) if _TEXT_SPECIAL.search(text) else text)


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def block(text: str) -> Markup:
    """Data Markdown with paragraphs, lists and tables, as one raw HTML block."""
    cleaned = _BLOCK_CLEANER.clean(_to_html(text))
    # A <div> at the start of a line is a raw HTML block to the page's Markdown: kept as is.
    return Markup(f'<div class="rs-text">\n{_make_inert(cleaned)}\n</div>')


_BLOCK_START = re.compile(r"^(\d*)([-+*.)](?=\s|$)|>)")
"""What would make a one-line text a quote or a list item instead of a line of text (headings
and tables are off, or need more than one line)."""


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def inline(text: str) -> Markup:
    """One line of data Markdown (emphasis, code, links): for headings, cells, list items."""
    line = one_line(text)
    line = _BLOCK_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", line)
    rendered = _to_html(line)
    if rendered.startswith("<p>") and rendered.endswith("</p>"):
        rendered = rendered[3:-4]
    inert = one_line(_make_inert(_INLINE_CLEANER.clean(rendered)))
    # Fragments do start lines of the page ("- {title}" in a list): keep them a line of text.
    return Markup(_LINE_START.sub(lambda m: f"{m.group(1)}&#{ord(m.group(2))};", inert))


_LINE_START = re.compile(r"^(\d*)([-+*>#=.)])")


def plain(value: object) -> str:
    """Plain text without markup, for metadata (escape it for where it goes)."""
    if isinstance(value, Markup):
        return one_line(value.striptags())
    return re.sub(r"[*_`]", "", one_line(str(value)))


def attribute(value: object) -> Markup:
    """Plain text for an HTML attribute value inside double quotes."""
    return Markup(plain(value).translate(_ATTRIBUTE_ESCAPES))


def front_matter(value: object) -> Markup:
    """A YAML string for a page's front matter (title, description).

    The theme prints these without escaping (also inside ``content="..."``), so they are
    HTML-escaped first, quotes included; a JSON string is a valid YAML scalar.
    """
    return Markup(json.dumps(front_text(value), ensure_ascii=False))


def front_text(value: object) -> str:
    """The string a front matter value written by ``front_matter`` reads back as (a page's
    title, and the navigation's title for it in the generated ``mkdocs.yml``)."""
    return html.escape(plain(value), quote=True)


def link(text: Markup, url: object) -> Markup:
    """An external link (``url`` is an ``http``/``https`` address validated by the model)."""
    return Markup(f'<a href="{attribute_value(str(url))}" rel="noopener">{text}</a>')


def one_line(value: str) -> str:
    """``value`` with its line breaks (and the spaces around them) folded into single spaces."""
    if value.isprintable():  # no line break of any kind (each is unprintable): most texts
        return value.strip()
    # splitlines() knows every line break (\r, \x0b, U+2028...), as Markdown's reader does.
    return re.sub(r"\s*\n\s*", " ", "\n".join(value.splitlines())).strip()


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def fill(template: str, values: Mapping[str, object]) -> Markup:
    """A label: inline data Markdown whose ``{name}`` placeholders take ``values``.

    Values that are ``Markup`` (already safe fragments) go in as they are, anything else as
    inert text. The label is rendered with stand-ins for its placeholders, so a value can never
    change how the label's own Markdown is read.
    """
    # Pages repeat the same labels with the same values many times: remember the results. The
    # type is part of the key: Markup("<em>") and "<em>" fill in differently.
    key = tuple(sorted((name, type(value), value) for name, value in values.items()))
    return _fill(template, key)


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _fill(template: str, key: tuple[tuple[str, type, object], ...]) -> Markup:
    values = {name: value for name, _, value in key}
    names: list[str] = []

    def stand_in(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"\ue000{len(names) - 1}\ue001"

    rendered = inline(_PLACEHOLDER.sub(stand_in, template))
    filled = re.sub(
        "\ue000(\\d+)\ue001",
        lambda m: str(inert_text(values[names[int(m.group(1))]])),
        rendered,
    )
    # Keep the label's own outer spaces: ": " joins a label to what follows it.
    lead = template[: len(template) - len(template.lstrip(" "))]
    trail = template[len(template.rstrip(" ")) :]
    return Markup(f"{lead}{filled}{trail}")


class _InertSerializer(HTMLParser):
    """Re-serialises clean HTML with Markdown-inert text and fully escaped attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts.append(f"<{tag}{_attributes(attrs)}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts.append(f"<{tag}{_attributes(attrs)}>")

    def handle_endtag(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.parts.append(str(inert_text(data)))


def _attributes(attrs: list[tuple[str, str | None]]) -> str:
    return "".join(f' {name}="{attribute_value(value or "")}"' for name, value in attrs)


def attribute_value(value: str) -> str:
    """An attribute value with every character that HTML or Markdown could act on escaped."""
    return value.translate(_ATTRIBUTE_ESCAPES)


def _make_inert(clean_html: str) -> Markup:
    if "<" not in clean_html:
        # Text alone (most titles, names and labels): the parser would hand all of it to
        # handle_data in one piece, its character references decoded.
        return inert_text(html.unescape(clean_html) if "&" in clean_html else clean_html)
    serializer = _InertSerializer()
    serializer.feed(clean_html)
    serializer.close()
    return Markup("".join(serializer.parts))
