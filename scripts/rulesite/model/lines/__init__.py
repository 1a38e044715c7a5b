"""The kinds of scoring line, each declared once in a module of this folder.

Every module here except ``kind`` holds one :class:`~rulesite.model.lines.kind.LineKind` named
``KIND``; :data:`LINE_KINDS` finds them all, so a new kind of line is one new module here, its
half in ``templates/theme/assets/scoring-lines.js`` and the regenerated vectors. The record
(``ScoreTerm``), the compiler, the engine, the bounds proof, the checks, the model schema and the
vectors read this table; none of them names a kind.
"""

from __future__ import annotations

import importlib
import pkgutil

from rulesite.model.lines.kind import INPUT_LIMIT, MAX_PLAYERS, LineKind


def _discover() -> dict[str, LineKind]:
    found = []
    for module in pkgutil.iter_modules(__path__):
        if module.name != "kind":
            found.append(importlib.import_module(f"{__name__}.{module.name}").KIND)
    return {kind.name: kind for kind in sorted(found, key=lambda k: (k.position, k.name))}


LINE_KINDS: dict[str, LineKind] = _discover()
"""Every kind of line by name, in the order of their ``position``."""

TERM_KINDS: tuple[str, ...] = tuple(LINE_KINDS)
"""The kinds' names, as keys of a line (``ScoreTerm``)."""

__all__ = ["INPUT_LIMIT", "LINE_KINDS", "MAX_PLAYERS", "TERM_KINDS", "LineKind"]
