"""Search that scales: Material's search index split into a site-level index and one shard per game.

Material for MkDocs writes one ``search/search_index.json`` per language, and every page of the
language downloads it whole; at 100 games that is about 800 KB gzipped. The split keeps the first
download small and the results of the game being read complete:

- the **site-level index** stays at ``search/search_index.json``, the file the theme loads: the
  same ``config`` (plus the ``words`` field), the same documents in the same order; pages outside
  the games whole (home, games index), but for the glossary page, which keeps only its titles (its
  terms are each game's search words already); a game's documents keep their location and title
  (page titles, rule titles, FAQ questions) and their search words, and lose their text;
- a **shard** per game, ``search/shards/<slug>.json``: the game's documents whole
  (``{"docs": [...]}``), with their search words; a ruling (a section of the game's FAQ page)
  says so (``"ruling": 1``), as the chunks mark it, so offline search weighs it alike.

**Search words** (a hidden ``words`` field, searched like the text): every member of each
glossary synonym group a document uses (a section saying 平手 is found by 平局 and 并列, one
saying General by Generals), and on a game's overview the game's titles in every language. A
page's document also holds its sections' words (in a shard, every word of its sections), so the
page's own result matches the query and its link highlights it on landing (``?h=``).

The theme no longer reads the site-level index: ``search_chunks`` replaces it with the manifest
of a chunked index built from the same documents and search words, which every page searches
alike. The shards stay: a game saved for offline reading keeps its shard, and the theme's worker
searches the saved shards when it cannot fetch chunks (``assets/search-worker.js``).
"""

from __future__ import annotations

import bisect
import html
import json
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesite.engine.search_words import SearchWords
from rulesite.pages import registry

INDEX_FILE = "search_index.json"
"""Material's index, in the language site's ``search/`` folder; the site-level index replaces it."""
SHARDS_DIR = "shards"
"""Under ``search/``: one ``<slug>.json`` per game."""
_MARKUP = re.compile(r"<[^>]*>")
"""Tags in an index text (Material keeps some markup in ``text``)."""
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
"""A word of Han characters only."""
_EDGES = re.compile(r"^\W+|\W+$")
"""Punctuation around a word (《Nations》, "it?"), which the theme's search trims too."""
WORDS = "words"
"""A field of every document that has search words: read by the theme's search like ``text``
(each field of the index's ``config.fields`` is searched), never shown."""
NAMES = "names"
"""A field of a game's overview: the game's titles in every language, and their aliases."""
DEFINES = "defines"
"""A field of a rule section's document: the words of the glossary terms it explains."""
SECTIONS = "sections"
"""A field of a page's document: the words of its sections (``with_page_words``); never shown."""
RULING = "ruling"
"""In a shard, a ruling's document: ``1`` (the worker weighs rulings more for a question offline,
as ``search_chunks`` marks them in the chunks online); not a field the search reads."""
WORDS_FIELD = {
    NAMES: {"boost": 1000.0},
    WORDS: {"boost": 1.0},
    DEFINES: {"boost": 10.0},
    SECTIONS: {"boost": 0.01},
}
"""The fields in the index's ``config.fields``: ``names`` weighs like a title (a game's name
finds its overview first, in any language), ``words`` like the text, ``defines`` more (a term's
own sections come before those that mention it), ``sections`` next to nothing (it only makes a
page match with its sections)."""


@dataclass(frozen=True)
class SplitIndex:
    """One language's search index, split."""

    site: dict[str, Any]
    """The site-level index: Material's ``config`` and every document, games' ones shortened."""
    shards: dict[str, dict[str, Any]]
    """Per game slug: ``{"docs": [...]}``, the game's documents whole, in index order."""


def game_of(location: str) -> str | None:
    """The game a page URL or index location belongs to (``games/<slug>/...``), or None."""
    return registry.game_slug(location)


def _titles_only(location: str) -> bool:
    """Site-wide pages that repeat every game's glossary (the registry's search role TITLES):
    titles only in the index (their words are in each game's documents already, and their text
    would grow the index with every game)."""
    return registry.is_search_kind(location, registry.Search.TITLES)


def _is_kind(location: str, name: str) -> bool:
    """Whether the page at ``location`` (its ``#anchor`` ignored) is of the kind ``name``."""
    found = registry.kind_of_url(location)
    return found is not None and found[0].name == name


def is_ruling(location: str) -> bool:
    """Whether ``location`` is a ruling: a section (``#anchor``) of a game's FAQ page."""
    page, _, anchor = location.partition("#")
    return bool(anchor) and _is_kind(page, "faq")


