"""Cross checks of one game: references resolve, ids unique, texts' links safe, setup tables fit."""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel

from rulesite import markup
from rulesite.check.aid import check_aid
from rulesite.check.fields import (
    duplicate_ids,
    reserved_page_name,
    unknown_id,
    unknown_reference,
)
from rulesite.check.glossary import check_glossary
from rulesite.check.provenance import check_provenance
from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import (
    Game,
    SetupColumnType,
    SiteData,
    Text,
    describe_value,
)
from rulesite.scoring.modules import module_setting_problems

Run = Callable[[Callable[[], list[Problem]]], list[Problem]]
"""How a check is run: directly, or guarded on a partial game (``check/partial.guarded``)."""


def _direct(check: Callable[[], list[Problem]]) -> list[Problem]:
    return check()


def check_game(
    game: Game,
    doc: Document,
    stem: str,
    site: SiteData | None,
    today: dt.date,
    run: Run = _direct,
) -> list[Problem]:
    """Cross checks of one game that types alone cannot express, each run through ``run``
    (so that on a partial game one that meets a refused part is skipped, not the rest)."""
    checks: list[Callable[[], list[Problem]]] = [
        lambda: _slug_is_file_name(game, doc, stem),
        lambda: reserved_page_name(doc, ("slug",), game.slug, "slug"),
        lambda: duplicate_ids(doc, "rules", [r.id for r in game.rules], "rule section id"),
        lambda: duplicate_ids(doc, "faq", [r.id for r in game.faq], "ruling id"),
        lambda: _ruling_aliases(game, doc),
        lambda: duplicate_ids(doc, "glossary", [term.id for term in game.glossary], "glossary id"),
        lambda: _glossary_anchors_taken(game, doc),
        lambda: check_glossary(game, doc, site.codes if site is not None else None),
        lambda: check_changes(game, doc, today),
        lambda: _rule_references_resolve(game, doc),
        lambda: check_provenance(game, doc, today),
        lambda: _card_checks(game, doc, today),
        lambda: check_aid(game, doc),
    ]
    if site is not None:
        mechanics = {m.id for m in site.mechanics}
        topics = {t.id for t in site.topics}
        checks.append(
            lambda: unknown_id(
                doc, ("card", "mechanics"), game.card.mechanics, mechanics, "mechanic"
            )
        )
        for index, ruling in enumerate(game.faq):
            checks.append(
                lambda index=index, ruling=ruling: unknown_id(
                    doc, ("faq", index, "tags"), ruling.tags, topics, "topic"
                )
            )
    return [problem for check in checks for problem in run(check)]


def _slug_is_file_name(game: Game, doc: Document, stem: str) -> list[Problem]:
    if game.slug == stem:
        return []
    return [doc.problem(("slug",), f"slug {game.slug!r} must equal the file name {stem!r}")]


def _rule_references_resolve(game: Game, doc: Document) -> list[Problem]:
    rule_ids = {r.id for r in game.rules}
    return [
        doc.problem(path, unknown_reference("rule section", ref, rule_ids))
        for path, ref in _rule_references(game)
        if ref not in rule_ids
    ]


def _card_checks(game: Game, doc: Document, today: dt.date) -> list[Problem]:
    problems = []
    card = game.card
    if getattr(card, "verified", today) > today:
        message = f"date {card.verified.isoformat()} is in the future"
        problems.append(doc.problem(("card", "verified"), message))
    if card.best_players.min < card.players.min or card.best_players.max > card.players.max:
        problems.append(
            doc.problem(
                ("card", "best_players"),
                "best player count lies outside the supported player count",
            )
        )
    return problems


MAX_MODULE_ID = 40
"""Longest module id: a calculator that uses the module gets a setting of that name."""


