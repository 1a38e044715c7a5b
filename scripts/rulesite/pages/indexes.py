"""What the pages across games are given: home, the games index, the glossary, the topics and
the game-night history, and each topic's page.

Each function takes the catalog and the page's language and returns what its template sees
besides what every page sees (``render/renderer.py``); the registry names them.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

from markupsafe import Markup

from rulesite import markup
from rulesite.catalog import Catalog
from rulesite.model import Game
from rulesite.scoring.payload import payload_json, plain

_MINUTE_STEPS = (15, 30, 45, 60, 90, 120, 180, 240, 360)
_WEIGHT_STEPS = (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5)
TABLE_ROWS = 150
"""Most games the games index writes as table rows: about 1.1 KB of HTML each, so 150 keep the
page near 200 KB. With more, the page lists the games plainly (titles only, for readers without
JavaScript) and its script builds the table from ``games/rows.json``."""
TOPIC_PAGE_RULINGS = 800
"""Most rulings one topic page lists (about 135 bytes of HTML each, so near 125 KB with the
theme's): a topic that tags more is split into parts, ``topics/<id>/``, ``topics/<id>--2/``, …
(a topic id never holds ``--``), the same number of parts in every language."""
PART_SEPARATOR = "--"
HOME_CARDS = 60
"""Most games the home page shows as cards (about 0.75 KB each); with more, it shows the first
ones and links to the games index, which lists them all."""


def home(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The home page lists every game, or the first :data:`HOME_CARDS` of a larger catalogue."""
    return {"games": catalog.games[:HOME_CARDS], "total_games": len(catalog.games)}


def glossary(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The glossary's index lists every game that has terms (each has its own glossary page)."""
    return {"games": catalog.games}


def games_index(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The games index: every game, and the choices its filters offer; the games it writes as
    table rows (all of them, or none when there are more than :data:`TABLE_ROWS`)."""
    games = catalog.games
    rows = games if len(games) <= TABLE_ROWS else []
    return {"games": games, "table_games": rows, "filters": games_filter_options(games)}


def games_rows(catalog: Catalog, lang: str) -> dict[str, Any]:
    """``games/rows.json``: what the games index's script needs of each game to build its row
    (the title as plain text, for ``textContent``), as compact JSON."""
    rows = [
        {
            "slug": game.slug,
            "title": Markup(markup.inline(game.title.get(lang))).striptags(),
            "players": [game.card.players.min, game.card.players.max],
            "best": [game.card.best_players.min, game.card.best_players.max],
            "time": [game.card.play_time.min, game.card.play_time.max],
            "weight": game.card.weight,
            "mechanics": list(game.card.mechanics),
            "score": bool(game.scoring),
        }
        for game in catalog.games
    ]
    text = json.dumps({"games": rows}, ensure_ascii=False, separators=(",", ":"))
    # JSON, not Markdown: printed as it is (a safe fragment), with "<" never starting a tag.
    return {"rows_json": Markup(text.replace("<", "\\u003c"))}


def topics(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The topic index: each topic that tags some ruling with how many it tags (each topic has
    its own page), and how many rulings they tag in all."""
    by_topic = rulings_by_topic(catalog.games, topic_ids(catalog), lang)
    listed = {(game.slug, ruling.id) for _, pairs in by_topic for game, ruling in pairs}
    counts = [(topic, len(pairs)) for topic, pairs in by_topic]
    return {"topic_counts": counts, "total_rulings": len(listed)}


def topic(catalog: Catalog, page: str, lang: str) -> dict[str, Any]:
    """One topic's page (``page``: its key, ``<topic id>`` or ``<topic id>--<part>``): its
    rulings (or that part of them), game by game (games by title in ``lang``), and its parts."""
    topic_id, part = split_topic_page(page)
    pairs = _by_topic(catalog, lang).get(topic_id, [])
    parts = max(1, -(-len(pairs) // TOPIC_PAGE_RULINGS))
    start = (part - 1) * TOPIC_PAGE_RULINGS
    by_game: dict[str, tuple[Game, list]] = {}
    for game, ruling in pairs[start : start + TOPIC_PAGE_RULINGS]:
        by_game.setdefault(game.slug, (game, []))[1].append(ruling)
    return {
        "topic_id": topic_id,
        "by_game": list(by_game.values()),
        "total_rulings": len(pairs),
        "part": part,
        "parts": [(n, topic_page_key(topic_id, n)) for n in range(1, parts + 1)],
    }


_BY_TOPIC: dict[tuple[int, str], tuple[weakref.ref[Catalog], dict[str, list]]] = {}
"""``rulings_by_topic`` of every topic, by catalog (its id, while it lives) and language."""


def _by_topic(catalog: Catalog, lang: str) -> dict[str, list]:
    """Every topic's (game, ruling) pairs in ``lang``, worked out once per catalog: each topic
    page needs its topic's, and finding one topic's sorts every game and reads every ruling
    (at 1,000 games, a build after one FAQ edit renders every topic page again: over a second
    of it went to finding the same pairs for each page)."""
    key = (id(catalog), lang)
    kept = _BY_TOPIC.get(key)
    if kept is not None and kept[0]() is catalog:
        return kept[1]
    grouped = dict(rulings_by_topic(catalog.games, topic_ids(catalog), lang))
    gone = lambda _: _BY_TOPIC.pop(key, None)  # noqa: E731  (the catalog freed: forget it)
    _BY_TOPIC[key] = (weakref.ref(catalog, gone), grouped)
    return grouped


def topic_page_key(topic_id: str, part: int) -> str:
    """The key (and file name) of a topic's page: its id, then ``--<part>`` after the first."""
    return topic_id if part == 1 else f"{topic_id}{PART_SEPARATOR}{part}"


def split_topic_page(page: str) -> tuple[str, int]:
    """The topic id and part of a topic page's key."""
    topic_id, _, part = page.partition(PART_SEPARATOR)
    return topic_id, int(part) if part else 1


def topic_pages(catalog: Catalog) -> list[str]:
    """The key of every topic page: each topic that tags some ruling, in the site's order, in
    as many parts as :data:`TOPIC_PAGE_RULINGS` needs (the same in every language)."""
    counts: dict[str, int] = {}
    for game in catalog.games:
        for ruling in game.faq:
            for tag in ruling.tags:
                counts[tag] = counts.get(tag, 0) + 1
    return [
        topic_page_key(topic_id, part)
        for topic_id in topic_ids(catalog)
        for part in range(1, -(-counts[topic_id] // TOPIC_PAGE_RULINGS) + 1)
    ]


def topic_ids(catalog: Catalog) -> list[str]:
    """The topics that tag some ruling, in the site's order: each has a page."""
    tagged = {tag for game in catalog.games for ruling in game.faq for tag in ruling.tags}
    return [topic.id for topic in catalog.site.topics if topic.id in tagged]


def history(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The game-night history: the games with calculators, and for the script that shows the
    plays saved on the device, each calculator's title and lines by id (a saved play keeps ids,
    so it reads in either language)."""
    games = [game for game in catalog.games if game.scoring]
    names = {
        game.slug: {
            "title": plain(game.title, lang),
            "calculators": {
                calc.id: {
                    "title": plain(calc.title, lang),
                    "lines": {term.id: plain(term.label, lang) for term in calc.terms},
                }
                for calc in game.scoring
            },
        }
        for game in games
    }
    return {"games": games, "history_names": payload_json(names)}


def _useful_steps(steps: tuple[float, ...], values: list[float]) -> list[float]:
    """The thresholds that let some value through, up to the first that lets every one through:
    an option that shows nothing, or the same as the one before it, is no use to a reader."""
    useful: list[float] = []
    for step in steps:
        if any(value <= step for value in values):
            useful.append(step)
        if all(value <= step for value in values):
            break
    return useful


def games_filter_options(games: list[Game]) -> dict[str, Any]:
    """The choices the games index offers its filters, from the games it lists."""
    if not games:
        return {"players": [], "minutes": [], "weights": [], "mechanics": []}
    fewest = min(game.card.players.min for game in games)
    most = max(game.card.players.max for game in games)
    return {
        # Every count some game takes, from the fewest to the most.
        "players": list(range(fewest, most + 1)),
        # How much time the group has: the steps that keep some game (its shortest play fits).
        "minutes": _useful_steps(_MINUTE_STEPS, [g.card.play_time.min for g in games]),
        "weights": _useful_steps(_WEIGHT_STEPS, [g.card.weight for g in games]),
        "mechanics": sorted({m for g in games for m in g.card.mechanics}),
    }


def rulings_by_topic(games: list[Game], topic_ids: list[str], lang: str) -> list[tuple[str, list]]:
    """Each topic that tags some ruling, in the site's order, with its ``(game, ruling)`` pairs:
    games by their title in ``lang``, rulings in the game's order."""
    ordered = sorted(games, key=lambda game: game.title.get(lang).casefold())
    grouped = [
        (topic, [(game, ruling) for game in ordered for ruling in game.faq if topic in ruling.tags])
        for topic in topic_ids
    ]
    return [(topic, pairs) for topic, pairs in grouped if pairs]