def shard_path(slug: str) -> str:
    """A game's shard, relative to the language's site root."""
    return f"search/{SHARDS_DIR}/{slug}.json"


@dataclass(frozen=True)
class Prepared:
    """Material's index as both halves of a build's split take it (the shards here, the chunked
    index in ``search_chunks``): made once, its texts tokenized once."""

    index: dict[str, Any]
    """Material's index."""
    config: dict[str, Any]
    """Its ``config``, with the search words' fields."""
    tokens: Tokenizer
    """The index's tokenizer (it keeps the words of every text it has split)."""
    finder: SynonymFinder
    docs: list[dict[str, Any]]
    """Every document with its search words (``SynonymFinder.with_words``), in index order."""


def prepare(index: dict[str, Any], words: SearchWords | None = None) -> Prepared:
    """Material's ``index`` with the glossary's ``words`` as each document's search words."""
    config = {**index["config"], "fields": {**index["config"]["fields"], **WORDS_FIELD}}
    tokens = Tokenizer(config["separator"])
    finder = SynonymFinder(words or SearchWords({}), tokens)
    docs = [finder.with_words(doc) for doc in index["docs"]]
    return Prepared(index, config, tokens, finder, docs)


def split_index(
    index: dict[str, Any] | Prepared,
    words: SearchWords | None = None,
    games: Iterable[str] = (),
) -> SplitIndex:
    """Split Material's ``index`` (or the ``prepare``d one), with the glossary's ``words`` as
    each document's ``words``; every slug in ``games`` gets a shard, even one without
    documents."""
    prepared = index if isinstance(index, Prepared) else prepare(index, words)
    site_docs = [
        doc
        if game_of(doc["location"]) is None and not _titles_only(doc["location"])
        else shortened(doc)
        for doc in prepared.docs
    ]
    site_docs = with_page_words(site_docs, prepared.tokens, full_text=False)
    return SplitIndex(
        site={
            **prepared.index,
            "config": prepared.config,
            "docs": prepared.finder.with_stems(site_docs),
        },
        shards=game_shards(prepared, games),
    )


