"""Search that does not grow with the catalogue: one inverted index, cut into chunks by word start.

Material's search downloads the whole index before it answers; split per game (``search_split``)
it still grew with every game's titles and questions, and a game's text was searchable only on
that game's pages. This module writes, from Material's whole index (with the search words of
``search_split``: synonyms, glossary aliases, the game's titles in every language), an index the
theme's worker (``assets/search-worker.js``) reads a piece at a time:

- ``search/search_index.json``: what Material loads and hands to its worker; ``config`` holds
  Material's fields plus ``rulesite``: the first chunks' keys, each cut chunk's ``more`` (``cut``:
  the worker goes straight to a word's chunk instead of fetching every chunk on the way to it,
  a round trip each), the stop words, the number of documents; ``docs`` is empty (what grows
  with the games is a few bytes a chunk: at 1,000 games 9 KB gzipped in Chinese, 1 KB in
  English);
- ``search/chunks/<key>.json``: ``words``, every indexed word that begins with the key (a Han
  character, or the first two letters of other words), each with its postings: page number,
  section number, weight. A chunk over ``CHUNK_LIMIT`` is cut by one more character: it keeps
  the word that is the key itself, and ``more`` names the next character of each child;
- ``search/pages/<page>-<part>.json``: what a hit shows (location, title, plain text) for a page's
  documents, ``PART`` at a time; the page's own document first in part 0.

A query fetches the chunks of its words and the parts of its best pages only: the same download
from every page of the site, so the same query gives the same results wherever it is typed.
A ruling's section number is written ``-1 - section`` (``RULING_BOOST``). Weights are BM25 per
field times the field's boost (the boosts of ``config.fields``), stored as a small integer on a
log scale (``weight`` / ``search-worker.js: weightOf``).
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from rulesite.engine.search_split import (
    _MARKUP,
    SECTIONS,
    Prepared,
    Tokenizer,
    _is_kind,
    _titles_only,
    dump,
    game_of,
    prepare,
    shortened,
    write_files,
)
from rulesite.engine.search_words import SearchWords

CHUNKS_DIR = "chunks"
"""Under ``search/``: one ``<key>.json`` per chunk."""
PAGES_DIR = "pages"
"""Under ``search/``: one ``<page>-<part>.json`` per part of a page's documents."""
CHUNK_LIMIT = 40_000
"""Bytes of JSON over which a chunk is cut by one more character (a single word never is)."""
POSTINGS_LIMIT = 2_000
"""Postings kept per word, the heaviest: a word in thousands of sections ranks nothing alone,
and a phone should not download all of them."""
PART = 48
"""Documents per part of a page's documents (a glossary page has hundreds)."""
TEXT_LIMIT = 1_200
"""Characters of a document's plain text kept for its snippet."""
RULING_BOOST = 2.0
"""A ruling (a section of a game's FAQ) is marked in its postings (its section number as
``-1 - section``): the worker weighs rulings more when the query is a question (平票怎么算: the
tie rulings first), and like any section when it is a word (晶体: where the rules explain it)."""
K1, B = 1.2, 0.75
"""BM25's constants, lunr's."""
_EN_STOP = """a able about across after all almost also am among an and any are as at be because
been but by can cannot could dear did do does either else ever every for from get got had has
have he her hers him his how however i if in into is it its just least let like likely may me
might most must my neither no nor not of off often on only or other our own rather said say says
she should since so some than that the their them then there these they this tis to too twas us
wants was we were what when where which while who whom why will with would yet you your"""
_ZH_STOP = """的 了 吗 呢 吧 啊 么 怎么 怎样 怎么样 如何 什么 为什么 是否 是不是 哪 哪些 哪个 请问
呀 嘛 就是 还是"""
STOP_WORDS = {"en": _EN_STOP.split(), "zh": _ZH_STOP.split()}
"""Words a question is made of that find nothing (lunr's English list; Chinese question words):
left out of the index and of queries, so 平票怎么算 searches 平票 and 算."""
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SPACES = re.compile(r"\s+")