def check_slug_aliases(games: list[Game], documents: dict[str, Document]) -> list[Problem]:
    """A game's earlier slug is no game's slug and no other earlier slug: an old URL must
    redirect to one game, and never hide a live page."""
    problems = []
    owner = {game.slug: game.slug for game in games}
    for game in games:
        for position, alias in enumerate(game.aliases):
            taken = owner.get(alias)
            if taken is not None:
                what = "the slug" if taken == alias else "an earlier slug"
                message = f"{alias!r} is already {what} of game {taken!r}"
                problems.append(documents[game.slug].problem(("aliases", position), message))
            else:
                owner[alias] = game.slug
    return problems


def _ruling_aliases(game: Game, doc: Document) -> list[Problem]:
    """A ruling's earlier id names no other ruling: an old link must land on one ruling."""
    problems = []
    owner = {ruling.id: f"faq[{index}]" for index, ruling in enumerate(game.faq)}
    for index, ruling in enumerate(game.faq):
        for position, alias in enumerate(ruling.aliases):
            taken = owner.get(alias)
            if taken is not None:
                message = f"{alias!r} is already the id or an earlier id of {taken}"
                problems.append(doc.problem(("faq", index, "aliases", position), message))
            else:
                owner[alias] = f"faq[{index}]"
    return problems


def check_modules(game: Game, doc: Document) -> list[Problem]:
    """Module ids are unique and can name a setting; every ``module:`` tag names a module the
    pages cover (one that is not covered is listed, never summarised or scored)."""
    problems = duplicate_ids(doc, "modules", [m.id for m in game.modules], "module id")
    for index, module in enumerate(game.modules):
        if not module.id[0].isalpha() or len(module.id) > MAX_MODULE_ID:
            message = (
                f"module id {module.id!r} must start with a letter and have at most "
                f"{MAX_MODULE_ID} characters (a calculator gets a setting of that name)"
            )
            problems.append(doc.problem(("modules", index, "id"), message))
    modules = {m.id: m for m in game.modules}
    for path, ref in _module_tags(game):
        module = modules.get(ref)
        if module is None:
            problems.append(doc.problem(path, _unknown_module(ref, sorted(modules))))
        elif not module.in_scope:
            message = (
                f"module {ref!r} is not covered (in_scope: false): nothing may be tagged with "
                "it; set in_scope: true if the pages cover it, or remove the tag"
            )
            problems.append(doc.problem(path, message))
    for index, calc in enumerate(game.scoring):
        for where, message in module_setting_problems(calc):
            problems.append(doc.problem(("scoring", index, *where), message))
    return problems


def _module_tags(game: Game) -> Iterator[tuple[KeyPath, str]]:
    """Every ``module:`` tag of a game, with its key path."""
    for index, section in enumerate(game.rules):
        if section.module is not None:
            yield ("rules", index, "module"), section.module
    for index, ruling in enumerate(game.faq):
        if ruling.module is not None:
            yield ("faq", index, "module"), ruling.module
    for index, calc in enumerate(game.scoring):
        for term_index, term in enumerate(calc.terms):
            if term.module is not None:
                yield ("scoring", index, "terms", term_index, "module"), term.module


