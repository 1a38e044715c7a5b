"""Search that scales: Material's search index prepared once, then split into one shard per game.

Material for MkDocs writes one ``search/search_index.json`` per language, which every page would
download whole (at 100 games about 800 KB gzipped). A build instead:

- **prepares** Material's index (``prepare``): each game's documents get their search words, and
  each text is tokenized once, as the theme's search splits it (``Tokenizer``);
- writes a **shard** per game, ``search/shards/<slug>.json``: the game's documents whole
  (``{"docs": [...]}``), with their search words; a ruling (a section of the game's FAQ page)
  says so (``"ruling": 1``), as the chunks mark it, so offline search weighs it alike;
- replaces Material's index with the manifest of a **chunked index** (``search_chunks``) built
  from the same prepared documents, which every page searches alike, a chunk at a time.

**Search words** (a hidden ``words`` field, searched like the text): every member of each
glossary synonym group a document uses (a section saying 平手 is found by 平局 and 并列, one
saying General by Generals), on a rule section the words of the terms it explains
(``defines``), and on a game's overview the game's titles in every language (``names``). In a
shard, a page's document also holds every word of its sections (``sections``), so the page's
own result matches the query and its link highlights it on landing (``?h=``).

A game saved for offline reading keeps its shard, and the theme's worker searches the saved
shards when it cannot fetch chunks (``assets/search-worker.js``).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, pairwise
from pathlib import Path
from typing import Any

from rulesite.engine.search_words import SearchWords
from rulesite.pages import registry

SEARCH_DIR = "search"
"""A language site's search folder (Material's index, and what the split makes beside it)."""
INDEX_FILE = "search_index.json"
"""Material's index, in the language site's ``search/`` folder; the chunked index's manifest
replaces it (``search_chunks``)."""
SHARDS_DIR = "shards"
"""Under ``search/``: one ``<slug>.json`` per game."""
_MARKUP = re.compile(r"<[^>]*>")
"""Tags in an index text (Material keeps some markup in ``text``)."""
_EDGES = re.compile(r"^\W+|\W+$")
"""Punctuation around a word (《Nations》, "it?"), which the theme's search trims too."""
SEPARATOR = r'[\s\u200b\-_,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;|(?!\b)(?=[A-Z][a-z])'
"""The search separator of the project's ``mkdocs.yml`` (``plugins.search.separator``), which
the ``Tokenizer`` splits on mostly without its regular expression (``_spaced``)."""
_SEPARATOR_CHARS = '\u200b-_,:!=[]()"`/'
"""``SEPARATOR``'s characters other than white space: each is a word break wherever it is."""
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


def game_of(location: str) -> str | None:
    """The game a page URL or index location belongs to (``games/<slug>/...``), or None."""
    return registry.game_slug(location)


def _titles_only(location: str) -> bool:
    """Site-wide pages that repeat every game's glossary (the registry's search role TITLES):
    titles only in the chunked index (their words are in each game's documents already, and
    their text would grow the index with every game)."""
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
    tokens = _WARMED.pop(config["separator"], None) or Tokenizer(config["separator"])
    finder = SynonymFinder(words or SearchWords({}), tokens)
    docs = [finder.with_words(doc) for doc in index["docs"]]
    return Prepared(index, config, tokens, finder, docs)


def game_shards(prepared: Prepared, games: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """Each game's shard (its documents, full text), by slug in order; every slug in ``games``
    gets one, even without documents (``write_shards`` writes them)."""
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
        slug: {"docs": with_page_words(docs, prepared.tokens)}
        for slug, docs in sorted(shards.items())
    }


def shortened(doc: dict[str, Any]) -> dict[str, Any]:
    """A document searched by its title only (in the chunked index, the pages that repeat every
    game's glossary: ``_titles_only``): its location, title and search words."""
    short = {"location": doc["location"], "title": doc["title"], "text": ""}
    for name in (NAMES, WORDS, DEFINES):
        if doc.get(name):
            short[name] = doc[name]
    return short


def with_page_words(docs: list[dict[str, Any]], tokens: Tokenizer) -> list[dict[str, Any]]:
    """Each page's document also holds, as ``sections``, every word of its sections (their
    search words, titles and texts): a page is found whenever one of its sections is, so the
    page's result, listed first, carries the query words too (``?h=``, the highlight on
    landing). The field weighs almost nothing, so results still rank by the sections
    themselves."""
    extra: dict[str, dict[str, None]] = {}
    for doc in docs:
        page, _, anchor = doc["location"].partition("#")
        if not anchor:
            continue
        found = extra.setdefault(page, {})
        found.update(dict.fromkeys(doc.get(WORDS, "").split()))
        found.update(dict.fromkeys(doc.get(DEFINES, "").split()))
        found.update(dict.fromkeys(tokens.words(doc["title"])))
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


_WARMED: dict[str, Tokenizer] = {}
"""This process's tokenizer for its build's split, by separator, already holding the words of
the last build's texts (``warm_tokenizer``); the split takes it (once)."""


