"""The compiled model's JSON Schema: ``model.schema.json`` plus one choice per kind of line.

``model.schema.json`` holds what every calculator has (inputs, settings, formula trees, the keys
every line shares); each line kind (:data:`~rulesite.model.lines.LINE_KINDS`) declares its own
keys, so the schema names no kind. ``tests/scoring_vectors.py`` writes the whole schema into the
shared vectors, where Node's tests read it.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from rulesite.model.lines import LINE_KINDS

BASE = Path(__file__).with_name("model.schema.json")
"""The schema without the lines' choices."""


@cache
def _model_schema() -> dict[str, Any]:
    schema = json.loads(BASE.read_text(encoding="utf-8"))
    term = schema["$defs"]["term"]
    shared = term.pop("properties")
    term["oneOf"] = [
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["id", "kind", *kind.compiled["required"]],
            "properties": {
                "id": shared["id"],
                "kind": {"const": kind.name},
                **{key: value for key, value in shared.items() if key != "id"},
                **kind.compiled["properties"],
            },
            "description": kind.compiled["description"],
        }
        for kind in LINE_KINDS.values()
    ]
    return schema


def model_schema() -> dict[str, Any]:
    """The compiled model's schema (a fresh copy: callers may change it)."""
    return copy.deepcopy(_model_schema())
