"""Scratch projects of N games with distinct text, for the benchmark.

Each game takes its structure from one of the real games in ``data/games/`` (rule sections,
rulings, calculators and their worked examples, whose numbers are kept so the examples still add
up) and gets new text of about the same length in every language: words drawn with a seeded
generator from the real games' own words. Copies of the same game would make search indexes and
compressed sizes look better than real ones, and the words being real keeps search terms
realistic. Game ``i`` is the same whatever the count, so 100 games are the first 100 of 1,000.
"""

from __future__ import annotations

import copy
import logging
import random
import re
import shutil
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bench.languages import BY_CODE, LANGUAGES, SITE
from rulesite.project import Project

REPO = Path(__file__).resolve().parents[2]
SKELETON = ("mkdocs.yml", "templates", "scripts/rulesite/mkdocs_hooks.py", "data/images")
"""What a project holds besides its games and site data (whichever of these the repository has
is copied): the generated games reuse the real games' pictures."""
DEFAULT_SEED = 8
SLUG_CHARS = 40
"""Longest generated slug, leaving room for a calculator id's suffix (ids take 64)."""
TERMS_LANGUAGE = next(
    (lang.code for lang in SITE.languages if lang.search.jieba), SITE.root_language.code
)
"""A game's glossary names are Chinese words for the search's segmentation (see glossary.py):
those of the first language whose search uses jieba."""
SLUG_LANGUAGE = SITE.names_language
"""Slugs are made of the titles in the language of BoardGameGeek's names."""
END_PUNCTUATION = ".。?？!！:：;；"
"""A source text ending in one of these gets the same ending (questions stay questions)."""

_LEAD_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*[^*\s][^*]*\*(?!\*)")
_LINE_MARKERS = re.compile(r"(?:[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+|[ \t]*>[ \t]?)*")
"""List and quote markers that start a line; kept as they are."""
_TABLE_RULE = re.compile(r"[\s|:-]+")


@dataclass(frozen=True)
class Style:
    """How one language's text is cut into words and put back together."""

    split: Callable[[str], list[str]]
    """The words of a text (no punctuation)."""
    separator: str
    """Between two words."""
    comma: str
    stop: str
    capitalize: bool
    """Upper-case the first letter of a sentence."""
    title_words: int
    """Most words in a game's title."""
    min_title_word: int
    """Shortest word (characters) used in titles and terms: no particles, no "of"."""


def _chinese_words(text: str) -> list[str]:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return [word for word in jieba.lcut(text) if re.fullmatch(r"[\u4e00-\u9fff]+", word)]


