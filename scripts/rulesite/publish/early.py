"""Work on the finished ``content/`` while the languages build (``publish/build.py``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Early(Generic[T]):
    """Work on the finished ``content/`` while MkDocs builds (``render_and_build``'s ``early``),
    on a thread. ``content/`` is finished once every language builds (the rest-writer wrote its
    part before letting them build, each language its pages before building), and MkDocs never
    writes into it: so reading it need not wait for the slowest language. At 1,000 games that
    is seconds of reading and linking files: overlapped, they cost the build no wall time where
    a core is idle (the faster language done) and half of it where none is."""

    def __init__(self, work: Callable[[], T], name: str) -> None:
        self.work, self.name = work, name
        self.thread: threading.Thread | None = None
        self.value: T | None = None
        self.error: BaseException | None = None

    def start(self) -> None:
        """Begin, once (``render_and_build`` calls it when every language builds)."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self.thread.start()

    def join(self) -> None:
        """Wait for it to end (it may never have started)."""
        if self.thread is not None:
            self.thread.join()

    def result(self) -> T:
        """What the work returned, once done (started now when it never was: a language that
        reported nothing while building); its exception raised here."""
        self.start()
        self.join()
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]

    def _run(self) -> None:
        try:
            self.value = self.work()
        except BaseException as error:  # raised in the caller's thread, by result()
            self.error = error
