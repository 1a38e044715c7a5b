"""FAQ rulings and the changes made to a game's pages."""

from __future__ import annotations

from enum import StrEnum

from pydantic import (
    Field,
)

from rulesite.model.base import CalendarDate, LongText, Record, ShortText, Slug, Text
from rulesite.model.rules import Image
from rulesite.model.sources import Citation


class Ruling(Record):
    """One FAQ ruling: a question players ask and the answer the rules give."""

    id: Slug
    """Stable anchor of the ruling, the same in both languages; to rename it, move the old id
    to ``aliases``."""
    aliases: list[Slug] = Field(default_factory=list, max_length=10)
    """Earlier ids of this ruling: the FAQ page keeps each as an anchor that lands on it (in
    every language), so links already shared still work; feeds and the JSON export use
    ``id``. Unique among the game's ruling ids and aliases."""
    question: ShortText
    """The question, as a player would ask it."""
    answer: LongText
    """The ruling, with its reasons and any example."""
    tags: list[Slug] = Field(min_length=1, max_length=10)
    """Topic ids defined in ``data/site.yaml`` (setup, war, scoring, ties...)."""
    rules: list[Slug] = Field(default_factory=list, max_length=5)
    """Ids of the rule sections this ruling explains (each lists the ruling's question)."""
    images: list[Image] = Field(default_factory=list, max_length=5)
    """Pictures shown under the answer (the situation the question is about)."""
    module: Slug | None = None
    """Id of the in-scope module this ruling belongs to; shown as a tag, and readers can hide the
    modules they do not play."""
    cites: list[Citation] = Field(default_factory=list, max_length=5)
    """Sources of the ruling (rulebook pages, the official FAQ...), shown under the answer with
    the date they were last checked; a ruling without one is a warning of `rulesite
    validate`."""


# --- Changes: what changed on a game's pages, and when (the "What changed" list, the feeds) ---


class ChangeKind(StrEnum):
    """What kind of change an entry records."""

    errata = "errata"
    """The publisher corrected the rules (official errata); the summary follows them."""
    clarification = "clarification"
    """The publisher or designer clarified a rule (e.g. an official FAQ answer)."""
    added = "added"
    """Rule sections or rulings were added to this site."""
    corrected = "corrected"
    """A mistake in this site's summary or rulings was fixed."""
    verified = "verified"
    """The pages were checked against a source (e.g. a rulebook version)."""


class Change(Record):
    """One dated entry of a game's "What changed" list and of the site's feeds."""

    id: Slug
    """Permanent id of the entry: its anchor (``#change-<id>``) and its feed entry's identity;
    never change it once published."""
    date: CalendarDate
    """When the change was made (YYYY-MM-DD); not in the future."""
    kind: ChangeKind
    """errata, clarification, added, corrected or verified."""
    text: Text
    """What changed, in a sentence or two."""
    rules: list[Slug] = Field(default_factory=list, max_length=10)
    """Ids of the rule sections it affects (each is linked)."""
    faq: list[Slug] = Field(default_factory=list, max_length=10)
    """Ids of the FAQ rulings it affects (each is linked)."""
    cites: list[Citation] = Field(default_factory=list, max_length=5)
    """Where the change comes from (e.g. the publisher's errata, a new rulebook version): the
    game's sources by id, as rule sections and rulings cite them."""
