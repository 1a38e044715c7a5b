"""The rules summary: modules, pictures, setup tables, rule sections and coverage."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    Discriminator,
    Field,
    Strict,
    Tag,
)

from rulesite.model.base import LongText, Record, ShortText, Slug, Text, WholeNumber
from rulesite.model.sources import Citation

# --- Modules (expansions, variants, modes) -------------------------------------------------------


class ModuleKind(StrEnum):
    """What a module is."""

    expansion = "expansion"
    variant = "variant"
    mode = "mode"
    promo = "promo"
    kickstarter = "kickstarter"


class Module(Record):
    """An expansion, variant, mode (e.g. solo, two players) or promo of a game, covered or not."""

    id: Slug
    """Id used by ``module:`` tags; starts with a letter (a calculator that uses it gets a yes/no
    setting of this name, hyphens written as underscores)."""
    name: ShortText
    """Name as shown on the module's tag and in the overview's list."""
    kind: ModuleKind
    """expansion, variant, mode (solo, two players...), promo, or kickstarter (content sold
    only through the game's Kickstarter campaign: Kickstarter-exclusive modules)."""
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


class Coverage(Record):
    """Which edition the summary covers and what it leaves out."""

    edition: Text
    """Edition, rulebook and player counts the summary is based on."""
    excludes: Text
    """Expansions, variants and modes that are not covered."""
    notes: list[Text] = Field(default_factory=list, max_length=20)
    """Further caveats (e.g. questions the rules leave open)."""
