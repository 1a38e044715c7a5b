"""What a game's pages (overview, rules, FAQ, score) are given: the game, never the others.

A game's pages see the game, ``data/site.yaml`` and the templates only, so they change only
when one of those does and a cache can keep them (``render/cache.py``); the renderer adds the
page's kind and the game's tabs from the registry.
"""

from __future__ import annotations

from typing import Any

from rulesite.model import Game
from rulesite.pages.aid import phase_diagram


def context(game: Game, lang: str) -> dict[str, Any]:
    """What a template of a game page is given besides what every page is given."""
    return {"game": game, "aid_diagram": phase_diagram(game, lang)}
