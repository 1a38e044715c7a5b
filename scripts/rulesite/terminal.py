"""Text from outside (input files, names, exception messages) made safe to print on a terminal.

A control character echoed to a terminal can move the cursor, recolour or retitle the window, or
hide the rest of a message; a lone surrogate cannot even be encoded. Both are shown as escapes
(``\\x1b``, ``\\ud800``), the way ``ascii()`` writes them; every other character, Chinese
included, is printed as it is.
"""

from __future__ import annotations

import unicodedata

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides...), surrogate, private-use, unassigned, line/paragraph
separators: nothing a person means to see, some able to rewrite what the terminal shows."""


def is_unsafe(char: str) -> bool:
    """True for a character that is escaped rather than printed."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def printable(text: str, limit: int = 200) -> str:
    """``text`` on one line with unsafe characters escaped, cut to ``limit`` characters."""
    shown = "".join(ascii(c)[1:-1] if is_unsafe(c) else c for c in text[:limit])
    return shown + "…" if len(text) > limit else shown


def quoted(text: str, limit: int = 60) -> str:
    """``text`` in quotes for a message, like ``repr`` but keeping readable non-ASCII text."""
    return "'" + printable(text, limit).replace("'", "\\'") + "'"
