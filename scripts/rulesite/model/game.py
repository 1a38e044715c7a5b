"""One game: everything the site shows about it (``data/games/<slug>.yaml``)."""

from __future__ import annotations

from pydantic import (
    Field,
)

from rulesite.model.aid import PlayerAid
from rulesite.model.base import Record, ShortText, Slug, Text
from rulesite.model.card import ParameterCard
from rulesite.model.glossary import GlossaryTerm
from rulesite.model.rules import Coverage, Module, RuleSection, SetupTable
from rulesite.model.rulings import Change, Ruling
from rulesite.model.scoring import Calculator
from rulesite.model.sources import LearningResource, Source


class Game(Record):
    """Everything the site shows about one game (``data/games/<slug>.yaml``)."""

    slug: Slug
    """URL name of the game; must equal the file name without ``.yaml``."""
    title: ShortText
    """Game title; the Chinese title as it is known to Chinese players."""
    summary: Text
    """One line saying what the game is about."""
    card: ParameterCard
    """The parameter card."""
    intro: list[Text] = Field(min_length=1, max_length=20)
    """Background introduction, one entry per paragraph."""
    rules: list[RuleSection] = Field(min_length=1, max_length=100)
    """Core rules and scoring points, in order."""
    faq: list[Ruling] = Field(default_factory=list, max_length=100)
    """FAQ rulings, in order."""
    setup: list[SetupTable] = Field(default_factory=list, max_length=10)
    """Setup tables by player count, shown on the rules page."""
    coverage: Coverage
    """Edition covered and exclusions."""
    sources: list[Source] = Field(min_length=1, max_length=30)
    """Where the facts come from."""
    learning: list[LearningResource] = Field(default_factory=list, max_length=30)
    """Learning resources; empty when none is confirmed."""
    glossary: list[GlossaryTerm] = Field(default_factory=list, max_length=300)
    """Game terms with their names, aliases and meaning (glossary section and page, search)."""
    scoring: list[Calculator] = Field(default_factory=list, max_length=10)
    """End-game scoring calculators."""
    changes: list[Change] = Field(default_factory=list, max_length=100)
    """What changed on the game's pages, newest first."""
    modules: list[Module] = Field(default_factory=list, max_length=30)
    """Expansions, variants, modes and promos, covered or not (``coverage.excludes`` still says
    in words what is left out)."""
    aliases: list[Slug] = Field(default_factory=list, max_length=10)
    """Earlier slugs of this game, after a rename: each old URL (``/games/<old>/`` and every
    tab under it, in every language) becomes a small page that sends readers on to the
    current one, ``#anchor`` included. Never another game's slug or earlier slug."""
    aid: PlayerAid | None = None
    """The player aid at the top of the rules page (a round's phases, the number of rounds) and
    the setup checklist's steps; without it the page shows no aid."""
