"""Checking scoring input from outside (the CLI, worked examples): one message per problem."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesite.scoring.engine import Model

MAX_NAME_LENGTH = 40


def check(model: Model, players: Any, settings: Mapping[str, Any]) -> list[str]:
    """Every problem with ``players`` (a list of objects) and ``settings``; [] when fine."""
    problems: list[str] = []
    low, high = model["players"]
    if not isinstance(players, list):
        return ["players: expected a list of players"]
    if not low <= len(players) <= high:
        problems.append(f"players: {len(players)} players; {model['id']} takes {low}–{high}")
    known = {i["id"]: i for i in model["inputs"]}
    for index, player in enumerate(players):
        where = f"players[{index}]"
        if not isinstance(player, Mapping):
            problems.append(f"{where}: expected an object with a name and numbers")
            continue
        name = player.get("name", "")
        if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH:
            problems.append(f"{where}.name: expected text of at most {MAX_NAME_LENGTH} characters")
        for key, value in player.items():
            if key == "name":
                continue
            spec = known.get(key)
            if spec is None:
                problems.append(f"{where}.{key}: unknown input (known: {', '.join(sorted(known))})")
            elif isinstance(value, bool) or not isinstance(value, int):
                problems.append(f"{where}.{key}: expected a whole number, got {value!r}")
            elif not spec["min"] <= value <= spec["max"]:
                problems.append(f"{where}.{key}: {value} is outside {spec['min']}–{spec['max']}")
    problems += _unique_problems(model, players)
    problems += _setting_problems(model, settings)
    return problems


def _unique_problems(model: Model, players: list[Any]) -> list[str]:
    problems = []
    for spec in model["inputs"]:
        if not spec["unique"]:
            continue
        values = [p.get(spec["id"], 0) for p in players if isinstance(p, Mapping)]
        if len(set(map(repr, values))) < len(values):
            problems.append(f"players: each player needs a different {spec['id']}")
    return problems


def _setting_problems(model: Model, settings: Mapping[str, Any]) -> list[str]:
    problems = []
    known = {s["id"]: s for s in model["settings"]}
    for key, value in settings.items():
        spec = known.get(key)
        if spec is None:
            problems.append(f"{key}: unknown setting")
        elif value not in spec["options"]:
            problems.append(f"{key}: expected one of {', '.join(spec['options'])}, got {value!r}")
    return problems
