"""The data model: one class per record, one docstring per field.

The JSON Schema editors use (``data/schema/*.schema.json``) is generated from these classes by
``rulesite schema``, so the docstrings below are also the help text editors see.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, HttpUrl, model_validator

from rulesite.scoring.expr import FormulaError, parse

Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
"""A lowercase ASCII id: letters, digits and single hyphens (safe in URLs and file names)."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("text is empty")
    return value


NonBlank = Annotated[str, AfterValidator(_not_blank)]


def _check_ordered(low: int, high: int) -> None:
    """Shared by every record with a ``min`` and a ``max``."""
    if low > high:
        raise ValueError(f"min ({low}) is greater than max ({high})")


Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
"""A name usable in formulas: lowercase letters, digits and underscores, starting with a letter."""


def _parses(text: str) -> str:
    try:
        parse(text)
    except FormulaError as exc:
        raise ValueError(f"formula {text!r}: {exc}") from None
    return text


Formula = Annotated[str, AfterValidator(_parses)]
"""A scoring formula: integers, names, + - *, // by a positive constant, min(...), max(...)."""


class Record(BaseModel):
    """Base of every record: unknown keys are errors, docstrings become schema descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Text(Record):
    """A text in both languages. Markdown (inline formatting and links); raw HTML is escaped."""

    zh: NonBlank
    """Simplified Chinese text."""
    en: NonBlank
    """English text."""

    def get(self, lang: str) -> str:
        """The text in ``lang`` (``zh`` or ``en``)."""
        return self.zh if lang == "zh" else self.en


class IntRange(Record):
    """An inclusive range of whole numbers; ``min`` may equal ``max``."""

    min: int = Field(ge=0)
    """Lower bound."""
    max: int = Field(ge=0)
    """Upper bound (at least ``min``)."""

    @model_validator(mode="after")
    def _ordered(self) -> IntRange:
        _check_ordered(self.min, self.max)
        return self


class EditionStatus(StrEnum):
    """Whether a Simplified Chinese edition exists."""

    unconfirmed = "unconfirmed"
    published = "published"
    announced = "announced"
    none = "none"


class OnlinePlayStatus(StrEnum):
    """Whether the game can be tried on the site's online-play platform."""

    unconfirmed = "unconfirmed"
    available = "available"
    unavailable = "unavailable"


class ParameterCard(Record):
    """The facts shown on the overview's parameter card. BGG figures are a dated snapshot."""

    bgg_id: int = Field(gt=0)
    """BoardGameGeek id of the game (used for the BGG link)."""
    bgg_rank: int = Field(gt=0)
    """BGG overall rank when the data was verified (a snapshot, not live)."""
    weight: float = Field(ge=1, le=5)
    """BGG complexity weight, 1–5."""
    best_players: IntRange
    """Community-best player count."""
    players: IntRange
    """Supported player count."""
    play_time: IntRange
    """Play time in minutes."""
    mechanics: list[Slug] = Field(min_length=1)
    """BGG mechanic tags, as ids defined in ``data/site.yaml``, in BGG's order."""
    chinese_edition: EditionStatus
    """Chinese publishing status."""
    online_play: OnlinePlayStatus
    """Online-play status on the platform named in ``data/site.yaml``."""
    year: int = Field(ge=1800, le=2100)
    """Year of first publication."""
    min_age: int = Field(ge=1, le=99)
    """Publisher's minimum age."""
    verified: dt.date
    """Date the card's figures were last checked (YYYY-MM-DD); not in the future."""


class RuleSection(Record):
    """One titled section of the rules summary."""

    id: Slug
    """Anchor of the section, the same in both languages."""
    title: Text
    """Section heading."""
    body: Text
    """The rules, as Markdown paragraphs."""


