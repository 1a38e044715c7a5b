"""The data model: one class per record, one docstring per field.

The JSON Schema editors use (``data/schema/*.schema.json``) is generated from these classes by
``rulesite schema``, so the docstrings below are also the help text editors see.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    HttpUrl,
    RootModel,
    Strict,
    Tag,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

Slug = Annotated[str, Strict(), Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
"""A lowercase ASCII id: letters, digits and single hyphens (safe in URLs and file names)."""

# --- Text ----------------------------------------------------------------------------------------
# Every text is Markdown, rendered by Python-Markdown, whose link and code-span parsers scan ahead
# from each `[` and each backtick: n characters with k of them cost about k·n steps, so a 100 KB
# text of `[a](` took minutes. The caps below keep the worst valid text under 40 ms, so the time
# to build a file grows with its size only. Deeply nested lists or quotes make Markdown recurse
# until Python gives up, so nesting is capped too. List caps bound how often a short text is
# repeated (a question is listed under each rule section it explains).


@dataclass(frozen=True)
class TextLimits:
    """How much of each thing one text of a kind may hold."""

    chars: int
    """Characters."""
    brackets: int
    """``[`` characters: each link needs one."""
    backticks: int
    """Backticks: each code span needs two."""


SHORT_TEXT = TextLimits(chars=300, brackets=3, backticks=10)
"""Titles, questions, names and labels: shown in many places (a question is also listed under
each rule section it explains), so they are kept small."""
TEXT = TextLimits(chars=2_000, brackets=10, backticks=40)
"""Paragraphs: summaries, introductions, notes."""
LONG_TEXT = TextLimits(chars=10_000, brackets=10, backticks=40)
"""Rule sections and FAQ answers (several screens on a phone)."""
MAX_NESTING = 10
"""Levels of nested lists and quotes on one line of a text."""

_FORBIDDEN_CHARS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)
"""Control characters (C0 but tab and newline, DEL, C1), line and paragraph separators, and the
bidirectional embeddings, overrides and isolates that can make a text display as something else
than it says; lone surrogates cannot even be written to a page, and U+FFFE and U+FFFF are not
characters XML allows (one would make the Atom feeds unreadable)."""

_INVISIBLE = frozenset("\u115f\u1160\u2800\u3164\uffa0\u034f")
"""Fillers that show as nothing but are letters or symbols to Unicode."""

_BLOCK_MARKER = re.compile(r" {0,3}(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))[ \t]?")
"""One list or quote marker at the start of a (remaining) line."""


def describe_value(value: Any) -> str:
    """A value as a message names it: ``boolean false``, ``number 1.0``, ``text 'x'``..."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"number {value!r}"[:60]
    if isinstance(value, dt.date):
        return f"date {value.isoformat()}"
    if isinstance(value, str):
        return f"text {value!r}"[:60]
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def describe_char(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``."""
    unnamed = "not a character" if unicodedata.category(char) == "Cn" else "a control character"
    return f"U+{ord(char):04X} ({unicodedata.name(char, unnamed)})"


def _char_label(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``."""
    return f"U+{ord(char):04X} {unicodedata.name(char, '')}".strip()


def _is_invisible(char: str) -> bool:
    return (
        char.isspace()
        or unicodedata.category(char) in ("Cf", "Zs")
        or char in _INVISIBLE
        or ("\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef")
    )


def _nesting(line: str) -> int:
    """How deep lists and quotes nest at the start of one line (4 spaces of indent = 1 level)."""
    expanded = line.expandtabs(4)
    stripped = expanded.lstrip(" ")
    depth = (len(expanded) - len(stripped)) // 4
    while (marker := _BLOCK_MARKER.match(stripped)) and marker.end() > 0:
        depth += 1
        stripped = stripped[marker.end() :]
    return depth


def check_text(value: str, limits: TextLimits) -> str:
    """A text fit to print: not too long, no hidden characters, not pathological Markdown."""
    if len(value) > limits.chars:
        raise ValueError(f"text is {len(value):,} characters; at most {limits.chars:,} here")
    bad = _FORBIDDEN_CHARS.search(value)
    if bad is not None:
        where = bad.start() + 1
        raise ValueError(
            f"text contains {describe_char(bad.group())} at character {where}; remove it"
        )
    if not value.strip():
        raise ValueError("text is empty")
    if all(_is_invisible(char) for char in value):
        shown = ", ".join(_char_label(c) for c in dict.fromkeys(value) if c not in " \t\n")
        raise ValueError(f"text has only invisible characters ({shown}); write the text")
    for char, limit, what in (("[", limits.brackets, "links"), ("`", limits.backticks, "code")):
        count = value.count(char)
        if count > limit:
            raise ValueError(f"text has {count} '{char}' ({what}); at most {limit} here")
    for number, line in enumerate(value.split("\n"), start=1):
        depth = _nesting(line)
        if depth > MAX_NESTING:
            raise ValueError(
                f"text nests lists or quotes {depth} levels deep on its line {number}; "
                f"at most {MAX_NESTING}"
            )
    return value


def _short_text(value: str) -> str:
    return check_text(value, SHORT_TEXT)


def _one_line(value: str) -> str:
    # A search term becomes a line of the jieba dictionary, a site name a line of the page head:
    # a line break would split it in two.
    if "\n" in value or "\t" in value:
        raise ValueError("must be one line: remove the line break or tab")
    return value


NonBlank = Annotated[str, Strict(), AfterValidator(_short_text), AfterValidator(_one_line)]
"""One line of text in one language (at most 300 characters)."""

# --- Numbers and dates ---------------------------------------------------------------------------

WholeNumber = Annotated[int, Strict()]
"""An integer written as a YAML number: ``"8"``, ``8.0`` and ``true`` are refused, not converted."""


def _calendar_date(value: Any) -> dt.date:
    """A YAML date, or the same quoted; never a number (``0`` would become 1970-01-01)."""
    if isinstance(value, dt.datetime):
        raise ValueError("expected a date (YYYY-MM-DD), got a date and time; leave out the time")
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError as exc:
            raise ValueError(f"invalid date {value!r}: {exc}") from None
    raise ValueError(f"expected a date (YYYY-MM-DD), got {describe_value(value)}")


CalendarDate = Annotated[dt.date, BeforeValidator(_calendar_date)]
"""A date written YYYY-MM-DD."""


def _check_ordered(low: int, high: int) -> None:
    """Shared by every record with a ``min`` and a ``max``."""
    if low > high:
        raise ValueError(f"min ({low}) is greater than max ({high})")


Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
"""A name usable in formulas: lowercase letters, digits and underscores, starting with a letter."""


Formula = Annotated[str, Strict()]
"""A scoring formula: integers, names, + - *, // by a positive constant, min(...), max(...); at
most 500 characters. Records keep its text: the scoring layer parses and checks it."""


class Record(BaseModel):
    """Base of every record: unknown keys are errors, docstrings become schema descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


LANGUAGES_CONTEXT = "languages"
"""Validation context key holding the site's languages (code → name); every text must have
each."""


def language_errors(written: tuple[str, ...], declared: dict[str, str]) -> list[InitErrorDetails]:
    """Each language a text lacks, and each it has that the site does not declare, located at
    the language's key: ``title.zh-Hant: missing 繁體中文 (zh-Hant) text; every text needs zh,
    en and zh-Hant``."""
    every = and_list(tuple(declared))
    errors = [
        _language_error(code, f"missing {name} ({code}) text; every text needs {every}")
        for code, name in declared.items()
        if code not in written
    ]
    errors += [
        _language_error(
            code,
            f"unknown language {code!r}: the site's languages are {every} "
            "(languages: in data/site.yaml)",
        )
        for code in written
        if code not in declared
    ]
    return errors


def _language_error(code: str, message: str) -> InitErrorDetails:
    # The message goes in as a value, so braces in a language's name are not a template.
    error = PydanticCustomError("text_language", "{message}", {"message": message})
    return InitErrorDetails(type=error, loc=(code,), input=code)


def and_list(words: tuple[str, ...]) -> str:
    """``zh and en``, ``zh, en and zh-Hant``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _language_texts(limits: TextLimits) -> Any:
    """A text per language code: each checked against ``limits``; which codes are required
    comes from ``data/site.yaml`` (``languages:``), checked after the field checks."""
    checked = Annotated[str, Strict(), AfterValidator(lambda value: check_text(value, limits))]
    return dict[str, checked]


class Text(RootModel[_language_texts(TEXT)]):  # type: ignore[misc]
    """A paragraph in every site language (at most 2,000 characters each), in Markdown:
    paragraphs, **bold**, *italic*, `code`, lists, quotes, tables and links to http:// or
    https:// addresses (at most 10). No headings, images or raw HTML: a heading is shown as
    text, an image or a link elsewhere is an error, HTML tags are shown as typed."""

    model_config = ConfigDict(frozen=True)

    limits: ClassVar[TextLimits] = TEXT
    """What the text in any language may hold."""

    @model_validator(mode="after")
    def _every_language(self, info: ValidationInfo) -> Text:
        # The site's language codes come from data/site.yaml, given as the validation context.
        declared = (info.context or {}).get(LANGUAGES_CONTEXT)
        if declared:
            errors = language_errors(tuple(self.root), declared)
            if errors:
                # Raised as a ValidationError, the errors keep their own keys in the location.
                raise ValidationError.from_exception_data(type(self).__name__, errors)
        return self

    def get(self, lang: str) -> str:
        """The text in the language with code ``lang``."""
        return self.root[lang]

    def __getitem__(self, lang: str) -> str:
        # Templates reach a language by key: ``text[lang]``, ``map(attribute=lang)``.
        return self.root[lang]

    def languages(self) -> tuple[str, ...]:
        """The language codes this text has, as written."""
        return tuple(self.root)


class ShortText(Text):
    """A title, question, name or label in every site language (at most 300 characters each):
    one line of Markdown with **bold**, *italic*, `code` and links to http(s) addresses (at
    most 3) only; line breaks are joined into spaces, and lists, quotes, tables, headings,
    images and raw HTML are not available."""

    limits: ClassVar[TextLimits] = SHORT_TEXT
    root: _language_texts(SHORT_TEXT)  # type: ignore[valid-type]


class LongText(Text):
    """A rule section or an answer in every site language (at most 10,000 characters each), in the
    same Markdown as a paragraph text: paragraphs, **bold**, *italic*, `code`, lists, quotes,
    tables and links to http(s) addresses (at most 10); no headings, images or raw HTML."""

    limits: ClassVar[TextLimits] = LONG_TEXT
    root: _language_texts(LONG_TEXT)  # type: ignore[valid-type]


class IntRange(Record):
    """An inclusive range of whole numbers; ``min`` may equal ``max``."""

    min: WholeNumber = Field(ge=0, le=100_000)
    """Lower bound."""
    max: WholeNumber = Field(ge=0, le=100_000)
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

    bgg_id: WholeNumber = Field(gt=0, lt=100_000_000)
    """BoardGameGeek id of the game (used for the BGG link)."""
    bgg_rank: WholeNumber = Field(gt=0, lt=10_000_000)
    """BGG overall rank when the data was verified (a snapshot, not live)."""
    weight: Annotated[float, Strict(), Field(ge=1, le=5, allow_inf_nan=False)]
    """BGG complexity weight, 1–5 (a number such as 3.54)."""
    best_players: IntRange
    """Community-best player count."""
    players: IntRange
    """Supported player count."""
    play_time: IntRange
    """Play time in minutes."""
    mechanics: list[Slug] = Field(min_length=1, max_length=40)
    """BGG mechanic tags, as ids defined in ``data/site.yaml``, in BGG's order."""
    chinese_edition: EditionStatus
    """Chinese publishing status."""
    online_play: OnlinePlayStatus
    """Online-play status on the platform named in ``data/site.yaml``."""
    year: WholeNumber = Field(ge=1800, le=2100)
    """Year of first publication."""
    min_age: WholeNumber = Field(ge=1, le=99)
    """Publisher's minimum age."""
    verified: CalendarDate
    """Date the card's figures were last checked (YYYY-MM-DD); not in the future."""


# --- Modules (expansions, variants, modes) -------------------------------------------------------


class ModuleKind(StrEnum):
    """What a module is."""

    expansion = "expansion"
    variant = "variant"
    mode = "mode"
    promo = "promo"


class Module(Record):
    """An expansion, variant, mode (e.g. solo, two players) or promo of a game, covered or not."""

    id: Slug
    """Id used by ``module:`` tags; starts with a letter (a calculator that uses it gets a yes/no
    setting of this name, hyphens written as underscores)."""
    name: ShortText
    """Name as shown on the module's tag and in the overview's list."""
    kind: ModuleKind
    """expansion, variant, mode (solo, two players...) or promo."""
    in_scope: Annotated[bool, Strict()]
    """True when the pages cover it (its rules, rulings and scoring lines may be tagged with it);
    false when it is only listed as not covered."""
    note: Text | None = None
    """One or two sentences about what it changes or why it is left out."""


# --- Images and setup tables (issue 10) -----------------------------------------------------------

IMAGE_FOLDER = "images"
"""Where pictures live, under ``data/``; the built site has a copy per language, same paths."""

_IMAGE_NAME = r"[a-z0-9]+(?:[-_][a-z0-9]+)*"
_IMAGE_PATH = rf"^{_IMAGE_NAME}(?:/{_IMAGE_NAME})*\.(?:png|jpe?g|webp|gif)$"
"""Folders and a file name of lowercase letters, digits, ``-`` and ``_``, and a raster extension:
no ``..``, no leading ``/``, nothing a URL or a page would have to escape."""


def _image_path(value: str) -> str:
    if not re.fullmatch(_IMAGE_PATH, value) or len(value) > 200:
        raise ValueError(
            f"{value[:80]!r} is not an image path under data/{IMAGE_FOLDER}/: use lowercase "
            "letters, digits, - and _, folders separated by /, ending .png, .jpg, .jpeg, .webp "
            "or .gif (e.g. nations/setup.png)"
        )
    return value


ImagePath = Annotated[
    str, Strict(), AfterValidator(_image_path), Field(json_schema_extra={"pattern": _IMAGE_PATH})
]
"""A file under ``data/images/``, e.g. ``nations/setup.png``."""


class Image(Record):
    """A picture from ``data/images/`` with its alternative text: PNG, JPEG, WebP or GIF (never
    SVG, which can carry scripts), at most 500 KB. The page sets its width and height from the
    file, loads it lazily and shrinks it to the screen."""

    file: ImagePath
    """Path under ``data/images/``, e.g. ``nations/setup.png`` (lowercase letters, digits, - and
    _, folders separated by /)."""
    alt: ShortText
    """What the picture shows, for readers who cannot see it; required in every language."""
    caption: ShortText | None = None
    """A line shown under the picture (optional)."""


class SetupColumnType(StrEnum):
    """What the cells of a setup table's column hold."""

    integer = "integer"
    text = "text"
    yes_no = "yes_no"


class SetupColumn(Record):
    """One column of a setup table (the first column, the player count, is implicit)."""

    id: Slug
    """Key of the column's cells in each row."""
    label: ShortText
    """Column heading."""
    type: SetupColumnType
    """integer: a whole number; text: a short text in every language; yes_no: true or false."""


_CELL_TEXT_TAG = "(text)"
"""Pydantic names the member of a cell's union in error paths; messages leave it out."""

UNION_TAGS = frozenset({_CELL_TEXT_TAG})
"""Names of union members that ``validate`` removes from error paths."""


def _cell_kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return "yes_no"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, dict | BaseModel):
        return _CELL_TEXT_TAG
    return None


SetupCell = Annotated[
    Annotated[Annotated[bool, Strict()], Tag("yes_no")]
    | Annotated[WholeNumber, Field(ge=-100_000, le=100_000), Tag("integer")]
    | Annotated[ShortText, Tag(_CELL_TEXT_TAG)],
    Discriminator(
        _cell_kind,
        custom_error_type="setup_cell",
        custom_error_message="expected a whole number, true or false, or a text in every language",
    ),
]
"""A cell: a whole number, true or false, or a short text in every language (as its column says)."""


class SetupRow(Record):
    """The setup for one player count."""

    players: WholeNumber = Field(ge=1, le=100)
    """Player count; within the card's supported player count, one row per count."""
    cells: dict[Slug, SetupCell]
    """A value for every column, by column id, of the column's type."""


class SetupTable(Record):
    """Setup facts that depend on the player count, as a table: a row per player count."""

    id: Slug
    """Anchor of the table, the same in both languages."""
    title: ShortText
    """Heading of the table."""
    columns: list[SetupColumn] = Field(min_length=1, max_length=8)
    """Columns after the player count, in order."""
    rows: list[SetupRow] = Field(min_length=1, max_length=20)
    """One row per player count, in rising order."""
    note: Text | None = None
    """A paragraph under the table (e.g. what the rows leave out)."""
    rule: Slug | None = None
    """Id of the rule section the table is shown in; without it the table is shown in its own
    section at the end of the rules page."""


class RuleSection(Record):
    """One titled section of the rules summary."""

    id: Slug
    """Anchor of the section, the same in both languages."""
    title: ShortText
    """Section heading."""
    body: LongText
    """The rules, as Markdown paragraphs."""
    images: list[Image] = Field(default_factory=list, max_length=10)
    """Pictures shown under the section (a board set up, a scoring example)."""
    module: Slug | None = None
    """Id of the in-scope module this section belongs to (e.g. the solo rules); shown as a tag,
    and readers can hide the modules they do not play."""
    cites: list[Citation] = Field(default_factory=list, max_length=5)
    """Sources of the section (e.g. the rulebook, with its pages), shown under it."""


class Ruling(Record):
    """One FAQ ruling: a question players ask and the answer the rules give."""

    id: Slug
    """Stable anchor of the ruling, the same in both languages; never change it once published."""
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


class Coverage(Record):
    """Which edition the summary covers and what it leaves out."""

    edition: Text
    """Edition, rulebook and player counts the summary is based on."""
    excludes: Text
    """Expansions, variants and modes that are not covered."""
    notes: list[Text] = Field(default_factory=list, max_length=20)
    """Further caveats (e.g. questions the rules leave open)."""


class SourceKind(StrEnum):
    """What a source is."""

    rules = "rules"
    faq = "faq"
    ruling = "ruling"
    community = "community"
    reference = "reference"


class Source(Record):
    """A source the page's facts come from. Rule sections and rulings cite it by ``id``."""

    id: Slug | None = None
    """Name a citation uses (``cites: [{source: <id>}]``), unique within the game; needed only
    to cite the source."""
    kind: SourceKind
    """rules: the publisher's rulebook; faq: an official FAQ or errata; ruling: a publisher's or
    designer's ruling (an answer by mail or in a forum); community: players' notes; reference:
    a catalogue such as BGG."""
    name: ShortText
    """Name of the source as shown (title, publisher, version)."""
    url: HttpUrl | None = None
    """Link; leave out when there is no stable public address."""
    issued: CalendarDate | None = None
    """Date the source was published or last revised, when the source gives one (YYYY-MM-DD);
    not in the future."""
    verified: CalendarDate | None = None
    """Date someone last checked the source itself: still available, still this version
    (YYYY-MM-DD); not before ``issued``, not in the future. Citations without a date of their
    own take this one."""
    note: Text | None = None
    """What the source was used for."""


class Citation(Record):
    """Where a rule section or ruling comes from: one of the game's sources, and where in it."""

    source: Slug
    """Id of one of the game's ``sources``."""
    where: ShortText | None = None
    """Page or section in the source, in both languages (第 8–9 页 / pp. 8–9); leave out when
    the source gives no page or section for it."""
    verified: CalendarDate | None = None
    """Date this point was last checked against the source (YYYY-MM-DD), when it differs from
    the source's ``verified``; not before the source's ``issued``, not in the future. A
    citation needs a date: its own or its source's."""


class LearningKind(StrEnum):
    """What a learning resource offers."""

    rules = "rules"
    strategy = "strategy"
    online = "online"


class LearningResource(Record):
    """A place to learn the game: rules text, strategy article or online play."""

    kind: LearningKind
    """rules, strategy or online."""
    name: ShortText
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
    """True when no two players may have the same value (e.g. turn order). A player who leaves it
    out counts their position: ``min`` for the first player, one more for each next."""
    at_most_one: bool = False
    """True when at most one player may have a value other than 0 (e.g. who holds the Longest
    Road card)."""

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


def _alias_length(value: str) -> str:
    if len(value) > 60:
        raise ValueError(f"an alias is at most 60 characters; this one has {len(value)}")
    return value


GlossaryAlias = Annotated[
    str,
    Strict(),
    AfterValidator(_short_text),
    AfterValidator(_one_line),
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
    definition: Text
    """What the term means, in a sentence or two."""
    rules: list[Slug] = Field(default_factory=list, max_length=10)
    """Ids of the rule sections that explain it (each is linked)."""


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


class Mechanic(Record):
    """A BGG mechanic tag with its label in both languages."""

    id: Slug
    """Id used in game files."""
    label: ShortText
    """Label; the English one is BGG's own name."""
    special_mode: Annotated[bool, Strict()] = False
    """True for tags that mean a special mode (e.g. solo); the player-count answer mentions them."""


class Topic(Record):
    """A topic tag for rulings."""

    id: Slug
    """Id used in ``faq[].tags``."""
    label: ShortText
    """Label shown on the FAQ page."""


def _no_markup(value: str) -> str:
    if any(c in value for c in '<>&"'):
        raise ValueError('must not contain < > & or " (the theme prints it as it is)')
    return value


PlainText = Annotated[
    str,
    Strict(),
    AfterValidator(_short_text),
    AfterValidator(_one_line),
    AfterValidator(_no_markup),
]
"""One line of text that is printed as it is (no Markdown, no markup characters)."""


_LANGUAGE_TAG = r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$"
_URL_FOLDER = r"^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$"


def _language_tag(value: str) -> str:
    if len(value) > 35 or not re.fullmatch(_LANGUAGE_TAG, value):
        raise ValueError(
            f"{value!r} is not a language tag: write one such as zh, en, zh-Hant or ja"
        )
    return value


def _url_folder(value: str) -> str:
    if len(value) > 35 or not re.fullmatch(_URL_FOLDER, value):
        raise ValueError(
            f"{value!r} is not a URL folder: lowercase letters, digits and single hyphens, "
            'no slashes (e.g. en or zh-hant; "" for the root language)'
        )
    return value


LanguageCode = Annotated[
    str,
    Strict(),
    AfterValidator(_language_tag),
    Field(json_schema_extra={"pattern": _LANGUAGE_TAG, "maxLength": 35}),
]
"""A BCP 47 language tag such as ``zh``, ``en`` or ``zh-Hant``."""

UrlFolder = Annotated[
    str,
    Strict(),
    AfterValidator(_url_folder),
    Field(json_schema_extra={"pattern": _URL_FOLDER, "maxLength": 35}),
]
"""A folder name in URLs: lowercase letters, digits and single hyphens; empty for the root."""


class SearchSettings(Record):
    """How the search of one language's pages splits text into words."""

    lang: list[LanguageCode] = Field(min_length=1, max_length=10)
    """Languages of Material's search (its ``search.lang``: word stemming and stop words), e.g.
    ``[en, zh]``."""
    jieba: Annotated[bool, Strict()] = False
    """True when the pages are Chinese: the games' ``terms`` and titles become a jieba user
    dictionary, so search keeps them whole words."""


class Language(Record):
    """One language of the site: its pages, address and search."""

    code: LanguageCode
    """Code used as the key of every text (``zh``, ``en``, ``zh-Hant``) and in
    ``rulesite build --language``; it names the folder ``content/<code>/``."""
    name: PlainText
    """Name in the language menu, in the language itself (简体中文, English, 繁體中文)."""
    html_lang: LanguageCode
    """The pages' ``<html lang>`` and Material's interface language (Material must translate
    it: ``zh``, ``en``, ``zh-Hant``, ``ja``...)."""
    prefix: UrlFolder
    """URL folder of the language's pages (``en`` → ``/en/``); empty for the first language,
    which is published at the site root."""
    site_name: PlainText
    """Site name in this language (browser title, header); plain text."""
    tagline: NonBlank
    """One line under the site name on the home page."""
    sentence_space: Annotated[bool, Strict()]
    """True when sentences are separated by a space (English); false when they run on
    (Chinese)."""
    search: SearchSettings
    """Search settings of this language's pages."""


class SiteData(Record):
    """Site-wide data (``data/site.yaml``)."""

    languages: list[Language] = Field(min_length=1, max_length=20)
    """The site's languages, the one published at the root first. Every text in the data has
    one entry per language, keyed by its ``code``."""
    names_language: LanguageCode
    """Code of the language of the games' and mechanics' BoardGameGeek names: the other
    languages' pages show those names beside their own."""

    @property
    def codes(self) -> tuple[str, ...]:
        """The language codes, the root language's first."""
        return tuple(language.code for language in self.languages)

    @property
    def root_language(self) -> Language:
        """The language published at the site root."""
        return self.languages[0]

    def language(self, code: str) -> Language:
        """The language with ``code`` (a KeyError for an undeclared code)."""
        for language in self.languages:
            if language.code == code:
                return language
        raise KeyError(code)

    platform: ShortText
    """Name of the online-play platform the card reports on (e.g. WANGO)."""
    mechanics: list[Mechanic] = Field(min_length=1, max_length=500)
    """Every mechanic tag games may use."""
    topics: list[Topic] = Field(min_length=1, max_length=200)
    """Every topic tag rulings may use."""
    labels: dict[str, ShortText]
    """Interface wording by key; ``{name}`` placeholders are filled in by the templates."""
    stale_after_days: WholeNumber = Field(default=365, ge=1, le=36_500)
    """Days after which a verification date is old: the card or a ruling last verified longer
    ago is flagged on its page and listed by `rulesite validate` as a warning."""