@dataclass
class Chunked:
    """One language's chunked index."""

    manifest: dict[str, Any]
    """``search_index.json``: Material's ``config`` (with ``rulesite``) and no documents."""
    chunks: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    """Per key: word → flat postings (page delta, section, weight, ...)."""
    parts: dict[str, list[list[str]]] | None = field(default_factory=dict)
    """Per ``<page>-<part>``: ``[location, title, text, game]`` of each document; None when
    made apart (``page_parts``)."""


def base_key(word: str) -> str:
    """A word's first chunk: its first character when Han, else its first two."""
    return word[:1] if _HAN.match(word) else word[:2]


def weight(value: float) -> int:
    """A posting's weight on a log scale, 1..255 (``search-worker.js`` inverts it)."""
    return max(1, min(255, round(8 * math.log2(1 + value * 100))))


def plain(text: str) -> str:
    """What a hit shows of an index text: markup and zero-width spaces out, spaces folded."""
    text = html.unescape(_MARKUP.sub(" ", text)).replace("\u200b", "")
    return _SPACES.sub(" ", text).strip()


def from_material(
    index: dict[str, Any] | Prepared,
    lang: str,
    words: SearchWords | None = None,
    *,
    parts: bool = True,
) -> Chunked:
    """Chunk Material's whole ``index`` (or the ``prepare``d one) of the language ``lang``,
    every document given its search words (``search_split.SynonymFinder``); pages of the
    registry's search role TITLES (the glossary, which repeats every game's terms) are indexed
    by their titles only, and show their text. Without ``parts``, the page parts are left out
    (``page_parts`` makes them apart)."""
    prepared = index if isinstance(index, Prepared) else prepare(index, words)
    # A hit's page is shown with it: no page needs its sections' words.
    fields = {name: spec for name, spec in prepared.config["fields"].items() if name != SECTIONS}
    config = {**prepared.config, "fields": fields}
    docs = prepared.docs
    indexed = [shortened(doc) if _titles_only(doc["location"]) else doc for doc in docs]
    return build(config, indexed, docs, lang, prepared.tokens, parts=parts)


def build(
    config: dict[str, Any],
    indexed: list[dict[str, Any]],
    shown: list[dict[str, Any]],
    lang: str,
    tokens: Tokenizer | None = None,
    *,
    parts: bool = True,
) -> Chunked:
    """Chunk the documents ``indexed`` (Material's shape) with Material's ``config``; ``shown``
    are the same documents as hits show them (the same locations, in the same order); with
    ``parts``, their page parts too."""
    tokens = tokens or Tokenizer(config["separator"])
    stop = set(STOP_WORDS.get(lang, ()))
    boosts = {name: float(spec.get("boost", 1.0)) for name, spec in config["fields"].items()}
    _, places = _pages(shown)
    counts = _field_counts(indexed, tokens, boosts, stop)
    rulings = [_is_ruling(doc["location"]) for doc in indexed]
    postings = _postings(counts, places, boosts, rulings)
    del counts  # emptied by _postings
    chunked = Chunked(manifest={})
    for key, words in _cut(postings).items():
        chunked.chunks[key] = {"words": {word: postings.pop(word) for word in sorted(words)}}
    for key in sorted(chunked.chunks, key=len, reverse=True):
        # A cut chunk names its children (the next character of each) for the worker to walk.
        parent = key[:-1]
        if len(key) > len(base_key(key)) and parent in chunked.chunks:
            more = chunked.chunks[parent].setdefault("more", "")
            chunked.chunks[parent]["more"] = "".join(sorted(more + key[-1]))
    chunked.parts = page_parts(shown) if parts else None
    chunked.manifest = {
        "config": {
            **config,
            "rulesite": {
                "chunks": sorted(key for key in chunked.chunks if len(key) <= len(base_key(key))),
                "cut": {
                    key: chunk["more"]
                    for key, chunk in sorted(chunked.chunks.items())
                    if "more" in chunk
                },
                "docs": len(indexed),
                "part": PART,
                "ruling": RULING_BOOST,
                "stop": sorted(stop),
            },
        },
        "docs": [],
    }
    return chunked


