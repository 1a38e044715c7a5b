"""Where facts come from: sources, citations and learning resources."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import HttpUrl, StringConstraints

from rulesite.model.base import CalendarDate, NonBlank, Record, ShortText, Slug, Text

VersionLabel = Annotated[NonBlank, StringConstraints(max_length=40)]
"""A source's own version label, as printed (one line, at most 40 characters)."""


class SourceKind(StrEnum):
    """What a source is."""

    rules = "rules"
    faq = "faq"
    errata = "errata"
    ruling = "ruling"
    community = "community"
    reference = "reference"


class Source(Record):
    """A source the page's facts come from. Rule sections and rulings cite it by ``id``."""

    id: Slug | None = None
    """Name a citation uses (``cites: [{source: <id>}]``), unique within the game; needed only
    to cite the source."""
    kind: SourceKind
    """rules: the publisher's rulebook; faq: an official FAQ; errata: an official correction of
    the rules (an erratum is its own source, not part of the FAQ); ruling: a publisher's or
    designer's ruling (an answer by mail or in a forum); community: players' notes; reference:
    a catalogue such as BGG or a publisher's product page."""
    name: ShortText
    """Name of the source as shown (title, publisher, version)."""
    url: HttpUrl | None = None
    """Link; leave out when there is no stable public address."""
    version: VersionLabel | None = None
    """The version label the source prints on itself, exactly as printed (``2026-06-03-EN``);
    a label, not a date, even when it looks like one: give ``issued`` only when the source
    states an issue date."""
    issued: CalendarDate | None = None
    """Date the source says it was published or last revised (YYYY-MM-DD), only when it states
    one; not in the future."""
    verified: CalendarDate | None = None
    """Date this source itself was checked, only when one is recorded for it (YYYY-MM-DD); not
    before ``issued``, not in the future. Never copied from the card's check date: a source
    without one shows none."""
    background: bool = False
    """True for a background reference (BGG, community notes) used only for the introduction
    and the card, not for the rules: the overview lists it under its own heading."""
    note: Text | None = None
    """What the source was used for, and anything readers need to know about the copy read
    (a mirror, an older version)."""


class Citation(Record):
    """Where a rule section or ruling comes from: one of the game's sources, and where in it."""

    source: Slug
    """Id of one of the game's ``sources``."""
    where: ShortText | None = None
    """Page or section in the source, in both languages (第 8–9 页 / pp. 8–9); leave out when
    the source gives no page or section for it."""
    verified: CalendarDate | None = None
    """Date this point was last checked against the source (YYYY-MM-DD), only when one is
    recorded; not before the source's ``issued``, not in the future. Without it the citation
    takes its source's ``verified``, and without that it shows no date."""


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
