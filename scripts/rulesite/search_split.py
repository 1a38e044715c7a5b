"""Search that scales: Material's search index split into a site-level index and one shard per game.

Material for MkDocs writes one ``search/search_index.json`` per language, and every page of the
language downloads it whole; at 100 games that is about 800 KB gzipped. The split keeps the first
download small and the results of the game being read complete:

- the **site-level index** stays at ``search/search_index.json``, the file the theme loads: the
  same ``config``, the same documents in the same order; pages outside the games (home, games
  index) whole; a game's documents keep their location and title (page titles, rule titles, FAQ
  questions), and their text becomes the search words (the Chinese terms of the jieba
  dictionary) found in it, so a term leads to the sections that use it;
- a **shard** per game, ``search/shards/<slug>.json``: the game's documents as Material wrote
  them (``{"docs": [...]}``).

On a game's pages the theme's ``assets/search-shards.js`` merges that game's shard into the
site-level index before Material's search reads it (each shard document replaces the site-level
document of the same location): the game being read is searched in full text, every other game
by its titles, questions and terms. Elsewhere the site-level index is used as it is.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INDEX_FILE = "search_index.json"
"""Material's index, in the language site's ``search/`` folder; the site-level index replaces it."""
SHARDS_DIR = "shards"
"""Under ``search/``: one ``<slug>.json`` per game."""
_GAME_LOCATION = re.compile(r"games/([a-z0-9-]+)/")
"""A game's pages (``games/<slug>/...``), as page URLs and index locations spell them."""
_TOKEN_SEPARATOR = re.compile(r"[\s\u200b]+")
"""Material's Chinese segmentation joins jieba's words with zero-width spaces."""


@dataclass(frozen=True)
class SplitIndex:
    """One language's search index, split."""

    site: dict[str, Any]
    """The site-level index: Material's ``config`` and every document, games' ones shortened."""
    shards: dict[str, dict[str, Any]]
    """Per game slug: ``{"docs": [...]}``, the game's documents whole, in index order."""


def game_of(location: str) -> str | None:
    """The game a page URL or index location belongs to (``games/<slug>/...``), or None."""
    match = _GAME_LOCATION.match(location)
    return match.group(1) if match else None


def shard_path(slug: str) -> str:
    """A game's shard, relative to the language's site root."""
    return f"search/{SHARDS_DIR}/{slug}.json"


def split_index(
    index: dict[str, Any], words: Iterable[str] = (), games: Iterable[str] = ()
) -> SplitIndex:
    """Split Material's ``index``; ``words`` are kept in the site-level text where they occur,
    and every slug in ``games`` gets a shard, even one without documents."""
    vocabulary = frozenset(words)
    shards: dict[str, list[dict[str, Any]]] = {slug: [] for slug in games}
    site_docs = []
    for doc in index["docs"]:
        slug = game_of(doc["location"])
        if slug is None:
            site_docs.append(doc)
            continue
        shards.setdefault(slug, []).append(doc)
        site_docs.append({**doc, "text": words_in(doc, vocabulary)})
    return SplitIndex(
        site={**index, "docs": site_docs},
        shards={slug: {"docs": docs} for slug, docs in sorted(shards.items())},
    )


def words_in(doc: dict[str, Any], vocabulary: frozenset[str]) -> str:
    """The vocabulary words of ``doc``'s text that its title lacks, in order, each once.

    The text is already segmented with the same dictionary, so a word is a whole token.
    """
    if not vocabulary:
        return ""
    in_title = set(_TOKEN_SEPARATOR.split(doc["title"]))
    found: dict[str, None] = {}
    for token in _TOKEN_SEPARATOR.split(doc["text"]):
        if token in vocabulary and token not in in_title:
            found[token] = None
    return " ".join(found)


def read_words(path: str | Path) -> list[str]:
    """The words of a jieba user dictionary (``word [frequency] [tag]`` per line)."""
    text = Path(path).read_text(encoding="utf-8")
    return [line.split()[0] for line in text.splitlines() if line.strip()]


def dump(data: dict[str, Any]) -> bytes:
    """Compact, byte-reproducible JSON (sorted keys, UTF-8)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def write_split(search_dir: Path, split: SplitIndex) -> None:
    """Replace ``search_dir``'s index with the site-level one and write the shards beside it."""
    shards_dir = search_dir / SHARDS_DIR
    if shards_dir.exists():  # a previous build's shards: games may have gone since
        shutil.rmtree(shards_dir)
    shards_dir.mkdir(parents=True)
    for slug, shard in split.shards.items():
        (shards_dir / f"{slug}.json").write_bytes(dump(shard))
    (search_dir / INDEX_FILE).write_bytes(dump(split.site))