def page_parts(shown: list[dict[str, Any]]) -> dict[str, list[list[str]]]:
    """What hits show of the documents ``shown`` (``Chunked.parts``), ``PART`` documents of a
    page at a time: the page's number and the part's in the name."""
    pages, _ = _pages(shown)
    games = {
        slug: plain(doc["title"])
        for doc in shown
        if (slug := game_of(doc["location"])) and doc["location"] == f"games/{slug}/"
    }
    parts = {}
    for number, docs in enumerate(pages):
        for start in range(0, len(docs), PART):
            rows = [_shown(doc, games) for doc in docs[start : start + PART]]
            parts[f"{number}-{start // PART}"] = rows
    return parts


def _pages(docs: list[dict[str, Any]]) -> tuple[list[list[dict[str, Any]]], list[tuple[int, int]]]:
    """Documents grouped by page (the page's own first, as Material's index has it), and each
    document's (page, section) place."""
    pages: list[list[dict[str, Any]]] = []
    numbers: dict[str, int] = {}
    places = []
    for doc in docs:
        page = doc["location"].partition("#")[0]
        if page not in numbers:
            numbers[page] = len(pages)
            pages.append([])
        places.append((numbers[page], len(pages[numbers[page]])))
        pages[numbers[page]].append(doc)
    return pages, places


def _is_ruling(location: str) -> bool:
    page, _, anchor = location.partition("#")
    return bool(anchor) and _is_kind(page, "faq")


def _shown(doc: dict[str, Any], games: dict[str, str]) -> list[str]:
    slug = game_of(doc["location"])
    text = plain(doc.get("text", ""))[:TEXT_LIMIT]
    return [doc["location"], plain(doc["title"]), text, games.get(slug or "", "")]


def _field_counts(
    docs: list[dict[str, Any]], tokens: Tokenizer, boosts: dict[str, float], stop: set[str]
) -> list[dict[str, dict[str, int]]]:
    """Per document, per field: word → count (stop words left out)."""
    result = []
    for doc in docs:
        fields: dict[str, dict[str, int]] = {}
        for name in boosts:
            value = doc.get(name)
            if not value:
                continue
            words = tokens.words(" ".join(value) if isinstance(value, list) else value)
            counted = Counter(words)  # in the order of each word's first occurrence
            for word in stop.intersection(counted):
                counted.pop(word)  # dict's own (Counter's del is written in Python)
            if counted:
                fields[name] = counted
        result.append(fields)
    return result


def _postings(
    counts: list[dict[str, dict[str, int]]],
    places: list[tuple[int, int]],
    boosts: dict[str, float],
    rulings: list[bool],
) -> dict[str, list[int]]:
    """Word → its postings, flat (page delta, section, weight, ...), the heaviest
    ``POSTINGS_LIMIT`` in index order; a ruling's section as ``-1 - section``.

    Each document's counts are dropped once weighed (``counts`` is left empty), and postings
    are kept flat from the start, not as a tuple each: at 1,000 games a language has millions
    of postings, and these two were the peak of its build's memory. Pages are kept whole while
    the postings are gathered and made differences at the end, a word at a time (a dictionary
    of each word's last page cost two look-ups a posting)."""
    lengths: dict[str, list[int]] = {name: [] for name in boosts}
    for fields in counts:
        for name, counted in fields.items():
            lengths[name].append(sum(counted.values()))
    average = {name: (sum(v) / len(v) if v else 1.0) for name, v in lengths.items()}
    found: defaultdict[str, list[int]] = defaultdict(list)
    weights = _Weights()  # many postings share a score: each weighed once
    for number in range(len(counts)):
        fields, counts[number] = counts[number], {}
        page, section = places[number]
        marked = -1 - section if rulings[number] else section
        for word, score in _scores(fields, boosts, average).items():
            found[word] += (page, marked, weights[score])
    return {word: _limited(flat) for word, flat in found.items()}


class _Weights(dict[float, int]):
    """A score's ``weight``, worked out the first time it is asked for."""

    def __missing__(self, score: float) -> int:
        value = self[score] = weight(score)
        return value


