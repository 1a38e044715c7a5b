"""Stubs `rulesite new` wrote: each is refused where it stands until an editor replaces it."""

from __future__ import annotations

from typing import Any

from rulesite.errors import Document, KeyPath, Problem

STUB_MARKER = "TODO:"
"""How every stub starts; a text that still starts so is refused by validation."""


def is_stub(value: object) -> bool:
    """Whether ``value`` is a stub `rulesite new` wrote and nobody has replaced."""
    return isinstance(value, str) and value.lstrip().startswith(STUB_MARKER)


def find_stubs(doc: Document) -> list[Problem]:
    """A problem for every stub left in a parsed file, where it stands."""
    problems = []
    for path, value in _stubs(doc.data, ()):
        hint = value.lstrip().removeprefix(STUB_MARKER).strip() or "fill it in"
        message = f"still the stub written by rulesite new: {hint}"
        problems.append(doc.problem(path, message))
    return problems


def _stubs(value: Any, path: KeyPath) -> list[tuple[KeyPath, str]]:
    """Every stub in ``value`` with its path, in the file's order. It runs over every value of
    every file, so a path is made only for a list or mapping, or for a stub."""
    found: list[tuple[KeyPath, str]] = []
    if is_stub(value):
        found.append((path, value))
    elif isinstance(value, (dict, list)):
        _stubs_in(value, path, found)
    return found


def _stubs_in(value: dict[str, Any] | list[Any], path: KeyPath, found: list) -> None:
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(item, str):
            if item.lstrip().startswith(STUB_MARKER):
                found.append(((*path, key), item))
        elif isinstance(item, (dict, list)):
            _stubs_in(item, (*path, key), found)
