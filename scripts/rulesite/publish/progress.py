"""What a long ``rulesite build`` is doing, on standard error.

Each stage is a line of its own (``rulesite: checking 1,000 games…``, ``rendering zh, en…``,
``building zh, en…``, ``publishing…``). Within the rendering and building stages the languages'
counts follow: on a terminal one line rewritten in place (``\\r``), elsewhere (a log, CI) a line
at every tenth of the stage's work or every 30 seconds, whichever comes first.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

LOG_EVERY_SECONDS = 30.0
"""Off a terminal: a progress line at least this often while counts move."""
LOG_EVERY_FRACTION = 0.1
"""Off a terminal: a progress line at every tenth of the stage's work."""
REDRAW_SECONDS = 0.1
"""On a terminal: the line is rewritten at most this often."""


class Progress:
    """The stage lines and the per-language counts of one build."""

    def __init__(
        self,
        stream: TextIO | None = None,
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.clock = clock
        self._counts: dict[str, tuple[str, int, int]] = {}
        self._open = False  # a terminal line waits for its newline
        self._stale = False  # counts came that the terminal line does not show yet
        self._last = ""  # the last count line written off a terminal
        self._shown_at = 0.0
        self._tenth = 0

    def stage(self, text: str) -> None:
        """A new stage: ``rulesite: <text>…`` on a line of its own."""
        self._end_line()
        self._counts = {}
        self._tenth = 0
        self._shown_at = self.clock()
        self._write(f"rulesite: {text}…\n")

    def count(self, lang: str, unit: str, done: int, total: int) -> None:
        """``lang`` has done ``done`` of ``total`` ``unit`` (games rendered, pages built)."""
        before = self._counts.get(lang)
        self._counts[lang] = (unit, done, total)
        now = self.clock()
        if before is not None and before[0] != unit:  # rendered, now building: count anew
            self._tenth = int(self._fraction() / LOG_EVERY_FRACTION)
        if self.tty:
            self._stale = True
            if now - self._shown_at >= REDRAW_SECONDS or self._finished():
                self._redraw()
            return
        tenth = int(self._fraction() / LOG_EVERY_FRACTION)
        line = self.line()
        # And the counts once all are complete, so a log always ends with every language's.
        finished = self._finished() and line != self._last
        if tenth > self._tenth or now - self._shown_at >= LOG_EVERY_SECONDS or finished:
            self._write(line + "\n")
            self._tenth, self._shown_at, self._last = tenth, now, line

    def done(self) -> None:
        """The build is over: end a terminal line left open."""
        self._end_line()

    def line(self) -> str:
        """``  zh 1,234/4,012 pages, en 1,100/4,012 pages``."""
        counts = self._counts.items()
        each = [f"{lang} {done:,}/{total:,} {unit}" for lang, (unit, done, total) in counts]
        return "  " + ", ".join(each)

    def _fraction(self) -> float:
        totals = [(done, total) for _, done, total in self._counts.values() if total]
        if not totals:
            return 0.0
        return sum(done / total for done, total in totals) / len(totals)

    def _finished(self) -> bool:
        return all(done >= total for _, done, total in self._counts.values())

    def _redraw(self) -> None:
        self._write("\r" + self.line() + "\x1b[K")
        self._open, self._stale, self._shown_at = True, False, self.clock()

    def _end_line(self) -> None:
        if self._stale:  # the last counts, drawn before the line ends
            self._redraw()
        if self._open:
            self._write("\n")
            self._open = False

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


class Silent(Progress):
    """Says nothing: ``build()`` called from code (tests, the benchmark)."""

    def _write(self, text: str) -> None:
        pass


class LanguageCounts:
    """The language processes' counts, on ``progress``; the stage ``building`` once the first
    language builds; ``all_building`` called once every language builds and every page is
    rendered (a language whose pages arrive as it builds, of ``arriving``, says so apart:
    ``rendered``)."""

    def __init__(
        self,
        progress: Progress,
        langs: list[str],
        all_building: Callable[[], None] | None = None,
        arriving: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        self.progress, self.langs, self.all_building = progress, langs, all_building
        self.building: set[str] = set()
        self.rendering = set(arriving)
        self.called = False

    def __call__(self, lang: str, unit: str, done: int, total: int) -> None:
        if unit != "games rendered" and lang not in self.building:
            if not self.building:
                self.progress.stage(f"building {', '.join(self.langs)}")
            self.building.add(lang)
            self._all_building()
        self.progress.count(lang, unit, done, total)

    def rendered(self, lang: str) -> None:
        """Every page of ``lang`` is rendered."""
        self.rendering.discard(lang)
        self._all_building()

    def _all_building(self) -> None:
        done = len(self.building) == len(self.langs) and not self.rendering
        if done and not self.called and self.all_building is not None:
            self.called = True
            self.all_building()
