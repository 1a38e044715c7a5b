"""The parameter card."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import (
    Field,
    Strict,
)

from rulesite.model.base import CalendarDate, IntRange, Record, Slug, WholeNumber


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