def _english_words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]+(?:['’-][A-Za-z]+)*", text)


RUN_ON = Style(_chinese_words, "", "，", "。", False, title_words=2, min_title_word=2)
"""Chinese: words without spaces between them (cut by jieba), full-width punctuation."""
SPACED = Style(_english_words, " ", ",", ".", True, title_words=3, min_title_word=4)
"""English: words between spaces, sentences capitalised."""
STYLES = {code: SPACED if language.sentence_space else RUN_ON for code, language in BY_CODE.items()}
"""Text style by language code, from each language's ``sentence_space``."""


@dataclass(frozen=True)
class Vocabulary:
    """The real games' words by language, each as often as the games use it."""

    words: dict[str, tuple[str, ...]]
    title_words: dict[str, tuple[str, ...]]
    """Longer words: for titles and search terms."""

    @classmethod
    def from_games(cls, games: list[dict[str, Any]]) -> Vocabulary:
        words: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
        for game in games:
            for text in text_pairs(game):
                for lang in LANGUAGES:
                    words[lang].extend(STYLES[lang].split(text[lang]))
        return cls(
            {lang: tuple(found) for lang, found in words.items()},
            {
                lang: tuple(w for w in found if len(w) >= STYLES[lang].min_title_word)
                for lang, found in words.items()
            },
        )


def is_text(value: Any) -> bool:
    """A text in every language (``{zh: ..., en: ...}``) in raw game data."""
    return (
        isinstance(value, dict)
        and set(value) == set(LANGUAGES)
        and all(isinstance(text, str) for text in value.values())
    )


def text_pairs(value: Any) -> Iterator[dict[str, str]]:
    """Every text of a raw game (or any part of one)."""
    if is_text(value):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from text_pairs(item)
    elif isinstance(value, list):
        for item in value:
            yield from text_pairs(item)


@dataclass
class TextWriter:
    """Writes one game's texts; remembers adjacent word pairs as candidate search terms."""

    vocabulary: Vocabulary
    rng: random.Random
    pairs: dict[str, None] = field(default_factory=dict)
    """Two title words written next to each other (ordered, no repeats)."""
    real: frozenset[str] = frozenset()
    """The real games' texts: a new text is never one of them (a short label of common words,
    such as "Cards built", could come out again by chance)."""

    def text(self, lang: str, source: str) -> str:
        """New text shaped like ``source``: same lines, markers, emphasis; at most as long."""
        for _ in range(100):
            text = "\n".join(self._line(lang, line) for line in source.split("\n"))
            if text not in self.real:
                return text
        raise ValueError(f"no new text shaped like {source!r}")

    def _line(self, lang: str, line: str) -> str:
        if not line.strip():
            return line
        if line.lstrip().startswith("|"):  # a table row: new text in each cell
            if _TABLE_RULE.fullmatch(line):
                return line
            cells = line.split("|")
            return "|".join(self._cell(lang, cell) for cell in cells)
        marker = _LINE_MARKERS.match(line)
        prefix = marker.group() if marker else ""
        return prefix + self._piece(lang, line[len(prefix) :])

    def _cell(self, lang: str, cell: str) -> str:
        if not cell.strip():
            return cell
        body = cell.strip()
        start = cell.index(body)
        return cell[:start] + self._piece(lang, body) + cell[start + len(body) :]

    def _piece(self, lang: str, piece: str) -> str:
        lead = _LEAD_BOLD.match(piece)
        bold = ""
        if lead:  # "**Two players:** ..." keeps a bold lead-in
            inner = lead.group(1)
            bold = f"**{self.fill(lang, len(inner), _ending(inner))}**"
            piece = piece[lead.end() :]
            if not piece.strip():
                return bold + piece
        space = piece[: len(piece) - len(piece.lstrip())]
        rest = piece.strip()
        emphasis = _ITALIC.search(rest) is not None
        return bold + space + self.fill(lang, len(rest), _ending(rest), emphasis=emphasis)

    def fill(self, lang: str, budget: int, end: str = "", emphasis: bool = False) -> str:
        """Sentences of random words in at most ``budget`` characters (one word at least)."""
        style = STYLES[lang]
        words = self.vocabulary.words[lang]
        limit = budget - len(end)
        text = ""
        sentence_left = 0
        emphasised = -1 if not emphasis else self.rng.randint(0, 3)
        count = 0
        previous = ""
        while True:
            word = shown = self.rng.choice(words)
            starting = sentence_left == 0
            if starting:
                sentence_left = self.rng.randint(5, 16)
                if style.capitalize:
                    shown = word[:1].upper() + word[1:]
            if count == emphasised:
                shown = f"*{shown}*"
            piece = (style.separator if text else "") + shown
            if text and len(text) + len(piece) > limit:
                break
            text += piece
            count += 1
            sentence_left -= 1
            if previous and not starting:
                self._remember(lang, previous, word)
            previous = word
            if sentence_left == 0:
                text += style.stop
            elif self.rng.random() < 0.1:
                text += style.comma
                previous = ""
        return text.rstrip(style.stop + style.comma) + end

    def _remember(self, lang: str, first: str, second: str) -> None:
        shortest = STYLES[lang].min_title_word
        if lang == TERMS_LANGUAGE and len(first) >= shortest and len(second) >= shortest:
            self.pairs[first + second] = None

    def title(self, lang: str) -> str:
        """A game title: a few longer words."""
        style = STYLES[lang]
        count = self.rng.randint(2, style.title_words)
        words = [self.rng.choice(self.vocabulary.title_words[lang]) for _ in range(count)]
        if style.capitalize:
            words = [word[:1].upper() + word[1:] for word in words]
        return style.separator.join(words)

    def terms(self, count: int, taken: set[str]) -> list[str]:
        """``count`` search terms no earlier game has: word pairs this game's text holds."""
        candidates = list(self.pairs)
        self.rng.shuffle(candidates)
        chosen = [term for term in candidates if term not in taken][:count]
        attempt = 0
        while len(chosen) < count:  # a short text: pairs of words it need not contain
            attempt += 1
            term = self.title(TERMS_LANGUAGE).replace(" ", "")
            if attempt > 100:  # only with a tiny vocabulary; never loop forever
                term += str(attempt)
            if term not in taken and term not in chosen:
                chosen.append(term)
        taken.update(chosen)
        return chosen


def _ending(text: str) -> str:
    return text[-1] if text and text[-1] in END_PUNCTUATION else ""


@dataclass
class Taken:
    """Names earlier games use: slugs, titles per language, calculator ids, search terms."""

    slugs: set[str] = field(default_factory=set)
    titles: dict[str, set[str]] = field(default_factory=lambda: {lang: set() for lang in LANGUAGES})
    calculators: set[str] = field(default_factory=set)
    terms: set[str] = field(default_factory=set)


def load_sources() -> list[tuple[str, dict[str, Any]]]:
    """The real games (file stem, raw data), by file name."""
    paths = sorted((REPO / "data" / "games").glob("*.yaml"))
    return [(path.stem, yaml.safe_load(path.read_text(encoding="utf-8"))) for path in paths]


def make_games(count: int, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """``count`` raw games with distinct text, cycling through the real games' structures."""
    sources = load_sources()
    vocabulary = Vocabulary.from_games([data for _, data in sources])
    taken = Taken()
    real = frozenset(
        text[lang] for _, data in sources for text in text_pairs(data) for lang in text
    )
    games = []
    for index in range(count):
        stem, source = sources[index % len(sources)]
        writer = TextWriter(vocabulary, random.Random(f"{seed}:{index}"), real=real)
        games.append(distinct_game(stem, source, writer, taken))
    return games


def distinct_game(
    stem: str, source: dict[str, Any], writer: TextWriter, taken: Taken
) -> dict[str, Any]:
    """``source`` with every text rewritten and new unique names."""
    game = _rewrite(copy.deepcopy(source), writer)
    _name(game, stem, writer, taken)
    _name_glossary(game, writer, taken)
    return game


def _name_glossary(game: dict[str, Any], writer: TextWriter, taken: Taken) -> None:
    """Glossary terms named anew: in the jieba language by word pairs no other game has (the
    search dictionary), elsewhere by their rewritten names made unique in the game; aliases are
    left out (a game's names and aliases must each mean one term), and so are the variants to
    avoid (they name the real game's words, which may now be another term's rewritten name)."""
    terms = game.get("glossary", [])
    names = writer.terms(len(terms), taken.terms)
    for lang in LANGUAGES:
        seen: set[str] = set()
        for index, term in enumerate(terms):
            name = names[index] if lang == TERMS_LANGUAGE else term["name"][lang]
            if _as_searched(name) in seen:
                name = f"{name} {index}"
            seen.add(_as_searched(name))
            term["name"][lang] = name
    for term in terms:
        term.pop("aliases", None)
        term.pop("avoid", None)


def _as_searched(word: str) -> str:
    """A name as the glossary check compares names (check/glossary.py: case and width folded,
    spaces ignored): "In to" and "Into" are one name."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", word).casefold())


def _rewrite(value: Any, writer: TextWriter) -> Any:
    if is_text(value):
        return {lang: writer.text(lang, value[lang]) for lang in value}
    if isinstance(value, dict):
        return {key: _rewrite(item, writer) for key, item in value.items()}
    if isinstance(value, list):
        return [_rewrite(item, writer) for item in value]
    return value


def _name(game: dict[str, Any], stem: str, writer: TextWriter, taken: Taken) -> None:
    """Unique title in every language, slug and calculator ids (these are public and global)."""
    for attempt in range(1000):
        titles = {lang: writer.title(lang) for lang in LANGUAGES}
        if attempt > 100:  # cannot happen with the real vocabulary; never loop forever
            titles = {lang: f"{title} {attempt}" for lang, title in titles.items()}
        slug = re.sub(r"[^a-z0-9]+", "-", titles[SLUG_LANGUAGE].lower())[:SLUG_CHARS].strip("-")
        ids = [_calculator_id(calc["id"], stem, slug) for calc in game.get("scoring", [])]
        clash = slug in taken.slugs or any(i in taken.calculators for i in ids)
        if clash or any(titles[lang] in taken.titles[lang] for lang in LANGUAGES):
            continue
        game["slug"], game["title"] = slug, titles
        for calc, new_id in zip(game.get("scoring", []), ids, strict=True):
            calc["id"] = new_id
        taken.slugs.add(slug)
        taken.calculators.update(ids)
        for lang in LANGUAGES:
            taken.titles[lang].add(titles[lang])
        return
    raise RuntimeError("could not find a unique game title")


def _calculator_id(old: str, stem: str, slug: str) -> str:
    """``nations-books`` of ``nations`` becomes ``<slug>-books``."""
    if old == stem:
        return slug
    if old.startswith(f"{stem}-"):
        return slug + old[len(stem) :]
    return f"{slug}-{old}"


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """YAML the project's loader accepts: no aliases; multi-line texts as literal blocks."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar(
        "tag:yaml.org,2002:str", value, style="|" if "\n" in value else None
    )


_Dumper.add_representer(str, _represent_text)


def game_yaml(game: dict[str, Any]) -> str:
    """A raw game as a data file."""
    body = yaml.dump(game, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)
    return f"# Generated by scripts/benchmark.py: random words in a real game's structure.\n{body}"


def write_project(root: Path, count: int, seed: int = DEFAULT_SEED) -> Project:
    """A project at ``root`` (created; must not hold data/) with ``count`` distinct games."""
    root.mkdir(parents=True, exist_ok=True)
    for name in SKELETON:
        source, target = REPO / name, root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        elif source.is_file():
            shutil.copy(source, target)
    games_dir = root / "data" / "games"
    games_dir.mkdir(parents=True)
    shutil.copy(REPO / "data" / "site.yaml", root / "data" / "site.yaml")
    for game in make_games(count, seed):
        text = game_yaml(game)
        (games_dir / f"{game['slug']}.yaml").write_text(text, encoding="utf-8", newline="\n")
    return Project(root)
