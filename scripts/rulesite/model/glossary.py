"""Game terms: names and aliases per language, definitions."""

from __future__ import annotations

from typing import Annotated

from pydantic import (
    AfterValidator,
    Field,
    Strict,
)

from rulesite.model.base import Record, ShortText, Slug, Text, one_line, short_text


def _alias_length(value: str) -> str:
    if len(value) > 60:
        raise ValueError(f"an alias is at most 60 characters; this one has {len(value)}")
    return value


GlossaryAlias = Annotated[
    str,
    Strict(),
    AfterValidator(short_text),
    AfterValidator(one_line),
    AfterValidator(_alias_length),
]
"""Another name of a glossary term in one language: one line, at most 60 characters."""


class GlossaryTerm(Record):
    """One game term: its name and other names in each language, what it means, where it rules.

    The glossary is shown on the game's rules page (``#glossary``, one ``#term-<id>`` each) and
    on the site-wide glossary page; its names and aliases are search words: Chinese ones are kept
    whole by the search's word segmentation, and searching any of a term's names or aliases finds
    the sections that use another of them (平局 finds the rulings that say 平手 or 并列)."""

    id: Slug
    """Anchor of the term (``#term-<id>``), the same in every language; unique in the game."""
    name: ShortText
    """The term as the rules say it, per language (the official English term in English)."""
    aliases: dict[str, Annotated[list[GlossaryAlias], Field(max_length=20)]] = Field(
        default_factory=dict
    )
    """Other names players use, per language code (``zh: [平局, 并列]``): synonyms, a
    Simplified spelling of a Traditional title, a short form; at most 20 per language. Search
    treats them as the name; the glossary lists them."""
    avoid: dict[str, Annotated[list[GlossaryAlias], Field(max_length=20)]] = Field(
        default_factory=dict
    )
    """Variants not to write, per language code (``zh: [影子玩家]``): other words for the same
    thing that the pages must not use, so one thing has one name. `rulesite validate` warns
    about every text of the game that uses one (an error with ``--strict``); search does not
    learn them."""
    definition: Text
    """What the term means, in a sentence or two."""
    rules: list[Slug] = Field(default_factory=list, max_length=10)
    """Ids of the rule sections that explain it (each is linked)."""
