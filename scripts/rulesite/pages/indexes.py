"""What the pages across games are given: home, the games index, the glossary, the topics and
the game-night history.

Each function takes the catalog and the page's language and returns what its template sees
besides what every page sees (``render/renderer.py``); the registry names them.
"""

from __future__ import annotations

from typing import Any

from rulesite.catalog import Catalog
from rulesite.model import Game
from rulesite.scoring.payload import payload_json, plain

_MINUTE_STEPS = (15, 30, 45, 60, 90, 120, 180, 240, 360)
_WEIGHT_STEPS = (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5)


def home(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The home page lists every game."""
    return {"games": catalog.games}


def glossary(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The glossary holds every game's terms."""
    return {"games": catalog.games}


def games_index(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The games index: every game, and the choices its filters offer."""
    games = catalog.games
    return {"games": games, "filters": games_filter_options(games)}


def topics(catalog: Catalog, lang: str) -> dict[str, Any]:
    """The topic index: the rulings of each topic, and how many rulings it lists."""
    topic_ids = [topic.id for topic in catalog.site.topics]
    by_topic = rulings_by_topic(catalog.games, topic_ids, lang)
    listed = {(game.slug, ruling.id) for _, pairs in by_topic for game, ruling in pairs}
    return {"by_topic": by_topic, "total_rulings": len(listed)}


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
        "players": list(range(fewest, most + 1)),
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
