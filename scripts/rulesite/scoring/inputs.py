"""Checking scoring input from outside (the CLI, worked examples): one message per problem.

Messages quote what they refer to with :func:`rulesite.terminal.quoted`, so that no key, name or
value from the input reaches the terminal as a control character.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from rulesite.scoring.engine import Model, conflicts
from rulesite.terminal import quoted

MAX_NAME_LENGTH = 40
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a name could make a line read backwards."""
_PLAIN_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


def check(model: Model, players: Any, settings: Mapping[str, Any]) -> list[str]:
    """Every problem with ``players`` (a list of objects) and ``settings``; [] when fine."""
    problems: list[str] = []
    low, high = model["players"]
    if not isinstance(players, list):
        return ["players: expected a list of players"]
    if not low <= len(players) <= high:
        problems.append(f"players: {len(players)} players; {model['id']} takes {low}–{high}")
    if len(players) > high:
        return problems  # one line, not one per player beyond the table
    known = {i["id"]: i for i in model["inputs"]}
    usable: list[dict[str, int]] = []  # each player's valid numbers: the rest count as missing
    for index, player in enumerate(players):
        where = f"players[{index}]"
        usable.append({})
        if not isinstance(player, Mapping):
            problems.append(f"{where}: expected an object with a name and numbers")
            continue
        problems += _name_problems(player.get("name", ""), f"{where}.name")
        for key, value in player.items():
            if key == "name":
                continue
            spec = known.get(key)
            field = _key_path(where, key)
            if spec is None:
                problems.append(f"{field}: unknown input (known: {', '.join(sorted(known))})")
            elif isinstance(value, bool) or not isinstance(value, int):
                # bool is a subclass of int in Python: true would count as 1
                problems.append(f"{field}: expected a whole number, got {_shown(value)}")
            elif not spec["min"] <= value <= spec["max"]:
                problems.append(f"{field}: {value} is outside {spec['min']}–{spec['max']}")
            else:
                usable[index][key] = value
    problems += _conflict_problems(model, usable)
    problems += _setting_problems(model, settings)
    return problems


def _name_problems(name: Any, where: str) -> list[str]:
    if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH:
        return [f"{where}: expected text of at most {MAX_NAME_LENGTH} characters"]
    for char in name:
        category = unicodedata.category(char)
        if category == "Cs":
            return [f"{where}: {quoted(char)} is half of a character (a lone surrogate)"]
        if category in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS:
            return [f"{where}: contains the control character {quoted(char)}"]
    return []


def _key_path(where: str, key: str) -> str:
    """``players[0].gold``, or ``players[0]['\\x1b[2J']`` for a key that is not a plain name."""
    return f"{where}.{key}" if _PLAIN_KEY.fullmatch(key) else f"{where}[{quoted(key)}]"


def _shown(value: Any) -> str:
    """A value for a message as JSON writes it (``true``, not ``True``): text quoted safely,
    anything else cut short."""
    if isinstance(value, str):
        return quoted(value)
    text = json.dumps(value, default=repr)  # ASCII only: no control character gets through
    return text if len(text) <= 60 else text[:60] + "…"


def _conflict_problems(model: Model, players: list[dict[str, int]]) -> list[str]:
    """Rules across players (see :func:`~rulesite.scoring.engine.conflicts`), in words."""
    problems = []
    for conflict in conflicts(model, players):
        name = conflict["input"]
        if conflict["rule"] == "unique":
            message = f"players: each player needs a different {name}"
            if message not in problems:
                problems.append(message)
            continue
        first, *others = conflict["players"]
        problems += [
            f"players[{index}].{name}: at most one player may have {name}; "
            f"players[{first}] has it too"
            for index in others
        ]
    return problems


def _setting_problems(model: Model, settings: Mapping[str, Any]) -> list[str]:
    problems = []
    known = {s["id"]: s for s in model["settings"]}
    for key, value in settings.items():
        spec = known.get(key)
        field = key if _PLAIN_KEY.fullmatch(key) else quoted(key)
        if spec is None:
            problems.append(f"{field}: unknown setting")
        elif spec["kind"] == "yes_no":
            if not isinstance(value, bool):
                problems.append(f"{field}: expected true or false, got {_shown(value)}")
        elif not isinstance(value, str) or value not in spec["options"]:
            options = ", ".join(spec["options"])
            problems.append(f"{field}: expected one of {options}, got {_shown(value)}")
    return problems
