"""Field checks: records built by pydantic, its errors turned into located problems."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import types
import typing
from collections import Counter
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ValidationError

from rulesite.check.partial import ModelT, partial_record
from rulesite.check.stubs import is_stub
from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import (
    UNION_TAGS,
    describe_value,
)


def build_record(
    model: type[ModelT],
    doc: Document,
    problems: list[Problem],
    context: dict[str, Any] | None = None,
) -> ModelT | None:
    """The record ``doc`` holds, or None with its problems added; ``context`` carries the
    site's language codes, which every text must have."""
    return check_record(model, doc, problems, context)[0]


def check_record(
    model: type[ModelT],
    doc: Document,
    problems: list[Problem],
    context: dict[str, Any] | None = None,
) -> tuple[ModelT | None, ModelT | None]:
    """The record ``doc`` holds and None, or, with its problems added, None and the partial
    record of what passed (``check/partial.py``: the cross checks still run on it)."""
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__ if doc.data is not None else "nothing"
        problems.append(doc.problem((), f"expected a mapping of keys at the top level, got {kind}"))
        return None, None
    try:
        record = model.model_validate(doc.data, context=context)
    except ValidationError as error:
        items = error.errors(include_url=False)
        problems.extend(_pydantic_problems(items, doc, model))
        refused = [tuple(item["loc"]) for item in items]
        return None, partial_record(model, doc.data, refused, context)
    if doc.refused:  # the reader refused a value the model can do without (an optional date)
        return None, record
    return record, None


def _pydantic_problems(items: list[Any], doc: Document, model: type[BaseModel]) -> list[Problem]:
    located = [
        (tuple(part for part in item["loc"] if part not in UNION_TAGS), item) for item in items
    ]
    # The reader said what is wrong with a value it refused; pydantic would only add "missing".
    located = [
        (loc, item)
        for loc, item in located
        if not any(loc[:end] in doc.refused_paths for end in range(len(loc) + 1))
        and not is_stub(item.get("input"))  # find_stubs reports it
    ]
    misspelt = misspelt_keys(model, doc.data, [loc for loc, item in located if _unknown(item)])
    missing_for = set(misspelt.values())
    problems = []
    for loc, item in located:
        if item["type"] == "missing" and loc in missing_for:
            continue  # said once, at the misspelling: "did you mean 'summary'?"
        if loc in misspelt:
            wanted = misspelt[loc][-1]
            message = f"unknown key {loc[-1]!r}; did you mean {wanted!r}?"
        else:
            message = _message(item, loc, doc.spellings.get(loc))
        problems.append(doc.problem(loc, message))
    return problems


def _unknown(item: Any) -> bool:
    return bool(item["type"] == "extra_forbidden")


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
    if kind in ("enum", "literal_error") and isinstance(value, str) and "expected" in item["ctx"]:
        return _not_a_choice(value, item["ctx"]["expected"])
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


def _not_a_choice(value: str, expected: str) -> str:
    """``'rulebook' is not one of 'rules', 'faq', ... or 'reference'`` (and the likeliest)."""
    choices = re.findall(r"'((?:[^'\\]|\\.)*)'", expected)
    close = closest(value, choices)
    hint = f"; did you mean {close!r}?" if close else ""
    return f"{value!r} is not one of {expected}{hint}"


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


RESERVED_PAGE_NAMES = frozenset({"index"})
"""Names no game slug or topic id may take: a game's glossary page (``glossary/<slug>.md``) and a
topic's page (``topics/<id>.md``) sit beside their index pages (``glossary/index.md``,
``topics/index.md``), which a page called ``index`` would replace. tests/test_pages.py derives
the list from the page registry, so a new kind that adds a clash fails there."""


def reserved_page_name(doc: Document, path: KeyPath, name: str, what: str) -> list[Problem]:
    """``name`` (a slug, a topic id) at ``path`` is one :data:`RESERVED_PAGE_NAMES` names."""
    if name not in RESERVED_PAGE_NAMES:
        return []
    reserved = ", ".join(sorted(RESERVED_PAGE_NAMES))
    message = (
        f"{what} {name!r} is kept for the site's own pages (reserved: {reserved}): its page "
        "would replace an index page; choose another"
    )
    return [doc.problem(path, message)]


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
    """An id of ``data/site.yaml`` (a mechanic, a topic) that it does not define: most often a
    slip of the keyboard, so the closest id is named, and defining a new one is advised only
    when nothing is close."""
    problems = []
    for index, value in enumerate(values):
        if value in known:
            continue
        close = closest(value, known)
        advice = f"did you mean {close!r}?" if close else "define it in data/site.yaml"
        problems.append(doc.problem((*path, index), f"unknown {what} {value!r}; {advice}"))
    return problems


def unknown_reference(what: str, ref: str, known: Iterable[str]) -> str:
    """``no rule section with id 'turn-ordr' (did you mean 'turn-order'?)``, or the known ids
    when none is close."""
    ids = sorted(known)
    close = closest(ref, ids)
    hint = f"did you mean {close!r}?" if close else f"known: {', '.join(ids) or 'none'}"
    return f"no {what} with id {ref!r} ({hint})"


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate a misspelling most likely meant, or None when none is close."""
    found = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=CLOSE)
    return found[0] if found else None


CLOSE = 0.75
"""How alike two names must be to suggest one for the other (difflib's ratio): catches a letter
left out, doubled or swapped (``sumary``, ``bgg_rnak``, ``worker-placment``), not a different
word."""


def misspelt_keys(
    model: type[BaseModel], data: Any, unknown: list[KeyPath]
) -> dict[KeyPath, KeyPath]:
    """Each unknown key that is a misspelling of a key its record knows and the file lacks,
    with the path of the key it meant."""
    found: dict[KeyPath, KeyPath] = {}
    for loc in unknown:
        fields = _fields_at(model, loc[:-1])
        given = _mapping_at(data, loc[:-1])
        if fields is None or given is None or not isinstance(loc[-1], str):
            continue
        absent = [name for name in fields if name not in given]
        close = closest(loc[-1], absent)
        if close is not None and close not in found.values():
            found[loc] = (*loc[:-1], close)
    return found


def _fields_at(model: Any, path: KeyPath) -> list[str] | None:
    """The keys of the record at ``path`` under ``model``, or None where that is not known."""
    for part in path:
        if isinstance(part, int):
            if typing.get_origin(model) is not list:
                return None
            model = typing.get_args(model)[0]
            continue
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        info = model.model_fields.get(part)
        if info is None:
            return None
        model = info.annotation
        if typing.get_origin(model) in (typing.Union, types.UnionType):
            args = [arg for arg in typing.get_args(model) if arg is not type(None)]
            model = args[0] if len(args) == 1 else None
    if isinstance(model, type) and issubclass(model, BaseModel) and not _is_root(model):
        return [info.alias or name for name, info in model.model_fields.items()]
    return None


def _is_root(model: type[BaseModel]) -> bool:
    return "root" in model.model_fields


def _mapping_at(data: Any, path: KeyPath) -> dict[str, Any] | None:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data if isinstance(data, dict) else None
