"""Provenance: which source each rule section and ruling comes from, and how fresh that is.

A game lists its ``sources`` once (``model.Source``); rule sections, rulings and any other record
cite them by id (``model.Citation``: a source, where in it, and when that was last checked).
This module holds what follows from that and is needed by more than one stage:

- the cross checks (citations resolve, ids unique, dates not in the future, a check not older
  than the source it checks), run by ``validate.check_game``;
- a ruling's verified date: the oldest of its citations' dates, each the citation's own or its
  source's (a ruling is as fresh as its least recently checked source);
- staleness: the card or a ruling verified longer ago than ``stale_after_days`` (``data/site.
  yaml``) is flagged on its page and listed by ``rulesite validate`` as a warning.

Staleness is measured on one day, the catalog's ``as_of`` (:func:`measuring_day`): the day
given to ``load_catalog`` (tests), else the day of ``SOURCE_DATE_EPOCH`` when it is set, else
today. So a build is byte-for-byte reproducible whenever ``SOURCE_DATE_EPOCH`` is set; without
it, a page gains its flag on the first build after the limit has passed.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from rulesite.errors import Document, KeyPath, Problem, UsageError
from rulesite.model import Citation, Game, Source, Text


def measuring_day(today: dt.date | None = None) -> dt.date:
    """The day verification ages are measured on: ``today`` when given, else the UTC day of
    ``SOURCE_DATE_EPOCH`` when set (the build date of a reproducible build), else today."""
    if today is not None:
        return today
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return dt.date.today()
    try:
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    except (ValueError, OverflowError, OSError):
        raise UsageError(
            f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01, got {epoch[:40]!r}"
        ) from None


@dataclass(frozen=True)
class Freshness:
    """How old a verification date may be, measured on one day; what templates ask."""

    as_of: dt.date
    """The day ages are measured on."""
    max_days: int
    """Older than this many days is stale."""

    def age(self, verified: dt.date) -> int:
        """Days from ``verified`` to the measuring day (negative for a later date)."""
        return (self.as_of - verified).days

    def is_stale(self, verified: dt.date | None) -> bool:
        """Whether ``verified`` is more than ``max_days`` old (no date is not stale)."""
        return verified is not None and self.age(verified) > self.max_days

    def verified(self, game: Game, cites: list[Citation]) -> dt.date | None:
        """The date a record citing ``cites`` counts as verified (see :func:`cited_verified`)."""
        return cited_verified(game, cites)


def sources_by_id(game: Game) -> dict[str, Source]:
    """The game's citable sources by id (the first of a duplicated id)."""
    found: dict[str, Source] = {}
    for source in game.sources:
        if source.id is not None:
            found.setdefault(source.id, source)
    return found


def citation_verified(citation: Citation, sources: dict[str, Source]) -> dt.date | None:
    """The date a citation was last checked: its own, else its source's."""
    if citation.verified is not None:
        return citation.verified
    source = sources.get(citation.source)
    return source.verified if source is not None else None


def cited_verified(game: Game, cites: list[Citation]) -> dt.date | None:
    """The oldest of the citations' recorded dates; None when none of them has one."""
    sources = sources_by_id(game)
    dates = [d for c in cites if (d := citation_verified(c, sources)) is not None]
    return min(dates, default=None)


# --- Cross checks ----------------------------------------------------------------------------


def check_provenance(game: Game, doc: Document, today: dt.date) -> list[Problem]:
    """Source ids unique, citations resolve, no date in the future, no check before the source
    was issued."""
    problems = _source_problems(game, doc, today)
    sources = sources_by_id(game)
    for path, citation in citations(game):
        problems += _citation_problems(citation, path, sources, doc, today)
    for path, cites in _citing_lists(game):
        problems += _cited_twice(cites, path, doc)
    return problems


def _source_problems(game: Game, doc: Document, today: dt.date) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for index, source in enumerate(game.sources):
        path: KeyPath = ("sources", index)
        if source.id is not None and source.id in seen:
            problems.append(doc.problem((*path, "id"), f"duplicate source id {source.id!r}"))
        if source.id is not None:
            seen.add(source.id)
        for key in ("issued", "verified"):
            date = getattr(source, key)
            if date is not None and date > today:
                problems.append(doc.problem((*path, key), _in_future(date)))
        if source.issued and source.verified and source.verified < source.issued:
            message = (
                f"verified {source.verified.isoformat()} is before the source was issued "
                f"({source.issued.isoformat()})"
            )
            problems.append(doc.problem((*path, "verified"), message))
    return problems


