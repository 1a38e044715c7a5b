"""Cross checks of a game's glossary: a word names one term, languages declared, rules resolve."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from rulesite.check.terms import lower_case_spelling
from rulesite.errors import Document, Problem
from rulesite.model import Game, GlossaryTerm

# --- cross checks ------------------------------------------------------------------------------


def check_glossary(game: Game, doc: Document, languages: Iterable[str] | None) -> list[Problem]:
    """Alias languages are the site's; no name or alias means two terms of the game.

    Ids and rule references are checked with the game's other ids and references."""
    problems: list[Problem] = []
    known = tuple(languages) if languages is not None else None
    owner: dict[tuple[str, str], int] = {}
    for index, term in enumerate(game.glossary):
        if known is not None:
            for key, lang in [
                *(("aliases", k) for k in term.aliases),
                *(("avoid", k) for k in term.avoid),
            ]:
                if lang not in known:
                    message = (
                        f"unknown language {lang!r} (the site's languages are {', '.join(known)})"
                    )
                    problems.append(doc.problem(("glossary", index, key, lang), message))
        own: set[tuple[str, str]] = set()
        for path, lang, word in _spellings(term):
            key = (lang, _normal(word))
            first = owner.setdefault(key, index)
            if first != index:
                other = game.glossary[first].id
                message = f"{word!r} also names glossary[{first}] ({other}); a word means one term"
            elif key in own and _normal(term.name.get(lang)) == key[1]:
                message = f"{word!r} repeats the term's name; leave it out"
            elif key in own:
                message = f"{word!r} is listed twice"
            else:
                own.add(key)
                continue
            problems.append(doc.problem(("glossary", index, *path), message))
    problems += _avoided_names(game, owner, doc)
    return problems


def _avoided_names(game: Game, owner: dict[tuple[str, str], int], doc: Document) -> list[Problem]:
    """A variant to avoid is never a name or alias of the game's terms: the pages would be
    told not to use the word they must use."""
    problems = []
    for index, term in enumerate(game.glossary):
        for lang, words in term.avoid.items():
            for position, word in enumerate(words):
                named = owner.get((lang, _normal(word)))
                if named == index and lower_case_spelling(word, term.name.get(lang)):
                    continue  # the lower-case spelling of its own capitalised name
                if named is not None:
                    message = (
                        f"{word!r} names glossary[{named}] ({game.glossary[named].id}); "
                        "a word to avoid cannot also be a term's name or alias"
                    )
                    problems.append(
                        doc.problem(("glossary", index, "avoid", lang, position), message)
                    )
    return problems


def _spellings(term: GlossaryTerm) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
    """(key path under the term, language, word): its names first, then its aliases."""
    for lang in _text_languages(term):
        yield ("name", lang), lang, term.name.get(lang)
    for lang, aliases in term.aliases.items():
        for index, alias in enumerate(aliases):
            yield ("aliases", lang, index), lang, alias


def _text_languages(term: GlossaryTerm) -> list[str]:
    # Text is per language (a mapping once the site's languages are data); both shapes work.
    root = getattr(term.name, "root", None)
    return list(root) if isinstance(root, dict) else ["zh", "en"]


def _normal(word: str) -> str:
    """A word as search sees it: case and width folded, spaces ignored."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", word).casefold())
