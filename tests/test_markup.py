"""Data text → safe fragments: restricted Markdown, the allow-list, and inertness in a page."""

from __future__ import annotations

import re

import markdown
import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from rulesite import markup
from tests.helpers import elements

PAGE_EXTENSIONS = ["attr_list", "md_in_html", "tables", "toc"]
"""The page-level Markdown of mkdocs.yml, which fragments must pass through unchanged."""


def page(markdown_text: str) -> str:
    """Render a page the way MkDocs does (the same extensions as mkdocs.yml)."""
    return markdown.markdown(markdown_text, extensions=PAGE_EXTENSIONS)


@pytest.mark.parametrize(
    "text",
    [
        "{: #__config }",
        "para\n{: #__config .rs-calc data-calculator=x }",
        '[hover](https://example.org/){: title="<img src=x onerror=alert(1)>" }',
        "## Fake {#scoring}",
        "Fake\n====",
        "<span id=x style='color:red' data-x=1>raw</span>",
        '<div markdown="1">*x*</div>',
    ],
)
def test_data_text_sets_no_attribute(text: str) -> None:
    found = elements(page(str(markup.block(text))))
    assert found[0] == ("div", {"class": "rs-text"})
    for tag, attributes in found[1:]:
        assert tag not in ("h1", "h2", "span", "div"), (text, found)
        assert set(attributes) <= {"href", "rel"}, (text, found)


@pytest.mark.parametrize(
    ("text", "href"),
    [
        ("[a](https://example.org/x?a=1&b=2)", "https://example.org/x?a=1&b=2"),
        ("[a](#setup)", None),
        ("[a](javascript:alert(1))", None),
        ("[a](JaVaScRiPt:alert(1))", None),
        ("[a](data:text/html,x)", None),
        ("[a](rules.md#x)", None),
        ("[a](//evil.example/)", None),
        ("<https://example.org/>", "https://example.org/"),
    ],
)
def test_links_go_to_web_addresses_or_anchors_only(text: str, href: str | None) -> None:
    links = [a for tag, a in elements(page(str(markup.block(text)))) if tag == "a"]
    assert len(links) == 1
    assert links[0].get("href") == href


@pytest.mark.parametrize(
    ("text", "unsafe"),
    [
        ("no link here", []),
        ("[a](https://example.org/) and <https://example.org/>", []),
        ("see [tie](faq.md#x) or [b](#y)", ["faq.md#x", "#y"]),
        ("[a][ref]\n\n[ref]: javascript:alert(1)", ["javascript:alert(1)"]),
        ("[a](//evil.example/)", ["//evil.example/"]),
        ("![pic](https://example.org/p.png)", ["https://example.org/p.png"]),
    ],
)
def test_unsafe_links_are_found_for_validation(text: str, unsafe: list[str]) -> None:
    assert markup.unsafe_links(text) == unsafe


def test_inline_text_cannot_break_a_link_or_a_table_row() -> None:
    title = markup.inline("A | B ](https://evil.example/) [ C")
    html = page(f"| game | n |\n|---|---|\n| [{title}](index.md) | 3 |\n")
    assert "evil.example" not in html.split('href="')[1].split('"')[0]
    assert html.count("<td>") == 2
    assert 'href="index.md"' in html


def test_inline_text_cannot_become_a_heading_id_or_attribute_list() -> None:
    heading = markup.inline("Question {#scoring} {: .x }")
    html = page(f"## {heading} {{#real-id}}\n")
    assert 'id="real-id"' in html and 'id="scoring"' not in html and 'class="x"' not in html


@pytest.mark.parametrize("text", ["- item", "* item", "+ item", "1. item", "3) item", "> quote"])
def test_inline_text_stays_a_line(text: str) -> None:
    html = page(f"- {markup.inline(text)}\n")
    assert html.count("<li>") == 1 and "<blockquote>" not in html and "<ol>" not in html


def test_emphasis_code_and_lists_still_work() -> None:
    html = page(str(markup.block("*a* **b** `c`\n\n- one\n- two\n\n| x | y |\n|:-|-:|\n| 1 | 2 |")))
    for part in ("<em>a</em>", "<strong>b</strong>", "<code>c</code>", "<li>one</li>", "<td"):
        assert part in html, html


def test_placeholder_delimiters_from_data_are_dropped() -> None:
    assert "\x02" not in markup.inert_text("a\x02wzxhzdk:0\x03b")


def test_labels_fill_values_as_text_unless_they_are_fragments() -> None:
    filled = markup.fill("*{title}*: {count} rulings", {"title": "A*B*", "count": 3})
    assert filled == "<em>A&#42;B&#42;</em>: 3 rulings"
    fragment = markup.fill("{title}", {"title": Markup("<em>x</em>")})
    assert fragment == "<em>x</em>"


def test_labels_keep_their_outer_spaces() -> None:
    assert markup.fill(": ", {}) == ": "


def test_front_matter_is_escaped_for_attributes() -> None:
    assert markup.front_matter('a "b" <c>') == '"a &quot;b&quot; &lt;c&gt;"'


MARKDOWN_PIECES = st.sampled_from(
    [*"ab0 \n\r\t-+*>#=.)([]{}:|`_~^!<>&\\\"'/", "http://", "{: #x }", "javascript:", "<b>", "1."]
)
"""Fragments of Markdown syntax: random text rarely hits them, a list of them often does."""


@given(st.one_of(st.text(max_size=200), st.lists(MARKDOWN_PIECES, max_size=40).map("".join)))
def test_no_text_makes_markup_that_survives_a_page(text: str) -> None:
    html = page(f"## {markup.inline(text)} {{#anchor}}\n\n{markup.block(text)}\n")
    found = elements(html)
    assert [a.get("id") for _, a in found if "id" in a] == ["anchor"]
    assert found[0][0] == "h2" and not any(re.fullmatch(r"h[1-6]", tag) for tag, _ in found[1:])
    for _, attributes in found:
        assert set(attributes) <= {"id", "class", "href", "rel", "align", "start"}, found


@given(st.one_of(st.text(max_size=80), st.lists(MARKDOWN_PIECES, max_size=20).map("".join)))
def test_the_plain_line_shortcut_agrees_with_markdown(text: str) -> None:
    if markup._PLAIN_LINE.fullmatch(text):
        markup._MD.reset()
        assert markup._to_html.__wrapped__(text) == markup._MD.convert(text)


TEXT_PIECES = st.lists(
    st.sampled_from(
        [
            *"ab 中文&;#x>\n\r\t\u2028\x85\x0b*_`",
            *("&amp;", "&lt;", "&#38;", "&#x4e2d;", "&nbsp;"),
            *("&am", "&bogus;", "&#", "&#xZZ;", "&ampx"),
        ]
    ),
    max_size=30,
).map("".join)
"""Text with character references, whole, cut short and made up, and line breaks of each kind."""


@given(st.one_of(st.text(max_size=80), TEXT_PIECES))
def test_text_without_tags_is_made_inert_as_the_parser_would(text: str) -> None:
    text = text.replace("<", "")  # the shortcut is for text without tags
    serializer = markup._InertSerializer()
    serializer.feed(text)
    serializer.close()
    assert markup._make_inert(text) == "".join(serializer.parts)


@given(st.one_of(st.text(max_size=80), TEXT_PIECES))
def test_one_line_folds_every_line_break_and_trims(text: str) -> None:
    folded = markup.one_line(text)
    assert folded == folded.strip() and not any(c in folded for c in "\n\r\x0b\x0c\x85\u2028\u2029")
    assert folded.split() == text.split()  # only white space changed
