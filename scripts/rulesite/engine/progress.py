"""How far a language's MkDocs build has got, for ``rulesite build``'s progress line.

The ``rulesite`` plugin counts the pages MkDocs writes (``on_env`` knows how many there are,
``on_post_page`` sees each one go) and tells the listener a build process set; with none set
(a plain ``mkdocs build``, a preview) counting costs nothing and says nothing.
"""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[int, int], None]
"""Called with (pages written, pages of the build)."""

_listener: Listener | None = None
_done = 0
_total = 0


def listen(listener: Listener | None) -> None:
    """Tell ``listener`` about every page this process's builds write (None: nobody)."""
    global _listener
    _listener = listener


def pages_started(total: int) -> None:
    """A build is about to write ``total`` pages."""
    global _done, _total
    _done, _total = 0, total
    if _listener is not None:
        _listener(_done, _total)


def page_written() -> None:
    """One more page written."""
    global _done
    _done += 1
    if _listener is not None:
        _listener(_done, _total)
