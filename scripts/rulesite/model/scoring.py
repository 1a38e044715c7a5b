"""End-game calculators: inputs, settings, scoring lines, tie-breakers, worked examples."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    Strict,
    create_model,
    model_validator,
)

from rulesite.model.base import Formula, Ident, IntRange, Record, Slug, Text, check_ordered
from rulesite.model.lines import INPUT_LIMIT, LINE_KINDS, MAX_PLAYERS, TERM_KINDS, LineKind
from rulesite.model.lines.rank import AwardTable, RankAward
from rulesite.model.lines.rarity import Rarity
from rulesite.model.lines.table import PointsTable, TableRow

__all__ = [
    "INPUT_LIMIT", "MAX_PLAYERS", "TERM_KINDS", "AwardTable", "Calculator", "LeftOut",
    "PlayerCounts", "PointsTable", "RankAward", "Rarity", "ScoreInput", "ScoreTerm",
    "ScoringExample", "Setting", "SettingOption", "TableRow", "TieBreaker",
]  # fmt: skip


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


class _Line(Record):
    """What every line has besides its fields: exactly one kind (the fields are added by
    :data:`ScoreTerm`, from the line-kind table)."""

    @model_validator(mode="after")
    def _one_kind(self) -> _Line:
        kinds = [k for k in TERM_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            named = ", ".join(TERM_KINDS[:-1]) + " or " + TERM_KINDS[-1]
            raise ValueError(f"give exactly one of {named}")
        return self

    @property
    def kind(self) -> str:
        """Which kind of line this is (a key of :data:`~rulesite.model.lines.LINE_KINDS`)."""
        return next(k for k in TERM_KINDS if getattr(self, k) is not None)

    @property
    def line(self) -> LineKind:
        """The declaration of this line's kind."""
        return LINE_KINDS[self.kind]

    @property
    def value(self) -> Any:
        """The value under the line's kind key (a formula or the kind's record)."""
        return getattr(self, self.kind)


_COMMON_BEFORE: dict[str, Any] = {
    "id": (Ident, Field(description="Name in the breakdown and in formulas.")),
    "label": (Text, Field(description="Label in the breakdown.")),
    "rule": (Slug | None, Field(default=None, description="Id of the rule section it implements.")),
    "players": (
        IntRange | None,
        Field(default=None, description="Only applies with these player counts (e.g. solo)."),
    ),
}
# The texts keep the line breaks the data schema has always had (data/schema/ is committed).
_COMMON_AFTER: dict[str, Any] = {
    "when": (
        Formula | None,
        Field(
            default=None,
            description="The line counts only when this formula, over settings and ``players``, "
            "is not 0 (e.g.\n``award1_funded``); otherwise it is left out and counts as 0 in "
            "later formulas.",
        ),
    ),
    "helper": (
        Literal["shown", "hidden"] | None,
        Field(
            default=None,
            description="Makes the line a helper value: usable in later formulas, never added "
            "to the total.\nshown: listed under the breakdown; hidden: not shown at all.",
        ),
    ),
    "module": (
        Slug | None,
        Field(
            default=None,
            description="Id of the in-scope module this line belongs to: the calculator gets a "
            "yes/no setting for\nthe module (named as the module, hyphens as underscores; on by "
            "default) and the line counts\nonly while it is on, besides any ``when``.",
        ),
    ),
}

ScoreTerm = create_model(
    "ScoreTerm",
    __base__=_Line,
    __doc__="One line of a player's score; the total is the sum of all terms.",
    __module__=__name__,
    **_COMMON_BEFORE,
    **{
        kind.name: (kind.value_type | None, Field(default=None, description=kind.doc))
        for kind in LINE_KINDS.values()
    },
    **_COMMON_AFTER,
)
"""One line of a player's score: ``id``, ``label``, ``rule``, ``players``, one key per kind of
line (:data:`~rulesite.model.lines.LINE_KINDS`; a line gives exactly one), ``when``, ``helper``,
``module``."""


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
