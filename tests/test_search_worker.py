"""The theme's search worker (assets/search-worker.js) run in Node against the built real site:
online (its fetches read the site's chunks) and offline (every fetch fails; the Cache API holds
the shards of the games saved), a query is read alike: a run of Han characters split into the
words the index (or the saved games) know, question words left out.

- The natural questions of ``test_search_queries`` find their sections offline too, with only
  the games they are about saved.
- A question made from the data (a glossary term that a ruling's question names, asked about)
  finds that ruling, or the rules the term points to, offline.
- A hit's "Missing" line (the terms a hit lacks, which Material lists under it) names only the
  query's words: never a single character a Han run fell into, never a question word.
- What a hit shows is HTML that Material appends with innerHTML: the index's texts come out
  escaped, online and offline, with only the worker's own marks as markup.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import jieba
import pytest

from bench.search import part_documents
from rulesite.engine import search_chunks
from rulesite.engine.search_chunks import STOP_WORDS
from rulesite.engine.search_split import dump, game_of
from rulesite.pages import registry
from tests.helpers import REPO
from tests.site_checks import LANGS
from tests.test_search_queries import ROWS, TABLE, TABLE_GAMES, Query
from tests.test_site import CATALOG

WORKER = REPO / "templates" / "theme" / "assets" / "search-worker.js"
HARNESS = REPO / "tests" / "js" / "search-worker.js"
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
QUESTIONS = {"zh": "{}怎么算", "en": "{}: how does it work?"}
"""How a reader asks about a term, per language: the term, then question words (and 算, a
word of its own that a Han run must be split from)."""

Link = tuple[str, dict[str, bool]]


def worker_answers(
    folder: Path, queries: list[str], saved: tuple[str, ...] | None
) -> dict[str, list[list[Any]]]:
    """Per query, the result links as Material lists them: ``[location, terms, title HTML, text
    HTML]``. ``folder``: a language's site; ``saved``: offline, with those games' shards in the
    cache; None: online."""
    mode = "online" if saved is None else "offline"
    command = ["node", str(HARNESS), str(WORKER), str(folder), mode, ",".join(saved or ())]
    result = subprocess.run(
        command, input=json.dumps(queries), capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(result.stdout)


def run_worker(
    site_dir: Path, lang: str, queries: list[str], *, saved: tuple[str, ...] | None = None
) -> dict[str, list[Link]]:
    """Per query, the result links with their terms (``worker_answers``)."""
    found = worker_answers(site_dir / LANGS[lang], queries, saved)
    return {query: [(link[0], link[1]) for link in links] for query, links in found.items()}


def is_question(row: Query) -> bool:
    """A row asked as a question: it holds a question word (which the search leaves out)."""
    stop = STOP_WORDS.get(row.lang, [])
    if row.lang == "zh":
        return any(word in row.text for word in stop)
    return any(word in stop for word in row.text.lower().split())


QUESTION_ROWS = [row for row in ROWS if is_question(row) and not row.start]


def test_the_table_has_questions_in_every_language() -> None:
    for lang in LANGS:
        assert sum(row.lang == lang for row in QUESTION_ROWS) >= 3, lang


@pytest.mark.parametrize("saved", [False, True], ids=["online", "offline"])
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_natural_questions_find_their_sections_online_and_offline(
    site_dir: Path, lang: str, saved: bool
) -> None:
    rows = [row for row in QUESTION_ROWS if row.lang == lang]
    by_games: dict[tuple[str, ...], list[Query]] = {}
    for row in rows:  # asked together, one run of the worker per set of games saved
        games = tuple(sorted({slug for where in row.places if (slug := game_of(where))}))
        by_games.setdefault(games, []).append(row)
    missed = []
    for games, asked in by_games.items():
        texts = [row.text for row in asked]
        found = run_worker(site_dir, lang, texts, saved=games if saved else None)
        for row in asked:
            # A game the questions do not name (an editor's new one) may answer them too.
            known = [w for w, _ in found[row.text] if game_of(w) in (None, *TABLE_GAMES)]
            top = known[: row.within]
            if not set(row.places) & set(top):
                missed.append((row.text, top))
    assert missed == []


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_every_row_of_the_query_table_finds_its_section(site_dir: Path, lang: str) -> None:
    # The whole table of test_search_queries through the worker (the browser types a sample).
    rows = [row for row in ROWS if row.lang == lang]
    found = run_worker(site_dir, lang, sorted({row.text for row in rows}))
    missed = []
    for row in rows:
        links = [where for where, _ in found[row.text]]
        if row in TABLE:  # a game the hand rows do not name (an editor's new one) may answer
            links = [where for where in links if game_of(where) in (None, *TABLE_GAMES)]
        if not set(row.places) & set(links[: row.within]):
            missed.append((row.id, links[:5]))
    assert missed == []


def asked_about(lang: str) -> tuple[str, str, list[str]]:
    """A natural question from the data: the first game's first glossary term (in the data's
    order) that one of the game's ruling questions names, asked about (``QUESTIONS``). Returns
    the game, the question, and where it should lead: the rulings whose question names the term,
    or the rule sections the term points to."""
    faq, rules = registry.kind("faq"), registry.kind("rules")
    for game in CATALOG.games:
        for term in game.glossary:
            name = term.name.get(lang)
            rulings = [r for r in game.faq if name.casefold() in r.question.get(lang).casefold()]
            if rulings:
                places = [f"{faq.url(game.slug)}#{r.id}" for r in rulings]
                places += [f"{rules.url(game.slug)}#{section}" for section in term.rules]
                return game.slug, QUESTIONS[lang].format(name), places
    pytest.skip(f"no ruling names a glossary term in {lang}")


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_a_question_about_a_term_finds_its_ruling_offline(site_dir: Path, lang: str) -> None:
    slug, question, places = asked_about(lang)
    links = run_worker(site_dir, lang, [question], saved=(slug,))[question]
    assert set(places) & {where for where, _ in links[:3]}, (question, links[:3])
    assert all(game_of(where) == slug for where, _ in links)  # only what is saved


def query_words(lang: str, name: str) -> set[str]:
    """The words a search for the term ``name`` looks for: its words as the index splits them."""
    return {word for word in re.split(r"[\s\-]+", name.casefold()) if word}


@pytest.mark.parametrize("saved", [False, True], ids=["online", "offline"])
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_missing_line_names_only_the_words_searched(
    site_dir: Path, lang: str, saved: bool
) -> None:
    slug, question, _ = asked_about(lang)
    name = next(
        term.name.get(lang)
        for game in CATALOG.games
        if game.slug == slug
        for term in game.glossary
        if QUESTIONS[lang].format(term.name.get(lang)) == question
    )
    # The issue's own example too: 平票 is no word of the index, so 平票怎么算 falls into 平 票
    # 怎么 算, and no hit has all three.
    queries = [question, "平票怎么算"] if lang == "zh" else [question, "how do ties work"]
    found = run_worker(site_dir, lang, queries, saved=(slug,) if saved else None)
    stop = set(STOP_WORDS[lang])
    for query, links in found.items():
        assert links, query
        for where, terms in links:
            missing = [word for word, hit in terms.items() if not hit]
            assert not [w for w in missing if len(w) == 1 and HAN.match(w)], (query, where, terms)
            assert not stop & set(terms), (query, where, terms)
    # The term's own words are listed where a hit lacks them (and found where it has them).
    words = query_words(lang, name)
    for where, terms in found[question]:
        assert words <= set(terms), (where, terms)


HOSTILE = "<img src=x onerror=alert(1)>"
"""Markup in an index text, which Material's index holds escaped (its texts are HTML)."""


