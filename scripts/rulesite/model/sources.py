"""Where facts come from: sources, citations and learning resources."""

from __future__ import annotations

from enum import StrEnum

from pydantic import (
    HttpUrl,
)

from rulesite.model.base import CalendarDate, Record, ShortText, Slug, Text


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