def _citation_problems(
    citation: Citation,
    path: KeyPath,
    sources: dict[str, Source],
    doc: Document,
    today: dt.date,
) -> list[Problem]:
    source = sources.get(citation.source)
    if source is None:
        return [doc.problem((*path, "source"), _unknown_source(citation.source, sources))]
    problems = []
    if citation.verified is not None:
        if citation.verified > today:
            problems.append(doc.problem((*path, "verified"), _in_future(citation.verified)))
        if source.issued is not None and citation.verified < source.issued:
            message = (
                f"verified {citation.verified.isoformat()} is before source "
                f"{citation.source!r} was issued ({source.issued.isoformat()})"
            )
            problems.append(doc.problem((*path, "verified"), message))
    # No date at all is fine: a date is shown only where one is recorded (never inherited
    # from the card's check date), and staleness works from the dates that exist.
    return problems


def _cited_twice(cites: list[Citation], path: KeyPath, doc: Document) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for index, citation in enumerate(cites):
        if citation.source in seen:
            message = (
                f"source {citation.source!r} is cited twice here; "
                "name every place in one citation's `where`"
            )
            problems.append(doc.problem((*path, index, "source"), message))
        seen.add(citation.source)
    return problems


def _unknown_source(ref: str, sources: dict[str, Source]) -> str:
    if not sources:
        return f"no source with id {ref!r}: give one of the game's sources `id: {ref}`"
    close = difflib.get_close_matches(ref, sources, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"no source with id {ref!r} ({hint}known: {', '.join(sorted(sources))})"


def _in_future(date: dt.date) -> str:
    return f"date {date.isoformat()} is in the future"


def citations(record: BaseModel, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Citation]]:
    """Every citation in a record, with its key path; whichever record holds it (rule
    sections, rulings, and records added later that cite sources too)."""
    found: list[tuple[KeyPath, Citation]] = []
    _citations_in_fields(record, path, found)
    return iter(found)


_LEAVES = (str, int, float, bool, type(None), dt.date, dict, Text)
"""Values no citation is looked for in (the walks below run over every field of a game)."""


def _fields(record: BaseModel) -> Iterator[tuple[str, object]]:
    # A partial record may lack a field.
    return ((name, getattr(record, name, None)) for name in type(record).model_fields)


def _citations_in_fields(record: BaseModel, path: KeyPath, found: list) -> None:
    for name, value in _fields(record):
        if not isinstance(value, _LEAVES):
            _citations_in(value, (*path, name), found)


def _citations_in(value: object, path: KeyPath, found: list) -> None:
    if isinstance(value, Citation):
        found.append((path, value))
    elif isinstance(value, BaseModel):
        _citations_in_fields(value, path, found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if not isinstance(item, _LEAVES):
                _citations_in(item, (*path, index), found)


def _citing_lists(record: BaseModel, path: KeyPath = ()) -> list[tuple[KeyPath, list]]:
    """Every list of citations in a record, with its key path."""
    found: list[tuple[KeyPath, list]] = []
    _lists_in_fields(record, path, found)
    return found


def _lists_in_fields(record: BaseModel, path: KeyPath, found: list) -> None:
    for name, value in _fields(record):
        if not isinstance(value, _LEAVES):
            _lists_in(value, (*path, name), found)


def _lists_in(value: object, path: KeyPath, found: list) -> None:
    if isinstance(value, list):
        if value and all(isinstance(item, Citation) for item in value):
            found.append((path, value))
            return
        for index, item in enumerate(value):
            if not isinstance(item, _LEAVES):
                _lists_in(item, (*path, index), found)
    elif isinstance(value, BaseModel):
        _lists_in_fields(value, path, found)


# --- Staleness -------------------------------------------------------------------------------


def stale_warnings(game: Game, doc: Document, freshness: Freshness) -> list[Problem]:
    """The card and every ruling verified longer ago than allowed, and rulings that cite no
    source: what `rulesite validate` lists as warnings."""
    warnings = []
    if freshness.is_stale(game.card.verified):
        warnings.append(doc.problem(("card", "verified"), _stale(game.card.verified, freshness)))
    for index, ruling in enumerate(game.faq):
        if not ruling.cites:
            message = "cites no source; add `cites` naming the rulebook or FAQ it comes from"
            warnings.append(doc.problem(("faq", index), message))
            continue
        verified = cited_verified(game, ruling.cites)
        if freshness.is_stale(verified):
            assert verified is not None
            warnings.append(doc.problem(("faq", index), _stale(verified, freshness)))
    return warnings


def _stale(verified: dt.date, freshness: Freshness) -> str:
    return (
        f"last verified {verified.isoformat()}, {freshness.age(verified)} days ago "
        f"(more than {freshness.max_days}): re-check it"
    )
