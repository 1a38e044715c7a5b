"""Editing a game file as an editor would: ``ruamel.yaml``'s round trip, comments, key order and
quoting kept, only the values asked for changed.

ruamel.yaml writes every list of a file with one indentation; files here are written with the
dash under the key's first letter plus two (``  - id: ...``) or at the key's column. The
indentation used is the one that gives back the file unchanged when nothing is changed; the
diff an editor sees before a write shows only the values that moved.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

_INDENTS = ((2, 4, 2), (2, 2, 0), (4, 4, 2), (4, 6, 4), (2, 4, 0))
"""(mapping, sequence, offset) tried in turn: the house style first."""


class RoundTrip:
    """One game file loaded for editing; ``text()`` is the file as it would be written."""

    def __init__(self, text: str) -> None:
        self.original = text
        # Each candidate's own load is kept: a round-trip load of a large game file is most of
        # a refresh's time (0.8 s for Nations), and dumping leaves the data as it was.
        house = None
        for indent in _INDENTS:
            yaml = _yaml(*indent)
            data = yaml.load(text)
            house = house or (yaml, data)
            if _dump(yaml, data) == text:
                break
        else:  # no indentation gives the file back: the house style, as first loaded
            yaml, data = house
        self.yaml, self.data = yaml, data

    def text(self) -> str:
        return _dump(self.yaml, self.data)


def _yaml(mapping: int, sequence: int, offset: int) -> YAML:
    yaml = YAML(typ="rt")  # round trip: comments, order and quoting kept
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long line an editor wrote on one line
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    # One value written in two places (the fetch day, as card.verified and the source's) would
    # come out as a YAML anchor and alias, which the loader refuses: write every value out.
    yaml.representer.ignore_aliases = lambda _data: True
    return yaml


def _dump(yaml: YAML, data: Any) -> str:
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def set_value(mapping: CommentedMap, key: str, value: Any) -> bool:
    """Set ``mapping[key]`` in place (its comments and position kept); whether it changed."""
    current = mapping.get(key)
    if _same(current, value):
        return False
    mapping[key] = value
    return True


def set_range(mapping: CommentedMap, key: str, low: int, high: int) -> bool:
    """Set a ``{min, max}`` range, keeping its flow or block style; whether it changed."""
    current = mapping.get(key)
    if isinstance(current, CommentedMap):
        changed = set_value(current, "min", low)
        return set_value(current, "max", high) or changed
    new = CommentedMap([("min", low), ("max", high)])
    new.fa.set_flow_style()
    mapping[key] = new
    return True


def set_list(mapping: CommentedMap, key: str, values: list[str]) -> bool:
    """Replace a list's items in place (its style kept); whether it changed."""
    current = mapping.get(key)
    if isinstance(current, list) and [str(item) for item in current] == values:
        return False
    if isinstance(current, CommentedSeq):
        del current[:]
        current.extend(values)
    else:
        mapping[key] = CommentedSeq(values)
    return True


def _same(current: Any, value: Any) -> bool:
    if isinstance(value, dt.date) or isinstance(current, dt.date):
        return str(current) == str(value)
    if isinstance(value, float) and isinstance(current, int | float):
        return float(current) == value
    return bool(current == value) and isinstance(current, bool) == isinstance(value, bool)
