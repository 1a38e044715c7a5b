"""engine/search_sections.py: a page's search sections and entries, exactly as Material's search
plugin makes them (its parser is the reference here), or left to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from material.plugins.search.plugin import Parser

from rulesite.engine import plugin, search_sections
from rulesite.engine.search_sections import Segmenter, Unread, sections


def material(page_html: str) -> list[tuple]:
    """The sections Material's search plugin cuts the HTML into."""
    parser = Parser()
    parser.feed(page_html)
    parser.close()
    return [(s.el.tag, s.id, s.el.is_excluded(), s.title, s.text) for s in parser.data]


def ours(page_html: str) -> list[tuple]:
    return [(s.tag, s.id, s.excluded, s.title, s.text) for s in sections(page_html)]


HEADERLINK = '<a class="headerlink" href="#{0}" title="Permanent link">&para;</a>'
READ = {
    "a preface, then headings": "<p>Before</p>\n<h2 id='a'>A"
    + HEADERLINK.format("a")
    + '</h2>\n<p>one\ntwo</p><h3 id="b">B &amp; b</h3><ul><li>x</li><li> </li></ul>',
    "a first h1 has no id": '<h1 id="top">Title</h1><p>text</p><h2 id="next">Next</h2>',
    "a heading without an id is text": "<h2 id='a'>A</h2><h3>not a section</h3><p>t</p>",
    "entities are decoded, then escaped again": "<p>&lt;b&gt; &quot;q&quot; &#39;s&#39; &nbsp;"
    " &amp;amp; 5 &gt; 3</p><h2 id='x&amp;y'>T &lt;</h2>",
    "whitespace runs collapse outside pre": "<p>a</p>\n\n  <p>b</p>   <pre><code>x\n\n  y\n"
    "</code></pre>\n <p>  </p>",
    "an excluded element and all of its tag": "<div data-search-exclude><p>hidden</p><div>"
    "<p>inner</p></div><p>shown after the first div closes</p></div><p>after</p>",
    "an excluded heading is no entry": '<h2 id="a" data-search-exclude>A</h2><p>t</p>'
    '<h2 id="b">B</h2><p>u</p>',
    "a heading nested in an element that closes": '<div class="x"><h2 id="in">In</h2>'
    "<p>inside</p></div><p>outside</p><h2 id='next'>N</h2>",
    "void and self-closing tags": "<p>a<br>b<br/>c<img src='x.png' alt=\"y\"/><span/>d</p>"
    "<input type=checkbox checked><hr />",
    "a script and a style": '<p>a</p><script type="application/json">{"x": "<p>no</p>"}'
    "</script><style>p > a { }</style ><p>b</p>",
    "empty kept elements vanish": "<p> </p><ul>\n<li></li>\n</ul><p><code> </code>x</p>",
    "attributes in any case and quoting": "<H2 ID=up Class='k'>Up</H2><P>t</P>"
    '<div data-x="&quot;{}&quot;" hidden><p>y</p></div>',
    "a line number table is skipped": '<div class="linenodiv"><pre>1\n2</pre></div><p>z</p>',
    "a mismatched end tag is ignored": "<p>a</span>b</p></div><p>c</p>",
    "text at the end": "<h2 id='e'>E</h2>trailing &amp; text",
}
UNREAD = {
    "a comment": "<p>a</p><!-- note --><p>b</p>",
    "a less-than sign that starts no tag": "<p>a < b</p>",
    "a declaration": "<!doctype html><p>a</p>",
    "an unquoted value ending in a slash": "<a href=x/>y</a>",
    "a script that never ends": "<script>x",
}


@pytest.mark.parametrize("name", READ)
def test_sections_are_materials(name: str) -> None:
    assert ours(READ[name]) == material(READ[name])


@pytest.mark.parametrize("name", UNREAD)
def test_html_read_otherwise_is_left_to_material(name: str) -> None:
    with pytest.raises(Unread):
        sections(UNREAD[name])


def test_every_built_page_is_read_and_cut_as_material_cuts_it(site_dir: Path) -> None:
    """Each page's article (what MkDocs made of its Markdown, and the theme's bits around it)."""
    articles = []
    for path in sorted(site_dir.rglob("index.html")):
        found = re.search(r"<article[^>]*>(.*)</article>", path.read_text("utf-8"), re.DOTALL)
        if found:
            articles.append((path.relative_to(site_dir).as_posix(), found.group(1)))
    differ = [name for name, article in articles if ours(article) != material(article)]
    assert len(articles) > 20 and differ == []


def test_entries_take_the_title_tags_and_boost_from_the_front_matter() -> None:
    class Item:
        def __init__(self, anchor: str, children: list) -> None:
            self.id, self.url, self.children = anchor, f"#{anchor}", children

    toc = [Item("top", [Item("deep", [])])]
    meta = {"tags": ["a", "", 3], "search": {"boost": 2}}
    made = search_sections.entries(
        "<p>lead</p><h2 id='deep'>Deep</h2><p>x</p><h2 id='loose'>L</h2>",
        "games/x/",
        toc,
        meta,
        "Page title",
        None,
    )
    assert [(e["location"], e["title"], e["text"]) for e in made] == [
        ("games/x/", "Page title", "<p>lead</p>"),
        ("games/x/#deep", "Deep", "<p>x</p>"),
        ("games/x/#loose", "L", ""),
    ]
    assert all(e["tags"] == ["a", "3"] and e["boost"] == 2 for e in made)
    assert search_sections.entries("<p>x</p>", "", [], {"search": {"exclude": 1}}, "", None) == []


def test_chinese_runs_are_segmented_once_each() -> None:
    calls = []

    def cut(run: str) -> list[str]:
        calls.append(run)
        return [run[:2], run[2:]] if len(run) > 2 else [run]

    segment = Segmenter(cut)
    assert segment("平票怎么算? 平票怎么算") == "平票\u200b怎么算\u200b? \u200b平票\u200b怎么算"
    assert segment("no Han") == "no Han"
    assert calls == ["平票怎么算"]


def test_indexing_pages_here_changes_no_byte_of_the_site(
    real_project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Indexed here (the run's shared build of the real project) or by Material's search plugin
    (a clean build of a copy of its sources with OWN_SECTIONS off): the same site, search
    chunks, page parts and game shards included."""
    from tests.helpers import tree_digest
    from tests.projects import rebuilt_copy

    monkeypatch.setattr(plugin, "OWN_SECTIONS", False)
    there = rebuilt_copy(real_project.root, tmp_path)
    here = tree_digest(real_project.site_dir)
    assert here == there
    assert any(name.startswith("search/chunks/") for name in here)
