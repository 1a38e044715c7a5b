"""One term per thing: texts that use a variant a glossary term says to avoid.

A glossary term may list, per language, variants to avoid (``avoid: {zh: [影子玩家]}``). Every
text of the game is searched for them, and the site's mechanic and topic labels for those of
every game (a label is shared by all games). A hit is a warning of `rulesite validate`, located
at the text: ``data/games/nations.yaml:212: rules[7].body.zh: 影子玩家 — the glossary term is
影子对手 (glossary[shadow])``; with ``--strict`` (and in the tests of the shipped data) it is an
error.

Where a variant is part of the term's own name or of one of its aliases (avoiding 影子 while the
term is 影子对手), the occurrences inside those words are not counted.

A variant written all in lower case, declared on a term whose name has a capital letter
(``avoid: {en: [export contract]}`` on *Export contract*), is the lower-case spelling of a term
the rulebook capitalises: it is matched as written, at the start of a word (``export
contracts`` is found, ``Export contracts`` is not). Every other variant is matched in any case.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import Game, GlossaryTerm, SiteData, Text


@dataclass(frozen=True)
class Variant:
    """A word to avoid in one language, and the term to write instead."""

    lang: str
    word: str
    term: GlossaryTerm
    owner: str
    """Where the term is declared, as the message names it (``glossary[shadow]``)."""

    def found_in(self, text: str) -> bool:
        """Whether ``text`` uses the variant outside the term's own name and aliases."""
        if self.lower_case_spelling():
            return re.search(rf"(?<!\w){re.escape(self.word)}", text) is not None
        for keep in self._own_words():
            if self.word in keep:
                text = text.replace(keep, "")
        return self.word.casefold() in text.casefold()

    def lower_case_spelling(self) -> bool:
        """Whether the variant is the lower-case spelling of a capitalised term: matched as
        written."""
        return lower_case_spelling(self.word, self.term.name.get(self.lang))

    def _own_words(self) -> list[str]:
        words = [self.term.name.get(self.lang), *self.term.aliases.get(self.lang, [])]
        return sorted(words, key=len, reverse=True)

    def message(self) -> str:
        return f"{self.word} — the glossary term is {self.term.name.get(self.lang)} ({self.owner})"


def game_variants(game: Game, prefix: str = "") -> list[Variant]:
    """Every variant the game's glossary says to avoid."""
    return [
        Variant(lang, word, term, f"{prefix}glossary[{term.id}]")
        for term in game.glossary
        for lang, words in term.avoid.items()
        for word in words
    ]


def term_warnings(game: Game, doc: Document) -> list[Problem]:
    """Every text of the game that uses a variant its glossary says to avoid."""
    variants = game_variants(game)
    if not variants:
        return []
    screen = Screen(variants)
    return [
        doc.problem((*path, variant.lang), variant.message())
        for path, text in texts(game)
        for variant in screen.suspects(text)
        if variant.found_in(text.get(variant.lang))
    ]


class Screen:
    """One pass per text and language instead of one search per variant and text: a compiled
    alternation of every variant of a language (case-folded) says whether a text can hold any;
    only then is each variant looked for as :meth:`Variant.found_in` does.

    A text that holds a variant holds its case-folded spelling once folded (folding goes
    character by character), so the screen never hides a hit. The one exception: a variant
    inside the term's own name or aliases, which ``found_in`` cuts out before looking (the cut
    can join two pieces into the variant): such a variant is always looked for.
    """

    def __init__(self, variants: list[Variant]) -> None:
        self.variants = variants
        self.always = [_joins_after_cut(v) for v in variants]
        words: dict[str, set[str]] = {}
        for variant, always in zip(variants, self.always, strict=True):
            if not always:
                words.setdefault(variant.lang, set()).add(variant.word.casefold())
        self.patterns = {
            lang: re.compile("|".join(re.escape(w) for w in sorted(found, key=len, reverse=True)))
            for lang, found in words.items()
        }

    def suspects(self, text: Text) -> Iterator[Variant]:
        """The variants worth looking for in ``text``, in their order."""
        languages = text.languages()
        hits: dict[str, bool] = {}
        for variant, always in zip(self.variants, self.always, strict=True):
            lang = variant.lang
            if lang not in languages:
                continue
            if not always:
                if lang not in hits:
                    hits[lang] = self.patterns[lang].search(text.get(lang).casefold()) is not None
                if not hits[lang]:
                    continue
            yield variant


def _joins_after_cut(variant: Variant) -> bool:
    """Whether ``found_in`` cuts words out of a text before looking for ``variant``."""
    if variant.lower_case_spelling():
        return False
    return any(variant.word in keep for keep in variant._own_words())


def site_term_warnings(site: SiteData, doc: Document, games: list[Game]) -> list[Problem]:
    """Mechanic and topic labels that use a variant any game's glossary says to avoid."""
    variants = [v for game in games for v in game_variants(game, f"{game.slug}: ")]
    warnings = []
    for key in ("mechanics", "topics"):
        for index, item in enumerate(getattr(site, key)):
            for variant in variants:
                label = item.label
                if variant.lang in label.languages() and variant.found_in(label.get(variant.lang)):
                    path = (key, index, "label", variant.lang)
                    warnings.append(doc.problem(path, variant.message()))
    return warnings


def texts(record: BaseModel, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Text]]:
    """Every text in a record, with its key path (lists and mappings included)."""
    for name in type(record).model_fields:
        yield from _texts_in(getattr(record, name), (*path, name))


def _texts_in(value: object, path: KeyPath) -> Iterator[tuple[KeyPath, Text]]:
    if isinstance(value, Text):
        yield path, value
    elif isinstance(value, BaseModel):
        yield from texts(value, path)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _texts_in(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts_in(item, (*path, str(key)))


def lower_case_spelling(word: str, name: str) -> bool:
    """``word`` is all lower case and ``name`` is not: a spelling the pages must not use for a
    term the rulebook capitalises (``export contract`` for *Export contract*)."""
    return word == word.lower() != word.upper() and name != name.lower()