class Ruling(Record):
    """One FAQ ruling: a question players ask and the answer the rules give."""

    id: Slug
    """Stable anchor of the ruling, the same in both languages; never change it once published."""
    question: Text
    """The question, as a player would ask it."""
    answer: Text
    """The ruling, with its reasons and any example."""
    tags: list[Slug] = Field(min_length=1)
    """Topic ids defined in ``data/site.yaml`` (setup, war, scoring, ties...)."""
    rules: list[Slug] = Field(default_factory=list)
    """Ids of the rule sections this ruling explains."""


class Coverage(Record):
    """Which edition the summary covers and what it leaves out."""

    edition: Text
    """Edition, rulebook and player counts the summary is based on."""
    excludes: Text
    """Expansions, variants and modes that are not covered."""
    notes: list[Text] = Field(default_factory=list)
    """Further caveats (e.g. questions the rules leave open)."""


class SourceKind(StrEnum):
    """What a source is."""

    reference = "reference"
    rules = "rules"
    faq = "faq"
    community = "community"


class Source(Record):
    """A named source of the page's facts."""

    kind: SourceKind
    """reference (e.g. BGG), rules (publisher rulebook), faq (publisher FAQ), community."""
    name: Text
    """Name of the source as shown."""
    url: HttpUrl | None = None
    """Link; leave out when there is no stable public address."""
    note: Text | None = None
    """What the source was used for."""


class LearningKind(StrEnum):
    """What a learning resource offers."""

    rules = "rules"
    strategy = "strategy"
    online = "online"


class LearningResource(Record):
    """A place to learn the game: rules text, strategy article or online play."""

    kind: LearningKind
    """rules, strategy or online."""
    name: Text
    """Title as shown."""
    url: HttpUrl
    """Link to the resource."""


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
    """True when no two players may have the same value (e.g. turn order)."""

    @model_validator(mode="after")
    def _ordered(self) -> ScoreInput:
        _check_ordered(self.min, self.max)
        return self


class SettingOption(Record):
    """One choice of a setting."""

    id: Ident
    """Value in `rulesite score` input; formulas see ``<setting>_<option>`` as 1 or 0."""
    label: Text
    """Label of the choice."""


class Setting(Record):
    """A choice made once for the whole game (e.g. which side of the empire boards)."""

    id: Ident
    """Key in `rulesite score` input."""
    label: Text
    """Label of the setting."""
    options: list[SettingOption] = Field(min_length=2)
    """The choices."""
    default: Ident
    """Id of the option chosen when none is given."""


class AwardTable(Record):
    """Points by rank for a range of player counts."""

    players: IntRange
    """Player counts this table applies to."""
    points: list[int] = Field(min_length=1)
    """Points for 1st, 2nd... place; places beyond the list score nothing."""


class RankAward(Record):
    """Points by rank across players, e.g. most contracts."""

    by: Formula
    """What is compared (more is better)."""
    awards: list[AwardTable] = Field(min_length=1)
    """Award tables; together they must cover the calculator's player counts."""
    tie: Literal["split", "none", "full"]
    """split: tied players pool the points of the places they occupy and share them evenly,
    rounded down; none: tied players get nothing; full: each tied player gets the whole award."""


