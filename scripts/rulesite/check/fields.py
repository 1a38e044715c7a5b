"""Field checks: records built by pydantic, its errors turned into located problems."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from rulesite.check.stubs import is_stub
from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import (
    UNION_TAGS,
    describe_value,
)

ModelT = TypeVar("ModelT", bound=BaseModel)


def build_record(
    model: type[ModelT],
    doc: Document,
    problems: list[Problem],
    context: dict[str, Any] | None = None,
) -> ModelT | None:
    """The record ``doc`` holds, or None with its problems added; ``context`` carries the
    site's language codes, which every text must have."""
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__ if doc.data is not None else "nothing"
        problems.append(doc.problem((), f"expected a mapping of keys at the top level, got {kind}"))
        return None
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as error:
        problems.extend(_pydantic_problems(error, doc))
        return None


def _pydantic_problems(error: ValidationError, doc: Document) -> Iterable[Problem]:
    for item in error.errors(include_url=False):
        loc: KeyPath = tuple(part for part in item["loc"] if part not in UNION_TAGS)
        if is_stub(item.get("input")):
            continue  # find_stubs reports it
        yield doc.problem(loc, _message(item, loc, doc.spellings.get(loc)))


_EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "float_type": "a number",
    "bool_type": "true or false",
}
"""What a field of each pydantic type error wanted, in words."""


def _message(item: Any, loc: KeyPath, spelled: str | None = None) -> str:
    """One pydantic error in words; ``spelled`` is how an unquoted YAML value was written."""
    kind = item["type"]
    last = loc[-1] if loc else ""
    value = item.get("input")
    if kind == "missing":
        return "missing required key"
    if kind == "extra_forbidden":
        return f"unknown key {last!r}"
    if kind == "setup_cell":  # model.SetupCell: the column says which, checked after this
        wanted = "expected a whole number, true or false, or a text in every language"
        return f"{wanted}, got {describe_value(value)}{_yaml_reading(value, spelled)}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"expected a mapping, got {describe_value(value)}"
    if kind == "list_type":
        return f"expected a list, got {describe_value(value)}"
    if kind == "string_type" and value is None and not spelled:
        return "is empty; write the text"
    if kind == "string_pattern_mismatch":
        return f"{value!r} is not a valid id: use lowercase letters, digits and hyphens"
    if kind in _EXPECTED:
        return _wrong_type(_EXPECTED[kind], value, spelled)
    if kind == "too_long" and "actual_length" in item.get("ctx", {}):
        ctx = item["ctx"]
        return f"has {ctx['actual_length']:,} entries; at most {ctx['max_length']:,} here"
    if kind == "string_too_long":
        return f"text is {len(value):,} characters; at most {item['ctx']['max_length']:,} here"
    message = str(item["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    if not message:
        message = "invalid value"
    elif not message[1:2].isupper():  # "URL scheme ..." keeps its acronym: never "uRL"
        message = message[0].lower() + message[1:]
    if kind in ("enum", "literal_error") and not isinstance(value, str):
        message += f", got {describe_value(value)}{_yaml_reading(value, spelled)}"
    return message


def _wrong_type(expected: str, value: Any, spelled: str | None) -> str:
    """``expected text, got boolean false (YAML reads unquoted no/off/false as a boolean)...``"""
    message = f"expected {expected}, got {describe_value(value)}{_yaml_reading(value, spelled)}"
    if expected == "text" and spelled:
        return f'{message}; quote it: "{spelled}"'
    if isinstance(value, str) and expected != "text" and _is_number(value):
        return f"{message}; remove the quotes"
    return message


def _yaml_reading(value: Any, spelled: str | None) -> str:
    """Why YAML made ``value`` of what was written: YAML 1.1 turns ``no`` into false."""
    if not spelled:
        return ""
    if isinstance(value, bool):
        words = "yes/on/true" if value else "no/off/false"
        return f" (YAML reads unquoted {words} as a boolean)"
    kind = "nothing" if value is None else "a date" if isinstance(value, dt.date) else "a number"
    return f" (YAML reads unquoted {spelled} as {kind})"


def _is_number(text: str) -> bool:
    return re.fullmatch(r"[-+]?[0-9]+(?:\.[0-9]+)?", text.strip()) is not None


def duplicate_ids(doc: Document, key: str, ids: list[str], what: str) -> list[Problem]:
    counts = Counter(ids)
    seen: set[str] = set()
    problems = []
    for index, value in enumerate(ids):
        if counts[value] > 1 and value in seen:
            problems.append(doc.problem((key, index, "id"), f"duplicate {what} {value!r}"))
        seen.add(value)
    return problems


def unknown_id(
    doc: Document, path: KeyPath, values: list[str], known: set[str], what: str
) -> list[Problem]:
    return [
        doc.problem((*path, index), f"unknown {what} {value!r}; define it in data/site.yaml")
        for index, value in enumerate(values)
        if value not in known
    ]
