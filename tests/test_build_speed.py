"""What the build and the preview do faster gives what they gave before.

The preview's first build renders each language in a process of its own
(``render/parallel.py``), as ``rulesite build`` does. The offline lists read a page's
``<link>`` and ``<script>`` tags without parsing the whole page
(``engine/offline.py: page_resources``); the search split tokenizes each text once and finds a
document's synonym groups by the words that start them (``engine/search_split.py``). Each is
held here to the plain reading it replaced: an HTML parser over the whole page, a loop over
every word.
"""

from __future__ import annotations

import random
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from rulesite.catalog import load_catalog
from rulesite.engine import offline, search_chunks, search_split
from rulesite.errors import BuildError
from rulesite.project import Project
from rulesite.render import parallel
from rulesite.render.cache import ContentCache, render_cached
from tests.projects import make_project
from tests.site_checks import all_pages
from tests.test_search import SMALL, WORDS

# --- offline lists: a page's links and scripts -----------------------------------------------


class _WholePage(HTMLParser):
    """The reading ``page_resources`` replaced: every tag of the page through an HTML parser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"link", "script"}:
            self.urls.extend(v for name, v in attrs if name in offline._URLS and v)


def parsed_resources(html: str, folder: str) -> set[str]:
    parser = _WholePage()
    parser.feed(html)
    parser.close()
    return {path for url in parser.urls if (path := offline._site_path(url, folder))}


TRICKY = [
    '<link rel="stylesheet" href="a.css"><script src="b.js"></script>',
    # Not loaded: inside a comment, inside a script's or a style's text.
    '<!-- <link href="no.css"> --><link href="yes.css">',
    '<script>var s = \'<script src="no.js"></script>\';</script><script src="yes.js"></script>',
    '<script>document.write("<link href=no.css>")</SCRIPT ><link href="yes.css">',
    '<style>a::before { content: "<link href=no.css>" }</style><link href="yes.css">',
    # A self-closed script has no text: what follows is markup.
    '<script src="one.js"/><link href="two.css">',
    # Case, quoting, entities, a ">" inside a quoted value, spaces around "=".
    '<LINK REL=stylesheet HREF=upper.css><Script SRC = "spaced.js" ></Script>',
    "<link title='a > b' href='single.css'>",
    '<link href="a&amp;b.css"><script data-shard="s&#46;json"></script>',
    '<link\nrel="icon"\nhref="lines.png"\n>',
    # Tags whose names only begin like these, and the other attributes.
    '<linkage href="no.css"><scripts src="no.js"></scripts><a href="no.html">',
    '<script src="https://example.org/x.js"></script><link href="/root.css"><link href="#x">',
    '<script src="../up.js" data-search-worker="w.js" data-index="i.json"></script>',
    # An unclosed comment or script: nothing after it is markup.
    '<link href="before.css"><!-- <link href="no.css">',
    '<link href="before.css"><script><link href="no.css">',
]


@pytest.mark.parametrize("html", TRICKY)
def test_page_resources_read_tags_as_an_html_parser_does(html: str) -> None:
    assert offline.page_resources(html, "games/x") == parsed_resources(html, "games/x")


def test_page_resources_of_every_built_page_are_an_html_parsers(site_dir: Path) -> None:
    pages = all_pages(site_dir)
    assert len(pages) > 50
    for page in pages:
        html = page.read_text(encoding="utf-8")
        folder = page.parent.relative_to(site_dir).as_posix().strip(".")
        expected = parsed_resources(html, folder)
        assert offline.page_resources(html, folder) == expected, page
        assert expected or page.name != "index.html", page  # a page loads its theme


# --- the search split ------------------------------------------------------------------------


def test_a_tokenizer_gives_each_text_its_words_once() -> None:
    tokens = search_split.Tokenizer("[\\s\\u200b\\-]+")
    text = "<p>The «General» wins&nbsp;ties — 平手\u200b算</p>"
    first = tokens.words(text)
    assert first == ("the", "general", "wins", "ties", "平手", "算")
    assert tokens.words(text) is first  # kept, not split again
    assert tokens.words("!! ??") == ()


def _groups_read_word_by_word(
    starts: search_split.Starts, sequences: list[tuple[str, ...]]
) -> list[list[str]]:
    """The reading ``_groups_used`` replaced: every word of every sequence, in turn."""
    used: list[list[str]] = []
    for sequence in sequences:
        for index, word in enumerate(sequence):
            for member, group in starts.get(word, ()):
                if tuple(sequence[index : index + len(member)]) == member:
                    used.append(group)
    return used


def _order(groups: list[list[str]]) -> list[str]:
    found: dict[str, None] = {}
    for group in groups:
        found.update(dict.fromkeys(group))
    return list(found)


def test_synonym_groups_come_in_the_order_a_word_by_word_reading_finds_them() -> None:
    rng = random.Random(17)
    vocabulary = ["a", "b", "c", "d", "e", "war", "strength", "平手", "平局"]
    for _ in range(300):
        starts: search_split.Starts = {}
        for number in range(rng.randint(1, 5)):
            group = [f"g{number}-{i}" for i in range(rng.randint(1, 3))] + [rng.choice("abc")]
            for _ in range(rng.randint(1, 3)):
                member = tuple(rng.choices(vocabulary, k=rng.randint(1, 3)))
                starts.setdefault(member[0], []).append((member, group))
        sequences = [tuple(rng.choices(vocabulary, k=rng.randint(0, 12))) for _ in range(2)]
        expected = _order(_groups_read_word_by_word(starts, sequences))
        assert _order(search_split._groups_used(starts, sequences)) == expected


def test_one_prepared_index_shards_and_chunks_as_fresh_ones() -> None:
    # One prepared index serves both halves (its tokenizer keeps every text's words): each
    # half is what it would be from a fresh one.
    prepared = search_split.prepare(SMALL, WORDS)
    games = ["legions", "clans", "quiet"]
    once, again = (search_chunks.from_material(i, "en", WORDS) for i in (prepared, SMALL))
    assert (once.manifest, once.chunks, once.parts) == (again.manifest, again.chunks, again.parts)
    fresh = search_split.prepare(SMALL, WORDS)
    assert search_split.game_shards(prepared, games) == search_split.game_shards(fresh, games)


def test_uncovered_words_are_those_no_present_word_begins() -> None:
    present: list[Any] = ["generals", "war", "平手"]
    assert search_split.uncovered(["general", "war", "wars", "平", "平局", "war"], present) == [
        "wars",
        "平局",
    ]
    assert search_split.uncovered([], present) == []
    assert search_split.uncovered(["war"], present) == []


# --- the preview's first rendering: each language in a process of its own ------------------


def test_pages_rendered_per_language_in_parallel_are_those_rendered_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "MIN_GAMES", 1)
    project = Project(make_project(tmp_path / "p", real_games=True))
    catalog = load_catalog(project)
    in_turn = render_cached(project, catalog, ContentCache())
    cache = ContentCache()
    assert parallel.render_missing_in_parallel(project, catalog, cache) == len(catalog.games)
    made = cache.misses
    assert render_cached(project, catalog, cache) == in_turn
    assert list(render_cached(project, catalog, cache)) == list(in_turn)  # in the same order
    assert cache.misses == made  # nothing rendered again: every page was in the cache
    # Nothing missing: nothing to do.
    assert parallel.render_missing_in_parallel(project, catalog, cache) == 0


def test_a_failing_render_in_parallel_leaves_the_cache_to_the_ordinary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "MIN_GAMES", 1)
    project = Project(make_project(tmp_path / "p", real_games=True))
    catalog = load_catalog(project)
    template = project.templates_dir / "pages" / "faq.md.j2"
    template.write_text(template.read_text("utf-8") + "{{ no_such_value }}\n", "utf-8")
    cache = ContentCache()
    assert parallel.render_missing_in_parallel(project, catalog, cache) == 0
    assert not any(kind == "pages" for kind, _ in cache._entries)
    with pytest.raises(BuildError, match=r"faq\.md\.j2"):
        render_cached(project, catalog, cache)