def _scores(
    fields: dict[str, dict[str, int]], boosts: dict[str, float], average: dict[str, float]
) -> dict[str, float]:
    """One document's score per word: BM25 of each field times the field's boost, summed over
    its fields in order."""
    scores: dict[str, float] = {}
    for name, counted in fields.items():
        size = sum(counted.values()) / average[name]
        boost, norm = boosts[name], K1 * (1 - B + B * size)
        # BM25's part of a count in this field of this document, times the boost, per count.
        weighted = {tf: boost * (tf * (K1 + 1) / (tf + norm)) for tf in set(counted.values())}
        if not scores:
            scores = dict(zip(counted, map(weighted.__getitem__, counted.values()), strict=True))
            continue
        for word, tf in counted.items():
            scores[word] = scores.get(word, 0.0) + weighted[tf]
    return scores


def _limited(flat: list[int]) -> list[int]:
    """A word's postings (page, section, weight, ...: pages whole, in index order): the
    heaviest ``POSTINGS_LIMIT`` of them back in index order, their pages as differences."""
    if len(flat) > 3 * POSTINGS_LIMIT:
        rows = sorted(zip(flat[0::3], flat[1::3], flat[2::3], strict=True), key=lambda row: -row[2])
        kept = sorted(
            rows[:POSTINGS_LIMIT], key=lambda row: (row[0], row[1] if row[1] >= 0 else -1 - row[1])
        )
        flat = [number for row in kept for number in row]
    pages = flat[0::3]
    flat[3::3] = [page - before for before, page in pairwise(pages)]
    return flat


def _size(word: str, flat: list[int]) -> int:
    return len(word.encode()) + 6 + 7 * (len(flat) // 3)


def _cut(postings: dict[str, list[int]]) -> dict[str, list[str]]:
    """Key → its words: by base key, a chunk over ``CHUNK_LIMIT`` cut by one more character
    (the words as long as the key stay in the key's own chunk)."""
    groups: dict[str, list[str]] = {}
    for word in postings:
        groups.setdefault(base_key(word), []).append(word)
    result: dict[str, list[str]] = {}
    pending = sorted(groups.items())
    while pending:
        key, words = pending.pop()
        size = sum(_size(word, postings[word]) for word in words)
        if size <= CHUNK_LIMIT or all(len(word) <= len(key) for word in words):
            result[key] = words
            continue
        longer: dict[str, list[str]] = {}
        result[key] = []  # a cut chunk still exists: it names its children (``more``)
        for word in words:
            if len(word) <= len(key):
                result[key].append(word)
            else:
                longer.setdefault(word[: len(key) + 1], []).append(word)
        pending.extend(sorted(longer.items()))
    return result


def chunk_file(key: str) -> str:
    """A chunk's file name: the key's code points in hexadecimal (any character, any system)."""
    return "-".join(f"{ord(char):x}" for char in key) + ".json"


def write(search_dir: Path, chunked: Chunked, index_file: str) -> None:
    """Write the manifest as ``index_file`` and the chunks beside it, and the page parts when
    the chunked index has them (old ones gone; files that hold what they would be given are
    kept: ``search_split.write_files``)."""
    chunks = ((chunk_file(key), dump(words)) for key, words in chunked.chunks.items())
    write_files(search_dir / CHUNKS_DIR, chunks)
    if chunked.parts is not None:
        write_parts(search_dir, chunked.parts)
    (search_dir / index_file).write_bytes(dump(chunked.manifest))


def write_parts(search_dir: Path, parts: dict[str, list[list[str]]]) -> None:
    """Write the page parts (``page_parts``) into ``search_dir``'s pages folder (old ones gone)."""
    files = ((f"{name}.json", dump({"docs": rows})) for name, rows in parts.items())
    write_files(search_dir / PAGES_DIR, files)


def files(chunked: Chunked) -> Iterable[str]:
    """Every file written, relative to ``search/`` (for checks)."""
    yield from (f"{CHUNKS_DIR}/{chunk_file(key)}" for key in chunked.chunks)
    yield from (f"{PAGES_DIR}/{name}.json" for name in chunked.parts or {})


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