class Rarity(Record):
    """Goods valued by how rare they are across all players."""

    kinds: list[Ident] = Field(min_length=2)
    """Input ids of the kinds of goods."""
    values: list[int] = Field(min_length=2)
    """Points per good, from the most common kind to the rarest."""
    rarer_on_tie: list[Ident] = Field(min_length=2)
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

    @model_validator(mode="after")
    def _one_kind(self) -> ScoreTerm:
        kinds = [k for k in ("formula", "rank", "fewer", "rarity") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("give exactly one of formula, rank, fewer or rarity")
        return self

    @property
    def kind(self) -> str:
        """Which of formula, rank, fewer, rarity this term is."""
        return next(
            k for k in ("formula", "rank", "fewer", "rarity") if getattr(self, k) is not None
        )


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
    settings: dict[str, str] = Field(default_factory=dict)
    """Setting values, by setting id."""
    players: list[dict[str, int | str]] = Field(min_length=1)
    """Each player's name and inputs (missing inputs are 0)."""
    totals: list[int]
    """Expected totals, in player order."""
    winners: list[str]
    """Expected winners' names (several for a shared or undecided tie)."""
    breakdown: list[dict[str, int]] | None = None
    """Expected points of some terms, per player (optional)."""


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
    inputs: list[ScoreInput] = Field(min_length=1)
    """Numbers entered per player."""
    settings: list[Setting] = Field(default_factory=list)
    """Choices made once for the game."""
    terms: list[ScoreTerm] = Field(min_length=1)
    """Lines of the score, evaluated in dependency order."""
    total_min: int | None = None
    """Floor of the total (e.g. 0: a total never below zero)."""
    tiebreakers: list[TieBreaker] = Field(default_factory=list)
    """Applied in order to players tied for first."""
    when_tied: Literal["shared", "undecided"]
    """After the tie-breakers: shared: a shared win; undecided: the rules do not decide."""
    declare_winner: bool = True
    """False for partial scoring (e.g. an era's book comparison) where nobody wins."""
    examples: list[ScoringExample] = Field(min_length=1)
    """Worked examples; every one must come out as stated."""


class Game(Record):
    """Everything the site shows about one game (``data/games/<slug>.yaml``)."""

    slug: Slug
    """URL name of the game; must equal the file name without ``.yaml``."""
    title: Text
    """Game title; the Chinese title as it is known to Chinese players."""
    summary: Text
    """One line saying what the game is about."""
    card: ParameterCard
    """The parameter card."""
    intro: list[Text] = Field(min_length=1)
    """Background introduction, one entry per paragraph."""
    rules: list[RuleSection] = Field(min_length=1)
    """Core rules and scoring points, in order."""
    faq: list[Ruling] = Field(default_factory=list)
    """FAQ rulings, in order."""
    coverage: Coverage
    """Edition covered and exclusions."""
    sources: list[Source] = Field(min_length=1)
    """Where the facts come from."""
    learning: list[LearningResource] = Field(default_factory=list)
    """Learning resources; empty when none is confirmed."""
    terms: list[NonBlank] = Field(default_factory=list)
    """Chinese game terms kept whole by the search's word segmentation (e.g. 战争强度)."""
    scoring: list[Calculator] = Field(default_factory=list)
    """End-game scoring calculators."""


class Mechanic(Record):
    """A BGG mechanic tag with its label in both languages."""

    id: Slug
    """Id used in game files."""
    label: Text
    """Label; the English one is BGG's own name."""
    special_mode: bool = False
    """True for tags that mean a special mode (e.g. solo); the player-count answer mentions them."""


class Topic(Record):
    """A topic tag for rulings."""

    id: Slug
    """Id used in ``faq[].tags``."""
    label: Text
    """Label shown on the FAQ page."""


def _no_markup(value: str) -> str:
    if any(c in value for c in '<>&"'):
        raise ValueError('must not contain < > & or " (the theme prints it as it is)')
    return value


PlainText = Annotated[str, AfterValidator(_not_blank), AfterValidator(_no_markup)]


class Language(Record):
    """Per-language site settings."""

    site_name: PlainText
    """Site name in this language (browser title, header); plain text."""
    tagline: NonBlank
    """One line under the site name on the home page."""


class SiteData(Record):
    """Site-wide data (``data/site.yaml``)."""

    zh: Language
    """Chinese site settings."""
    en: Language
    """English site settings."""
    platform: Text
    """Name of the online-play platform the card reports on (e.g. WANGO)."""
    mechanics: list[Mechanic] = Field(min_length=1)
    """Every mechanic tag games may use."""
    topics: list[Topic] = Field(min_length=1)
    """Every topic tag rulings may use."""
    labels: dict[str, Text]
    """Interface wording by key; ``{name}`` placeholders are filled in by the templates."""
