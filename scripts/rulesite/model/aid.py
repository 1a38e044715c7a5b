"""The player aid at the top of the rules page: a round's phases in order, and setup steps for
the setup checklist (issue 19)."""

from __future__ import annotations

from pydantic import Field

from rulesite.model.base import IntRange, Record, ShortText, Slug, WholeNumber

PHASE_TITLE_CHARS = 24
"""Longest phase title (characters in one language): it is drawn inside a box of the diagram,
which must stay readable on a 360 px phone."""


class Phase(Record):
    """One phase of a round, as the rulebook names it."""

    id: Slug
    """Name of the phase, unique within the game (not an anchor: the phase links to ``rule``)."""
    title: ShortText
    """Short name shown in the diagram's box (at most 24 characters, e.g. "Production")."""
    summary: ShortText
    """One line saying what players do in this phase."""
    rule: Slug
    """Id of the rule section that explains the phase; the aid links to it."""


class SetupStep(Record):
    """One step of setting up the game, ticked off in the setup checklist."""

    id: Slug
    """Name of the step, unique within the game: the checklist remembers ticks by it, so keep
    it when the wording changes."""
    text: ShortText
    """What to do, in one line."""
    players: IntRange | None = None
    """Player counts the step applies to (within the card's); without it, every count."""
    rule: Slug | None = None
    """Id of the rule section the step comes from (the checklist links to it)."""


class PlayerAid(Record):
    """The one-screen player aid on the rules page and the steps of the setup checklist. The
    checklist also lists, for the chosen player count, every value of the game's setup
    tables."""

    rounds: WholeNumber | None = Field(default=None, ge=1, le=100)
    """How many rounds a game lasts, when the rules fix it (shown with the phases)."""
    phases: list[Phase] = Field(default_factory=list, max_length=8)
    """A round's phases, in order; without them the rules page shows no aid."""
    setup_steps: list[SetupStep] = Field(default_factory=list, max_length=40)
    """Setup steps in order, each for every player count or the counts it names."""