CONFIG = {
    "lang": ["en"],
    "separator": "[\\s\\-]+",
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}},
}
"""Material's index settings for a small English site (``mini_site``)."""


def mini_site(folder: Path, docs: list[dict[str, str]]) -> Path:
    """A language site's search files for ``docs`` (one game, ``x``): the chunks, and the
    game's shard (what a saved game keeps for offline search)."""
    search = folder / "search"
    chunked = search_chunks.build(CONFIG, docs, docs, "en")
    search_chunks.write(search, chunked, "search_index.json")
    (search / "shards").mkdir()
    (search / "shards" / "x.json").write_bytes(dump({"docs": docs}))
    return folder


@pytest.mark.parametrize("saved", [False, True], ids=["online", "offline"])
def test_what_a_hit_shows_is_escaped(tmp_path: Path, saved: bool) -> None:
    written = html.escape(HOSTILE)
    docs = [
        {"location": "games/x/", "title": "X", "text": ""},
        {"location": "games/x/faq/", "title": f"FAQ {written}", "text": ""},
        {"location": "games/x/faq/#a", "title": f"Onerror {written}", "text": f"<p>{written}</p>"},
        {
            "location": "games/x/faq/#b",
            "title": "B &amp;lt;b&amp;gt;",
            "text": "onerror &#60;i&#62;",
        },
    ]
    site = mini_site(tmp_path, docs)
    found = worker_answers(site, ["onerror", HOSTILE], ("x",) if saved else None)
    shown = [(title, text) for links in found.values() for _, _, title, text in links]
    assert len(found["onerror"]) == 3, found
    own_marks = re.compile(r"</?mark( data-md-highlight)?>|</?p>")
    for title, text in shown:
        assert "<" not in own_marks.sub("", title + text), (title, text)
    everything = own_marks.sub("", " ".join(title + text for title, text in shown))
    assert html.escape(HOSTILE) in everything  # shown as text, as written
    # A reference to a reference stays one: what the text said (&lt;b&gt;), not a tag.
    assert "B &amp;lt;b&amp;gt;" in everything
    assert "&lt;i&gt;" in everything


