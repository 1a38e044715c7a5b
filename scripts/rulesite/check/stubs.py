"""Stubs `rulesite new` wrote: each is refused where it stands until an editor replaces it."""

from __future__ import annotations

import typing
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
    for path, value in _scalars(doc.data, ()):
        if is_stub(value):
            hint = value.lstrip().removeprefix(STUB_MARKER).strip() or "fill it in"
            message = f"still the stub written by rulesite new: {hint}"
            problems.append(doc.problem(path, message))
    return problems


def _scalars(value: Any, path: KeyPath) -> typing.Iterator[tuple[KeyPath, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalars(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _scalars(item, (*path, index))
    else:
        yield path, value