def warm_tokenizer(texts: Iterable[str], separator: str = SEPARATOR) -> None:
    """Split ``texts`` now, for the split of the build this process runs next: a dirty build's
    split tokenizes every text of its language, and most are the last build's (at 1,000 games
    in Chinese: 1.25 s of which 0.26 s are left with them split before). An incremental build's
    language process does this while the build process loads the catalog
    (``publish/builders.py``). A text warmed and not met again costs only its memory; a split
    whose index has another separator makes its own tokenizer."""
    tokens = Tokenizer(separator)
    for text in texts:
        tokens.words(text)
    _WARMED[separator] = tokens


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
        # SEPARATOR's breaks at its characters and white space are found by str.split, in C
        # (the regular expression tried its four branches at every character: most of
        # tokenizing a language); its other breaks (a full stop, "&lt;", a capital within a
        # word) fall inside those pieces, and each distinct piece is split by the expression
        # once. Another separator is split on by its expression.
        self._known_separator = separator == SEPARATOR
        self._pieces = _spaced if self._known_separator else self._separator.split
        self._known: dict[str, tuple[str, ...]] = {}
        self._vocabulary: dict[str, str] = {}
        # Each raw piece's words, trimmed and lower-cased once: a language's texts hold a
        # million pieces but a few tens of thousands distinct ones (empty for a piece that is
        # only punctuation).
        self._clean: dict[str, tuple[str, ...]] = {"": ()}

    def words(self, text: str) -> tuple[str, ...]:
        found = self._known.get(text)
        if found is None:
            found = self._known[text] = self._split(text)
        return found

    def _split(self, text: str) -> tuple[str, ...]:
        if "<" in text or "&" in text:
            text = html.unescape(_MARKUP.sub(" ", text))
        pieces = self._pieces(text)
        # The pieces looked up all at once (map in C), the few not met before then learnt.
        found = list(map(self._clean.get, pieces))
        if None in found:
            for at, words in enumerate(found):
                if words is None:
                    found[at] = self._learn(pieces[at])
        return tuple(chain.from_iterable(found))

    def _learn(self, piece: str) -> tuple[str, ...]:
        """The words of a piece not met before (kept for the next time)."""
        if not piece:  # a group of another separator's expression that took part in no match
            return ()
        vocabulary, words = self._vocabulary, []
        # A piece of _spaced may still hold SEPARATOR's other breaks; one of the expression's
        # own split does not.
        parts = self._separator.split(piece) if self._known_separator else [piece]
        for part in parts:
            word = _EDGES.sub("", part).lower()
            if word:
                words.append(vocabulary.setdefault(word, word))
        found = self._clean[piece] = tuple(words)
        return found


def _spaced(text: str) -> list[str]:
    """``text`` split at ``SEPARATOR``'s characters and white space (no empty pieces)."""
    for char in _SEPARATOR_CHARS:
        if char in text:
            text = text.replace(char, " ")
    return text.split()


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


def _groups_used(starts: Starts, sequences: Iterable[tuple[str, ...]]) -> list[list[str]]:
    """The groups whose members occur in ``sequences``, in the order a reader meets them: by
    the first place a member occurs (the sequences one after the other), then by the order of
    the members that start with the same word. Only the words that start a member are looked
    for, each where it occurs (texts are long, members few)."""
    used: list[tuple[int, int, int, list[str]]] = []
    for number, sequence in enumerate(sequences):
        for word in starts.keys() & set(sequence):
            places: list[int] | None = None  # every place of the word, for longer members
            for order, (member, group) in enumerate(starts[word]):
                size = len(member)
                if size == 1:  # most members are one word: its first place is the member's
                    first: int | None = sequence.index(word)
                else:
                    places = _places(sequence, word) if places is None else places
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
    # Sorted, the words that begin with a word come right after it, so a word is covered when
    # the next one begins with it: one pass over neighbours instead of a search per missing
    # word (at 1,000 games a language's split calls this 80,000 times, once per page with
    # every word of its sections).
    everything = sorted(present_set.union(wanted))
    covered = {word for word, after in pairwise(everything) if after.startswith(word)}
    return [word for word in missing if word not in covered]


def dump(data: dict[str, Any]) -> bytes:
    """Compact, byte-reproducible JSON (sorted keys, UTF-8)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def write_shards(search_dir: Path, shards: dict[str, dict[str, Any]]) -> None:
    """Make ``search_dir``'s shards folder hold each game's shard (a previous build's gone)."""
    files = ((f"{slug}.json", dump(shard)) for slug, shard in shards.items())
    write_files(search_dir / SHARDS_DIR, files)


def write_files(folder: Path, files: Iterable[tuple[str, bytes]]) -> None:
    """Make ``folder`` hold exactly ``files`` (name, bytes), each through ``keep_or_write``: a
    dirty build's folder holds links to the last build's files (``publish/incremental.py``),
    and after an edit to one game almost every chunk is what it was (at 1,000 games, making the
    18,000 files of a language's index anew took seconds, most of a rebuild's split). Files
    not listed are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    with os.scandir(folder) as entries:
        existing = {entry.name: entry for entry in entries}
    for name, data in files:
        if existing.pop(name, None) is None:
            (folder / name).write_bytes(data)
        else:
            keep_or_write(folder / name, data)
    for entry in existing.values():
        _remove(entry.path)


def keep_or_write(path: Path, data: bytes) -> None:
    """Give ``path`` the bytes ``data``: a file (not a link) that holds them is kept, with its
    time; anything else there is removed and a new file written, never written into (a
    build's files may be hard links shared with the last build's site)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        path.write_bytes(data)
        return
    if stat.S_ISREG(info.st_mode) and info.st_size == len(data) and path.read_bytes() == data:
        return
    _remove(os.fspath(path))
    path.write_bytes(data)


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)