@pytest.mark.parametrize("saved", [False, True], ids=["online", "offline"])
def test_a_snippet_begins_with_a_whole_word(tmp_path: Path, saved: bool) -> None:
    # The match far into the text: the snippet is cut before it, at the start of a word.
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]
    text = " ".join(words * 3) + " xyz krystallium " + " ".join(words)
    cut = text.index("krystallium") - 50  # where the worker cuts: a third of its 150 before
    assert text[cut - 1].isalpha() and text[cut].isalpha()  # in the middle of a word
    docs = [
        {"location": "games/x/", "title": "X", "text": ""},
        {"location": "games/x/#a", "title": "A", "text": f"<p>{text}</p>"},
    ]
    found = worker_answers(mini_site(tmp_path, docs), ["krystallium"], ("x",) if saved else None)
    snippet = next(shown for where, _, _, shown in found["krystallium"] if where.endswith("#a"))
    first = re.sub(r"<[^>]+>", "", snippet).removeprefix("…").split()[0]
    assert snippet.startswith("<p>…") and first in words, snippet


def _chunked_again(site_dir: Path, lang: str, folder: Path, *, named: bool) -> Path:
    """The language's documents (as its page parts hold them) chunked again into ``folder``
    with chunks so small that most are cut, some more than once; ``named``: the manifest names
    the cut chunks' children (``cut``), else the worker walks to a word's chunk."""
    search = site_dir / LANGS[lang] / "search"
    manifest = json.loads((search / "search_index.json").read_text("utf-8"))

    def words(text: str) -> str:
        """Chinese split into words again, as the index had it (a part holds it unsplit)."""
        return "\u200b".join(jieba.cut(text)) if lang == "zh" else text

    docs = [
        {**doc, "title": words(doc["title"]), "text": words(doc["text"])}
        for doc in part_documents(search)
    ]
    chunked = search_chunks.build(manifest["config"], docs, docs, lang.split("-")[0])
    if not named:
        del chunked.manifest["config"]["rulesite"]["cut"]
    search_chunks.write(folder / "search", chunked, "search_index.json")
    return folder


@pytest.mark.parametrize("lang", LANGS)
def test_going_straight_to_a_words_chunk_answers_as_walking_to_it(
    site_dir: Path, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = [row.text for row in ROWS if row.lang == lang]
    monkeypatch.setattr(search_chunks, "CHUNK_LIMIT", 300)
    named = _chunked_again(site_dir, lang, tmp_path / "named", named=True)
    cut = json.loads((named / "search" / "search_index.json").read_text("utf-8"))
    # Cut more than once: a word's chunk lies two levels or more below its first chunk.
    assert any(
        len(key) > len(search_chunks.base_key(key)) for key in cut["config"]["rulesite"]["cut"]
    )
    straight = worker_answers(named, queries, None)
    assert sum(map(len, straight.values())) > len(queries)
    walked = _chunked_again(site_dir, lang, tmp_path / "walked", named=False)
    assert worker_answers(walked, queries, None) == straight


def test_a_word_named_like_an_object_property_is_a_word_like_any_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Chunks cut down to "constructor" (a chunk of its own, not cut further): a longer query
    # word looks up whether that chunk is cut, which every object seems to say it is.
    monkeypatch.setattr(search_chunks, "CHUNK_LIMIT", 1)
    docs = [
        {"location": "games/x/", "title": "X", "text": ""},
        {"location": "games/x/#a", "title": "A", "text": "<p>constructor constructos</p>"},
    ]
    site = mini_site(tmp_path, docs)
    cut = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    assert "r" in cut["config"]["rulesite"]["cut"]["constructo"]
    query = "constructors constructor"
    found = worker_answers(site, [query], None)[query]
    assert "games/x/#a" in [link[0] for link in found], found


@pytest.mark.parametrize("saved", [False, True], ids=["online", "offline"])
def test_a_query_word_is_marked_where_a_word_begins(tmp_path: Path, saved: bool) -> None:
    """Search matches a word by its start: a hit marks the words ``ties`` found ("ties",
    "Tiesto"), never the same letters inside "quantities"."""
    docs = [
        {"location": "games/x/", "title": "X", "text": ""},
        {"location": "games/x/#a", "title": "A", "text": "<p>Quantities break ties; Tiesto</p>"},
    ]
    found = worker_answers(mini_site(tmp_path, docs), ["ties"], ("x",) if saved else None)
    snippet = next(shown for where, _, _, shown in found["ties"] if where.endswith("#a"))
    marked = re.findall(r"<mark data-md-highlight>([^<]*)</mark>", snippet)
    assert marked == ["ties", "Tiesto"], snippet
    assert "Quantities" in re.sub(r"<[^>]+>", "", snippet)
