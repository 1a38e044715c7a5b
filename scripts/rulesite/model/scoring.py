"""End-game calculators: inputs, settings, scoring lines, tie-breakers, worked examples."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
    Strict,
    model_validator,
)

from rulesite.model.base import Formula, Ident, IntRange, Record, Slug, Text, check_ordered

INPUT_LIMIT = 1_000_000
"""Inputs stay within ±INPUT_LIMIT, so validation can prove every formula exact in a browser."""

MAX_PLAYERS = 12
"""Most players a calculator takes: the page shows a column per player."""


class ScoreInput(Record):
    """A number entered for each player."""

    id: Ident
    """Name used in formulas, in `rulesite score` input and in the page's data-field."""
    label: Text
    """Row label in the calculator."""
    help: Text
    """One short line saying exactly what to count."""
    min: int = Field(default=0, ge=-INPUT_LIMIT, le=INPUT_LIMIT)
    """Smallest allowed value (at least -1,000,000)."""
    max: int = Field(default=999, ge=-INPUT_LIMIT, le=INPUT_LIMIT)
    """Largest allowed value (at most 1,000,000). Validation checks that no formula can then
    reach a number the browser cannot compute exactly."""
    rule: Slug | None = None
    """Id of the rule section this input comes from (the label links to it)."""
    unique: bool = False
    """True when no two players may have the same value (e.g. turn order). A player who leaves it
    out counts their position: ``min`` for the first player, one more for each next."""
    at_most_one: bool = False
    """True when at most one player may have a value other than 0 (e.g. who holds the Longest
    Road card)."""

    @model_validator(mode="after")
    def _ordered(self) -> ScoreInput:
        check_ordered(self.min, self.max)
        return self


class SettingOption(Record):
    """One choice of a setting."""

    id: Ident
    """Value in `rulesite score` input; formulas see ``<setting>_<option>`` as 1 or 0."""
    label: Text
    """Label of the choice."""


class Setting(Record):
    """A choice made once for the whole game (e.g. which side of the empire boards), or a yes/no
    question (e.g. whether an award was funded): a setting without options."""

    id: Ident
    """Key in `rulesite score` input; for a yes/no setting also its name in formulas (1 or 0)."""
    label: Text
    """Label of the setting."""
    options: list[SettingOption] | None = Field(default=None, min_length=2, max_length=12)
    """The choices; leave out for a yes/no setting."""
    default: Annotated[bool, Strict()] | Ident
    """Id of the option chosen when none is given; for a yes/no setting, true or false."""

    @property
    def yes_no(self) -> bool:
        """Whether this is a yes/no setting (no options)."""
        return self.options is None


class AwardTable(Record):
    """Points by rank for a range of player counts."""

    players: IntRange
    """Player counts this table applies to."""
    points: list[int] = Field(min_length=1, max_length=MAX_PLAYERS)
    """Points for 1st, 2nd... place; places beyond the list score nothing."""


class RankAward(Record):
    """Points by rank across players, e.g. most contracts."""

    by: Formula
    """What is compared (more is better)."""
    awards: list[AwardTable] = Field(min_length=1, max_length=MAX_PLAYERS)
    """Award tables; together they must cover the calculator's player counts."""
    tie: Literal["split", "none", "full"]
    """split: tied players pool the points of the places they occupy and share them evenly,
    rounded down; none: tied players get nothing; full: each tied player gets the whole award of
    their place. Either way tied players use up the places they occupy."""
    at_least: int | None = Field(default=None, ge=-INPUT_LIMIT, le=INPUT_LIMIT)
    """Qualifying minimum: a player whose value is below it takes no place and scores nothing
    (1: a player with none of it scores nothing)."""


class TableRow(Record):
    """One row of a points table: from this value up to the next row's, these points."""

    at_least: int = Field(ge=-INPUT_LIMIT, le=INPUT_LIMIT)
    """Smallest value this row applies to."""
    points: int
    """Points for a value from ``at_least`` up to the next row's ``at_least``."""


class PointsTable(Record):
    """Points looked up by value, as a rulebook's chart gives them (0–1 → −1, 2 → 1, ... 5+ → 4)."""

    by: Formula
    """The value looked up."""
    rows: list[TableRow] = Field(min_length=1, max_length=50)
    """Rows in rising order of ``at_least``; the last row covers every value above it. The
    first row must cover the lowest value ``by`` can take."""


class Rarity(Record):
    """Goods valued by how rare they are across all players."""

    kinds: list[Ident] = Field(min_length=2, max_length=12)
    """Input ids of the kinds of goods."""
    values: list[int] = Field(min_length=2, max_length=12)
    """Points per good, from the most common kind to the rarest."""
    rarer_on_tie: list[Ident] = Field(min_length=2, max_length=12)
    """All kinds, rarest first: the order used when totals are equal."""


