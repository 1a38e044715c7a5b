"""How far a language's MkDocs build has got, for ``rulesite build``'s progress line.

MkDocs first converts every page's Markdown, then writes every page. The ``rulesite`` plugin
counts both (``on_files`` and ``on_env`` know how many pages there are, ``on_page_content`` and
``on_post_page`` see each one go) and tells the listener a build process set; with none set (a
plain ``mkdocs build``, a preview) counting costs nothing and says nothing.
"""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[str, int, int], None]
"""Called with (what is counted, how many done, of how many)."""

CONVERTED = "pages converted"
WRITTEN = "pages written"

_listener: Listener | None = None
_unit = WRITTEN
_done = 0
_total = 0


def listen(listener: Listener | None) -> None:
    """Tell ``listener`` about every page this process's builds write (None: nobody)."""
    global _listener
    _listener = listener


def pages_started(total: int, unit: str = WRITTEN) -> None:
    """A build is about to convert or write (``unit``) ``total`` pages."""
    global _done, _total, _unit
    _done, _total, _unit = 0, total, unit
    if _listener is not None:
        _listener(_unit, _done, _total)


def page_done() -> None:
    """One more page converted or written."""
    global _done
    _done += 1
    if _listener is not None:
        _listener(_unit, _done, _total)
