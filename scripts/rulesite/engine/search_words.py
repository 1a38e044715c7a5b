"""Game glossaries: their cross checks, and the words they give search.

Each game's ``glossary:`` lists its terms (``model.GlossaryTerm``): a name and aliases per
language, a definition and the rule sections that explain it. Search takes two things from it:

- the **jieba user dictionary** (``search-terms.txt``): every name and alias written in Han
  characters, and every game title, so the Chinese word segmentation keeps them whole words;
- **synonym groups** (``search-synonyms.json``, one file per language, per game): a term's
  names and aliases in the language, with the English plural or singular of each; a section of
  the game that uses one of them is found by all of them (``engine/search_split.py``).
  The game's titles
  in every language (and the aliases of a term named like the game) go to its overview.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesite.model import Game

SYNONYMS_FILE = "search-synonyms.json"
"""In each generated language project, beside ``mkdocs.yml``: the plugin's ``search_synonyms``."""
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*$")
# --- search ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameWords:
    """What one game gives one language's search."""

    groups: list[list[str]]
    """Synonym groups: a document of the game using one member is found by every member."""
    titles: list[str]
    """The game's titles in every language and its title aliases (given to its overview)."""
    defined: dict[str, list[str]] = field(default_factory=dict)
    """Per rule section id: the groups' words of the terms it explains (a term's ``rules``), so a
    search for a term ranks the sections that explain it first."""


@dataclass(frozen=True)
class SearchWords:
    """What one language's search takes from the glossaries, per game slug."""

    games: dict[str, GameWords]

    def to_json(self) -> dict[str, object]:
        return {
            "games": {
                slug: {"groups": words.groups, "titles": words.titles, "defined": words.defined}
                for slug, words in sorted(self.games.items())
            }
        }

    @classmethod
    def from_json(cls, data: object) -> SearchWords:
        games = data.get("games") if isinstance(data, dict) else None
        if not isinstance(games, dict):
            raise ValueError("expected {'games': {slug: {'groups': [[...]], 'titles': [...]}}}")
        return cls(
            {
                str(slug): GameWords(
                    groups=[[str(word) for word in group] for group in words.get("groups", [])],
                    titles=[str(word) for word in words.get("titles", [])],
                    defined={
                        str(rule): [str(word) for word in group]
                        for rule, group in words.get("defined", {}).items()
                    },
                )
                for slug, words in games.items()
            }
        )


def search_words(games: Iterable[Game], lang: str) -> SearchWords:
    """Each game's synonym groups and title words for ``lang``'s search."""
    return SearchWords({game.slug: game_words(game, lang) for game in games})


def game_words(game: Game, lang: str) -> GameWords:
    """One game's synonym groups in ``lang`` and its titles in every language."""
    groups: list[list[str]] = []
    defined: dict[str, list[str]] = {}
    titles = set(_text_values(game.title))
    for term in game.glossary:
        names = set(_text_values(term.name))
        if names & titles:  # a term for the game itself: its names and aliases name the game
            titles |= names | {alias for aliases in term.aliases.values() for alias in aliases}
            continue
        group = [term.name.get(lang), *term.aliases.get(lang, [])]
        groups.append(_unique(w for word in group for w in (word, *inflections(word))))
        for rule in term.rules:
            defined[rule] = _unique([*defined.get(rule, []), *groups[-1]])
    return GameWords(groups=groups, titles=sorted(titles), defined=defined)


def dictionary_words(games: Iterable[Game]) -> list[str]:
    """Every glossary name and alias written in Han characters, and every title: the words
    jieba keeps whole (all whitespace removed: a dictionary line is ``word frequency``, and a
    title may hold a line break)."""
    words: set[str] = set()
    for game in games:
        words.update(_text_values(game.title))
        for term in game.glossary:
            words.update(_text_values(term.name))
            words.update(alias for aliases in term.aliases.values() for alias in aliases)
    return sorted({"".join(w.split()) for w in words if _HAN.search(w)})


def synonyms_file(games: Iterable[Game], lang: str) -> bytes:
    """``lang``'s synonym groups and titles as their file holds them: JSON in UTF-8, one game
    to a line in the order of the slugs (reproducible). Each line is written by json's own C
    encoder: an indented dump goes through its Python one, which took 0.3 s at 1,000 games in
    every build, and one after every edit."""
    by_slug: dict[str, Any] = search_words(games, lang).to_json()["games"]  # type: ignore[assignment]
    lines = [
        json.dumps(slug, ensure_ascii=False)
        + ": "
        + json.dumps(words, ensure_ascii=False, sort_keys=True)
        for slug, words in by_slug.items()  # in the slugs' order (to_json)
    ]
    return ('{"games": {\n' + ",\n".join(lines) + "\n}}\n").encode("utf-8")


def write_synonyms(games: Iterable[Game], lang: str, path: Path) -> Path:
    """Write ``lang``'s synonym groups and titles (``synonyms_file``)."""
    path.write_bytes(synonyms_file(games, lang))
    return path


def read_synonyms(path: str | Path) -> SearchWords:
    return SearchWords.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def inflections(word: str) -> list[str]:
    """English plural or singular of a noun's last word (``General`` → ``Generals``,
    ``Books`` → ``Book``, ``Supremacy`` → ``Supremacies``); none for other scripts, short words,
    and words that are not nouns' plain forms (``tied``, ``slaughtering``, ``bonus``)."""
    head, _, last = word.rpartition(" ")
    lower = last.lower()
    if not _LATIN_WORD.match(last) or len(last) < 3 or lower.endswith(_NOT_INFLECTED):
        return []
    if lower.endswith("ies"):
        form = last[:-3] + "y"
    elif lower.endswith(("ches", "shes", "xes", "sses")):
        form = last[:-2]
    elif lower.endswith("s"):
        form = last[:-1]
    elif lower.endswith("y") and lower[-2] not in "aeiou":
        form = last[:-1] + "ies"
    elif lower.endswith(("ch", "sh", "x")):
        form = last + "es"
    else:
        form = last + "s"
    return [f"{head} {form}" if head else form]


_NOT_INFLECTED = ("ed", "ing", "ss", "us", "is", "'s", "’s")


def _text_values(text: object) -> list[str]:
    root = getattr(text, "root", None)
    if isinstance(root, dict):
        return [str(v) for v in root.values()]
    return [text.get(lang) for lang in ("zh", "en")]  # type: ignore[attr-defined]


def _unique(words: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(words))