class ScoreTerm(Record):
    """One line of a player's score; the total is the sum of all terms."""

    id: Ident
    """Name in the breakdown and in formulas."""
    label: Text
    """Label in the breakdown."""
    rule: Slug | None = None
    """Id of the rule section it implements."""
    players: IntRange | None = None
    """Only applies with these player counts (e.g. solo)."""
    formula: Formula | None = None
    """Points from this player's own numbers."""
    rank: RankAward | None = None
    """Points by rank across players."""
    fewer: Formula | None = None
    """One point for each other player with strictly less of this."""
    rarity: Rarity | None = None
    """Points for goods valued by rarity across players."""
    table: PointsTable | None = None
    """Points looked up in a table by value."""
    when: Formula | None = None
    """The line counts only when this formula, over settings and ``players``, is not 0 (e.g.
    ``award1_funded``); otherwise it is left out and counts as 0 in later formulas."""
    helper: Literal["shown", "hidden"] | None = None
    """Makes the line a helper value: usable in later formulas, never added to the total.
    shown: listed under the breakdown; hidden: not shown at all."""
    module: Slug | None = None
    """Id of the in-scope module this line belongs to: the calculator gets a yes/no setting for
    the module (named as the module, hyphens as underscores; on by default) and the line counts
    only while it is on, besides any ``when``."""

    @model_validator(mode="after")
    def _one_kind(self) -> ScoreTerm:
        kinds = [k for k in TERM_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("give exactly one of formula, rank, fewer, rarity or table")
        return self

    @property
    def kind(self) -> str:
        """Which of formula, rank, fewer, rarity, table this term is."""
        return next(k for k in TERM_KINDS if getattr(self, k) is not None)


TERM_KINDS = ("formula", "rank", "fewer", "rarity", "table")
"""The kinds of line a calculator has, as keys of :class:`ScoreTerm`."""


class TieBreaker(Record):
    """A rule that decides between players tied on total."""

    by: Formula
    """What is compared."""
    prefer: Literal["higher", "lower"]
    """Which value wins."""
    label: Text
    """What it is, as in "tie broken by <label>"."""


class ScoringExample(Record):
    """A worked example: inputs with the expected result. Runs in Python and in the browser."""

    id: Slug
    """Name of the example."""
    note: Text
    """What it shows."""
    settings: dict[str, Annotated[bool, Strict()] | str] = Field(default_factory=dict)
    """Setting values, by setting id (true or false for a yes/no setting)."""
    players: list[dict[str, int | str]] = Field(min_length=1)
    """Each player's name and inputs (missing inputs are 0)."""
    totals: list[int]
    """Expected totals, in player order."""
    winners: list[str]
    """Expected winners' names (several for a shared or undecided tie)."""
    breakdown: list[dict[str, int]] | None = None
    """Expected points of some terms, per player (optional)."""


class LeftOut(Record):
    """Something a calculator does not score (e.g. the solo game), said on the score page."""

    text: Text
    """What is left out and why."""
    rule: Slug | None = None
    """Id of the rule section that describes it (the note links to it)."""
    ruling: Slug | None = None
    """Id of the FAQ ruling that describes it, where no rule section does."""

    @model_validator(mode="after")
    def _one_link(self) -> LeftOut:
        if (self.rule is None) == (self.ruling is None):
            raise ValueError("give exactly one of rule or ruling")
        return self


class PlayerCounts(IntRange):
    """The player counts a calculator supports: 1 to 12 (the page has a column per player)."""

    min: int = Field(ge=1, le=MAX_PLAYERS)
    """Fewest players."""
    max: int = Field(ge=1, le=MAX_PLAYERS)
    """Most players (at most 12)."""


class Calculator(Record):
    """An end-game scoring calculator."""

    id: Slug
    """Public id: `rulesite score <id>`."""
    title: Text
    """Heading on the score page."""
    intro: Text
    """What the calculator covers, in a sentence or two."""
    players: PlayerCounts
    """Player counts it supports."""
    rule: Slug
    """Id of the rule section on scoring (linked from the page)."""
    inputs: list[ScoreInput] = Field(min_length=1, max_length=60)
    """Numbers entered per player."""
    settings: list[Setting] = Field(default_factory=list, max_length=10)
    """Choices made once for the game; validation adds a yes/no setting for each module its
    lines are tagged with (at most 10 in all)."""
    terms: list[ScoreTerm] = Field(min_length=1, max_length=60)
    """Lines of the score, evaluated in dependency order."""
    total_min: int | None = None
    """Floor of the total (e.g. 0: a total never below zero)."""
    tiebreakers: list[TieBreaker] = Field(default_factory=list, max_length=10)
    """Applied in order to players tied for first."""
    when_tied: Literal["shared", "undecided"]
    """After the tie-breakers: shared: a shared win; undecided: the rules do not decide."""
    declare_winner: bool = True
    """False for partial scoring (e.g. an era's book comparison) where nobody wins."""
    examples: list[ScoringExample] = Field(min_length=1, max_length=30)
    """Worked examples; every one must come out as stated."""
    leaves_out: list[LeftOut] = Field(default_factory=list, max_length=5)
    """What the calculator does not score (e.g. the solo game), said under its introduction."""
