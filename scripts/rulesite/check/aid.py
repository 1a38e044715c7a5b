"""Cross checks of a game's player aid: ids unique, titles that fit the diagram, setup steps
within the card's player count. Its links to rule sections are checked with the game's other
rule references (``check/game.py``)."""

from __future__ import annotations

from typing import Any

from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import PHASE_TITLE_CHARS, Game


def check_aid(game: Game, doc: Document) -> list[Problem]:
    """The aid's phases and setup steps: each id once, phase titles short enough to draw, and
    every step's player counts among the game's."""
    aid = game.aid
    if aid is None:
        return []
    problems = _duplicates(doc, ("aid", "phases"), [phase.id for phase in aid.phases], "phase id")
    problems += _duplicates(
        doc, ("aid", "setup_steps"), [step.id for step in aid.setup_steps], "setup step id"
    )
    for index, phase in enumerate(aid.phases):
        for lang, title in phase.title.root.items():
            if len(title) > PHASE_TITLE_CHARS:
                message = (
                    f"phase title has {len(title)} characters; at most {PHASE_TITLE_CHARS} fit "
                    "the diagram on a phone: shorten it (the summary says the rest)"
                )
                problems.append(doc.problem(("aid", "phases", index, "title", lang), message))
    players = game.card.players
    for index, step in enumerate(aid.setup_steps):
        if step.players is not None and not (
            players.min <= step.players.min and step.players.max <= players.max
        ):
            message = (
                f"players {step.players.min}–{step.players.max} lie outside the card's player "
                f"count ({players.min}–{players.max})"
            )
            problems.append(doc.problem(("aid", "setup_steps", index, "players"), message))
    return problems


def _duplicates(doc: Document, path: KeyPath, ids: list[Any], what: str) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for index, value in enumerate(ids):
        if value in seen:
            problems.append(doc.problem((*path, index, "id"), f"duplicate {what} {value!r}"))
        seen.add(value)
    return problems