def game_shards(prepared: Prepared, games: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """Each game's shard (its documents, full text), by slug in order; every slug in ``games``
    gets one, even without documents. A build writes only these (``write_shards``): the
    chunked index (``search_chunks``) replaces the site-level one."""
    shards: dict[str, list[dict[str, Any]]] = {slug: [] for slug in games}
    for doc in prepared.docs:
        slug = game_of(doc["location"])
        if slug is None:
            continue
        shard_doc = without_text_words(doc, prepared.tokens)
        if is_ruling(doc["location"]):
            shard_doc = {**shard_doc, RULING: 1}
        shards.setdefault(slug, []).append(shard_doc)
    return {
        slug: {"docs": with_page_words(docs, prepared.tokens, full_text=True)}
        for slug, docs in sorted(shards.items())
    }


def shortened(doc: dict[str, Any]) -> dict[str, Any]:
    """A game's document in the site-level index: its location, title and search words."""
    short = {"location": doc["location"], "title": doc["title"], "text": ""}
    for name in (NAMES, WORDS, DEFINES):
        if doc.get(name):
            short[name] = doc[name]
    return short


def with_page_words(
    docs: list[dict[str, Any]], tokens: Tokenizer, *, full_text: bool
) -> list[dict[str, Any]]:
    """Each page's document also holds, as ``sections``, its sections' search words and title
    words (and, with ``full_text``, in a shard, every word of their texts): a page is found
    whenever one of its sections is, so the page's result, listed first, carries the query words
    too (``?h=``, the highlight on landing). The field weighs almost nothing, so results still
    rank by the sections themselves."""
    extra: dict[str, dict[str, None]] = {}
    for doc in docs:
        page, _, anchor = doc["location"].partition("#")
        if not anchor:
            continue
        found = extra.setdefault(page, {})
        found.update(dict.fromkeys(doc.get(WORDS, "").split()))
        found.update(dict.fromkeys(doc.get(DEFINES, "").split()))
        found.update(dict.fromkeys(tokens.words(doc["title"])))
        if full_text:
            found.update(dict.fromkeys(tokens.words(doc["text"])))
    result = []
    for doc in docs:
        more = extra.get(doc["location"]) if "#" not in doc["location"] else None
        if more:
            own = [*tokens.words(doc["title"]), *tokens.words(doc["text"])]
            words = uncovered(more, [*own, *doc.get(WORDS, "").split()])
            doc = {**doc, SECTIONS: " ".join(words)} if words else doc
        result.append(doc)
    return result


class Tokenizer:
    """Words of an index text as the theme's search splits them: markup dropped, split on the
    index's separator (Chinese is already segmented by jieba, joined with zero-width spaces),
    lower-cased.

    A split tokenizes each text several times (search words, shards, the chunked index): the
    words of each text are kept (``words`` gives the same tuple for the same text) for as long
    as the tokenizer lives, one build's split. Each distinct word is kept once, every tuple
    holding that one string: the texts repeat a few tens of thousands of words a million times,
    and a string per occurrence was most of a language process's memory in its split."""

    def __init__(self, separator: str) -> None:
        self._separator = re.compile(separator)
        self._known: dict[str, tuple[str, ...]] = {}
        self._vocabulary: dict[str, str] = {}
        # Each raw piece's word, trimmed and lower-cased once: a language's texts hold a
        # million pieces but a few tens of thousands distinct ones, and the trimming's
        # regular expression was most of a dirty build's split (the value is the vocabulary's
        # string, "" for a piece that is only punctuation).
        self._clean: dict[str, str] = {}

    def words(self, text: str) -> tuple[str, ...]:
        found = self._known.get(text)
        if found is None:
            found = self._known[text] = self._split(text)
        return found

    def _split(self, text: str) -> tuple[str, ...]:
        if "<" in text or "&" in text:
            text = html.unescape(_MARKUP.sub(" ", text))
        clean, found = self._clean, []
        for piece in self._separator.split(text):
            if not piece:
                continue
            word = clean.get(piece)
            if word is None:
                word = _EDGES.sub("", piece).lower()
                word = clean[piece] = self._vocabulary.setdefault(word, word)
            if word:
                found.append(word)
        return tuple(found)


Starts = dict[str, list[tuple[tuple[str, ...], list[str]]]]
"""First word of each synonym group member → (the member's words, the group's words)."""


class SynonymFinder:
    """Finds the synonym groups of its game a document uses, and gives it every member as
    search words; pages outside the games get none (they are searched in full everywhere)."""

    def __init__(self, words: SearchWords, tokens: Tokenizer) -> None:
        self._tokens = tokens
        self._titles = {slug: self._words_of(game.titles) for slug, game in words.games.items()}
        # Per game, first word of each member → (member's words, the group's words).
        self._starts: dict[str, Starts] = {}
        for slug, game in words.games.items():
            starts = self._starts.setdefault(slug, {})
            for group in game.groups:
                group_words = self._words_of(group)
                for member in group:
                    member_words = tuple(tokens.words(member))
                    if member_words:
                        starts.setdefault(member_words[0], []).append((member_words, group_words))

        self._defined = {slug: game.defined for slug, game in words.games.items()}
        # Per game, its Chinese glossary words of 3+ characters → the word less its last one.
        self._stems = {
            slug: {
                word: word[:-1]
                for group in game.groups
                for member in group
                for word in tokens.words(member)
                if len(word) >= 3 and _HAN.fullmatch(word)
            }
            for slug, game in words.games.items()
        }

    def _words_of(self, members: Iterable[str]) -> list[str]:
        return list(dict.fromkeys(w for member in members for w in self._tokens.words(member)))

    def with_words(self, doc: dict[str, Any]) -> dict[str, Any]:
        """``doc`` with its search words: ``words``, the members of its game's groups it uses
        that its title lacks; ``defines``, those of the terms a rule section explains; and on a
        game's overview ``names``, every title of the game."""
        slug = game_of(doc["location"])
        if slug is None:
            return doc
        title = self._tokens.words(doc["title"])
        found: dict[str, None] = {}
        starts = self._starts.get(slug, {})
        for group in _groups_used(starts, (title, self._tokens.words(doc["text"]))):
            found.update(dict.fromkeys(group))
        page, _, anchor = doc["location"].partition("#")
        defines = self._defined.get(slug, {}).get(anchor, []) if _is_kind(page, "rules") else []
        defines = uncovered(self._words_of(defines), title)
        words = uncovered(found, [*title, *defines])
        doc = {**doc, WORDS: " ".join(words)} if words else doc
        if defines:
            doc = {**doc, DEFINES: " ".join(defines)}
        if not anchor and _is_kind(page, "overview") and self._titles.get(slug):
            doc = {**doc, NAMES: " ".join(self._titles[slug])}
        return doc

    def with_stems(self, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each game's glossary page (``glossary/<slug>/``, a kind searched by its titles only)
        with, as ``sections``, each of the game's Chinese glossary words of 3+ characters less
        its last character (a *stem*).

        Why: the theme splits a typed run of Han characters into words of its index, looking
        only at pieces shorter than the whole run (``segment`` in Material's search), so a typed
        glossary word is searched as its longest shorter piece in the index (黄金时代 as 黄金
        and 时), each as a prefix. With the stem somewhere in the index, the piece is the stem,
        whose prefix search finds the word (黄金时代 as 黄金时*). Once per game is enough, and
        the game's glossary page is a fair (if faint) result for its terms.
        Two-character words cannot be helped this way: their one-character stem would split
        every other word."""
        result = []
        for doc in docs:
            stems = self._stems.get(_glossary_of(doc["location"]) or "")
            if stems:
                # Each stem as it is: the theme's segmentation looks for the exact piece.
                words = dict.fromkeys([*doc.get(SECTIONS, "").split(), *stems.values()])
                doc = {**doc, SECTIONS: " ".join(words)}
            result.append(doc)
        return result


def _groups_used(starts: Starts, sequences: Iterable[tuple[str, ...]]) -> list[list[str]]:
    """The groups whose members occur in ``sequences``, in the order a reader meets them: by
    the first place a member occurs (the sequences one after the other), then by the order of
    the members that start with the same word. Only the words that start a member are looked
    for, each where it occurs (texts are long, members few)."""
    used: list[tuple[int, int, int, list[str]]] = []
    for number, sequence in enumerate(sequences):
        for word in starts.keys() & set(sequence):
            places = _places(sequence, word)
            for order, (member, group) in enumerate(starts[word]):
                size = len(member)
                first = next((at for at in places if sequence[at : at + size] == member), None)
                if first is not None:
                    used.append((number, first, order, group))
    return [group for *_, group in sorted(used, key=lambda entry: entry[:3])]


def _places(sequence: tuple[str, ...], word: str) -> list[int]:
    """Every index of ``word`` in ``sequence``, in order."""
    places, at = [], -1
    while True:
        try:
            at = sequence.index(word, at + 1)
        except ValueError:
            return places
        places.append(at)


def _glossary_of(location: str) -> str | None:
    """The game whose glossary page is at ``location`` (the page itself, not an anchor in it):
    a game kind outside the game's folder searched by its titles only."""
    if "#" in location:
        return None
    found = registry.kind_of_url(location)
    if found is None or not found[0].per_game or found[0].search is not registry.Search.TITLES:
        return None
    return found[1]


def without_text_words(doc: dict[str, Any], tokens: Tokenizer) -> dict[str, Any]:
    """A shard's document: its search words minus those its title and text already cover."""
    if not doc.get(WORDS):
        return doc
    present = [*tokens.words(doc["title"]), *tokens.words(doc["text"])]
    words = uncovered(doc[WORDS].split(), present)
    if words:
        return {**doc, WORDS: " ".join(words)}
    return {key: value for key, value in doc.items() if key != WORDS}


def uncovered(candidates: Iterable[str], present: Iterable[str]) -> list[str]:
    """The ``candidates`` a search would not already find among ``present`` and the other
    candidates, in order, each once. The theme searches every typed word as a prefix
    (``general`` finds ``generals``), so a word is covered by any word it begins."""
    wanted = list(dict.fromkeys(candidates))
    if not wanted:
        return []
    present_set = set(present)
    missing = [word for word in wanted if word not in present_set]
    if not missing:
        return []
    everything = sorted(present_set.union(wanted))
    result = []
    for word in missing:
        at = bisect.bisect_right(everything, word)
        if at < len(everything) and everything[at].startswith(word):
            continue  # a longer word begins with it
        result.append(word)
    return result


def dump(data: dict[str, Any]) -> bytes:
    """Compact, byte-reproducible JSON (sorted keys, UTF-8)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def write_split(search_dir: Path, split: SplitIndex) -> None:
    """Replace ``search_dir``'s index with the site-level one and write the shards beside it."""
    write_shards(search_dir, split.shards)
    (search_dir / INDEX_FILE).write_bytes(dump(split.site))


def write_shards(search_dir: Path, shards: dict[str, dict[str, Any]]) -> None:
    """Write each game's shard into ``search_dir``'s shards folder (a previous build's gone)."""
    shards_dir = search_dir / SHARDS_DIR
    if shards_dir.exists():  # a previous build's shards: games may have gone since
        shutil.rmtree(shards_dir)
    shards_dir.mkdir(parents=True)
    for slug, shard in shards.items():
        (shards_dir / f"{slug}.json").write_bytes(dump(shard))