def _unknown_module(ref: str, known: list[str]) -> str:
    if not known:
        return f"no module with id {ref!r}: define it under modules: first"
    close = difflib.get_close_matches(ref, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
    return f"no module with id {ref!r} ({hint})"


def check_text_links(record: BaseModel, doc: Document, path: KeyPath = ()) -> list[Problem]:
    """Links in data text go to web addresses and there are no images: the page drops others."""
    problems = []
    for text_path, text in _texts(record, path):
        for target in markup.unsafe_links(text):
            message = (
                f"link or image {target[:80]!r}: texts may only link to http:// or https:// "
                "addresses and show no images (link rule sections with a ruling's `rules:`)"
            )
            problems.append(doc.problem(text_path, message))
    return problems


def _texts(value: Any, path: KeyPath) -> list[tuple[KeyPath, str]]:
    """Every text of every language in a record, with its key path (in field order)."""
    found: list[tuple[KeyPath, str]] = []
    _texts_in(value, path, found)
    return found


_LEAVES = (str, int, float, bool, type(None), dt.date)
"""Values that hold no text record: most of a record, skipped before a path is made."""


def _texts_in(value: Any, path: KeyPath, found: list[tuple[KeyPath, str]]) -> None:
    if isinstance(value, Text):
        found.extend(((*path, lang), text) for lang, text in value.root.items())
        return
    if isinstance(value, BaseModel):
        # A partial record may lack a field.
        items: Any = ((name, getattr(value, name, None)) for name in type(value).model_fields)
    elif isinstance(value, list):
        items = enumerate(value)
    elif isinstance(value, dict):
        items = value.items()
    else:
        return
    for key, item in items:
        if not isinstance(item, _LEAVES):
            _texts_in(item, (*path, key), found)


def _rule_references(game: Game) -> Iterator[tuple[KeyPath, str]]:
    """Every place a game points at one of its rule sections, with the id it names.

    A record the field checks refused part of (a partial game) simply has no references there.
    """
    for index, ruling in enumerate(game.faq):
        for ref_index, ref in enumerate(_part(ruling, "rules", [])):
            yield ("faq", index, "rules", ref_index), ref
    for index, calc in enumerate(game.scoring):
        if _part(calc, "rule", None) is not None:
            yield ("scoring", index, "rule"), calc.rule
        for kind in ("inputs", "terms"):
            for item_index, item in enumerate(_part(calc, kind, [])):
                if _part(item, "rule", None) is not None:
                    yield ("scoring", index, kind, item_index, "rule"), item.rule
    for index, table in enumerate(game.setup):
        if _part(table, "rule", None) is not None:
            yield ("setup", index, "rule"), table.rule
    for index, change in enumerate(game.changes):
        for ref_index, ref in enumerate(_part(change, "rules", [])):
            yield ("changes", index, "rules", ref_index), ref
    for index, term in enumerate(game.glossary):
        for ref_index, ref in enumerate(_part(term, "rules", [])):
            yield ("glossary", index, "rules", ref_index), ref
    aid = _part(game, "aid", None)
    for kind in ("phases", "setup_steps"):
        for index, item in enumerate(_part(aid, kind, [])):
            if _part(item, "rule", None) is not None:
                yield ("aid", kind, index, "rule"), item.rule


def _part(record: Any, name: str, default: Any) -> Any:
    """A field of a record, or ``default`` where a partial record lacks it."""
    return getattr(record, name, default)


GLOSSARY_ANCHOR = "glossary"
"""Anchor of the rules page's glossary; each of its terms is ``#term-<id>``."""


def _glossary_anchors_taken(game: Game, doc: Document) -> list[Problem]:
    """Rule sections and setup tables are anchors on the rules page, beside the glossary's: an
    id among those would make two elements share an anchor, and links land on the first."""
    anchored: list[tuple[KeyPath, str]] = [
        *((("rules", index, "id"), section.id) for index, section in enumerate(game.rules)),
        *((("setup", index, "id"), table.id) for index, table in enumerate(game.setup)),
    ]
    problems = []
    for path, anchor in anchored:
        if anchor == GLOSSARY_ANCHOR:
            message = f"{anchor!r} is the anchor of the rules page's glossary; choose another id"
            problems.append(doc.problem(path, message))
        elif anchor.startswith("term-"):
            message = (
                f"{anchor!r}: ids starting with 'term-' are the glossary terms' anchors on the "
                "rules page; choose another id"
            )
            problems.append(doc.problem(path, message))
    return problems


def check_changes(game: Game, doc: Document, today: dt.date) -> list[Problem]:
    """A game's "What changed" list: ids unique, newest first, no date in the future, and every
    ruling it names exists (rule sections are checked with the other rule references)."""
    problems = duplicate_ids(doc, "changes", [c.id for c in game.changes], "change id")
    ruling_ids = {r.id for r in game.faq}
    for index, change in enumerate(game.changes):
        where = ("changes", index)
        if change.date > today:
            problems.append(
                doc.problem((*where, "date"), f"date {change.date.isoformat()} is in the future")
            )
        # Editors add an entry at the top, as in a changelog; the page and the feeds show the
        # list as written, so an entry out of place is a mistake to point at, not to hide.
        if index > 0 and change.date > game.changes[index - 1].date:
            before = game.changes[index - 1].date.isoformat()
            problems.append(
                doc.problem(
                    (*where, "date"),
                    f"{change.date.isoformat()} is newer than changes[{index - 1}] ({before}); "
                    "list changes newest first",
                )
            )
        for ref_index, ref in enumerate(change.faq):
            if ref not in ruling_ids:
                problems.append(
                    doc.problem(
                        (*where, "faq", ref_index),
                        unknown_reference("FAQ ruling", ref, ruling_ids),
                    )
                )
    return problems


# --- Setup tables ------------------------------------------------------------------------------

_CELL_TYPES: dict[SetupColumnType, tuple[type, str]] = {
    SetupColumnType.integer: (int, "a whole number"),
    SetupColumnType.text: (Text, "a text in every language"),
    SetupColumnType.yes_no: (bool, "true or false"),
}
"""What each column type's cells hold, and how a message names it."""


def check_setup(game: Game, doc: Document) -> list[Problem]:
    """Setup tables: ids unique, one row per player count within the card's, every cell typed."""
    problems = duplicate_ids(doc, "setup", [table.id for table in game.setup], "setup table id")
    rule_ids = {section.id for section in game.rules}
    for index, table in enumerate(game.setup):
        path: KeyPath = ("setup", index)
        if table.id in rule_ids:
            message = (
                f"setup table id {table.id!r} is also a rule section's id; both are anchors on "
                "the rules page: choose another"
            )
            problems.append(doc.problem((*path, "id"), message))
        column_ids = [column.id for column in table.columns]
        problems += [
            doc.problem((*path, "columns", number, "id"), f"duplicate column id {column!r}")
            for number, column in enumerate(column_ids)
            if column in column_ids[:number]
        ]
        columns = {column.id: column.type for column in table.columns}
        problems += _check_rows(doc, path, table.rows, game.card.players)
        for number, row in enumerate(table.rows):
            problems += _check_cells(doc, (*path, "rows", number, "cells"), row.cells, columns)
    return problems


def _check_rows(doc: Document, path: KeyPath, rows: list[Any], players: Any) -> list[Problem]:
    problems = []
    seen: dict[int, int] = {}
    for number, row in enumerate(rows):
        where = (*path, "rows", number, "players")
        if row.players in seen:
            message = f"{row.players} players already has a row (rows[{seen[row.players]}])"
            problems.append(doc.problem(where, message))
        elif seen and row.players < max(seen):
            message = f"rows go from fewest to most players; {row.players} comes after {max(seen)}"
            problems.append(doc.problem(where, message))
        seen.setdefault(row.players, number)
        if not players.min <= row.players <= players.max:
            message = (
                f"{row.players} players is outside the card's player count "
                f"({players.min}–{players.max})"
            )
            problems.append(doc.problem(where, message))
    return problems


def _check_cells(
    doc: Document, path: KeyPath, cells: dict[str, Any], columns: dict[str, SetupColumnType]
) -> list[Problem]:
    problems = []
    for column_id, column_type in columns.items():
        if column_id not in cells:
            problems.append(doc.problem(path, f"missing the cell of column {column_id!r}"))
            continue
        value = cells[column_id]
        kind, wanted = _CELL_TYPES[column_type]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            got = "a text" if isinstance(value, Text) else describe_value(value)
            message = f"column {column_id!r} holds {wanted}, got {got}"
            problems.append(doc.problem((*path, column_id), message))
    for column_id in cells:
        if column_id not in columns:
            known = ", ".join(columns)
            message = f"no column {column_id!r} in this table (its columns: {known})"
            problems.append(doc.problem((*path, column_id), message))
    return problems
