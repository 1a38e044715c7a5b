"""Allow-list HTML sanitising of every page's content (nh3, the Ammonia sanitiser).

Templates already escape ``<`` in data text; this is the second wall. Whatever Markdown makes of
the data, only these tags and attributes, and only http(s)/mailto or relative links, reach a
published page: no script, no event handler, no ``javascript:`` URL, no image from another host.
"""

from __future__ import annotations

import nh3

ALLOWED_TAGS = {
    "a", "abbr", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "kbd", "li", "nav", "ol", "p", "pre", "section", "small",
    "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}  # fmt: skip
"""Everything our templates and Markdown produce; deliberately no img, iframe, form or script."""

ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "lang", "title", "role"},
    "a": {"href", "rel"},
    "th": {"colspan", "rowspan", "scope"},
    "td": {"colspan", "rowspan"},
    "ol": {"start"},
}
"""Attributes by tag; ``aria-*`` and ``data-*`` are allowed everywhere (they never run code)."""


def clean_html(html: str) -> str:
    """``html`` with everything outside the allow-list removed."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags={"script", "style"},
        attributes=ALLOWED_ATTRIBUTES,
        generic_attribute_prefixes={"aria-", "data-"},
        url_schemes={"http", "https", "mailto"},
        link_rel=None,
        strip_comments=True,
    )
