"""What a kind of scoring line declares, once: the base class every line-kind module fills in.

A line kind is one module of this folder holding a :class:`LineKind`: its record (the YAML under
the line's kind key), how it compiles, how Python scores it, what it checks, how the bounds proof
sizes its points, the compiled model's schema for it and its hand-worked vectors. The stages
read these declarations (:data:`rulesite.model.lines.LINE_KINDS`) instead of naming the kinds.
The kinds sit in the model stage because the record ``ScoreTerm`` is built from them; the
scoring stage lends them its tools (the bounds proof) as an argument, so no import goes up.
JavaScript's half of a kind is ``templates/theme/assets/scoring-lines.js``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar, Protocol

from rulesite.errors import KeyPath

INPUT_LIMIT = 1_000_000
"""Inputs stay within ±INPUT_LIMIT, so validation can prove every formula exact in a browser."""

MAX_PLAYERS = 12
"""Most players a calculator takes: the page shows a column per player."""

Term = dict[str, Any]
"""One compiled line: plain JSON (``id``, ``kind``, optional ``players``/``when``/``helper``,
``tree`` when the kind has a formula, and the kind's own keys)."""
Env = dict[str, int]
"""One player's names and values while a calculator is scored."""
Problem = tuple[KeyPath, str]
"""A problem inside a line's value: the key path from the kind's key, and the message."""


class Spans(Protocol):
    """What the scoring stage's bounds proof (``rulesite.scoring.bounds``) lends a kind to size
    its points: ranges of values (spans, with ``low``, ``high`` and ``peak``) and the check that
    reports one that can leave the browser's exact range."""

    players: Any
    """The span of the number of players."""
    names: dict[str, Any]
    """The span of every name computed so far (None for one already reported)."""
    IN_RANGE: str
    """The words for "with inputs in range", for a message."""

    def span(self, low: int, high: int, *inner: Any) -> Any:
        """A span from ``low`` to ``high`` whose peak includes the ``inner`` spans' peaks."""

    def times(self, a: Any, b: Any) -> Any:
        """The span of a product."""

    def total(self, parts: list[Any]) -> Any:
        """The span of a sum (its peak bounds every partial sum)."""

    def check(self, value: Any, where: KeyPath, what: str, when: str, advice: str) -> Any:
        """``value``, or None after reporting it where it can leave the exact range."""

    def report(self, where: KeyPath, message: str) -> None:
        """Report another problem the proof finds (e.g. a value below a table's first row)."""

    def number(self, value: int) -> str:
        """A number for a message (thousands separators, or a power of ten when huge)."""


class LineKind:
    """One kind of scoring line. Subclasses set the class attributes and override what their
    kind does differently; a module of this folder makes one instance, named ``KIND``."""

    name: ClassVar[str]
    """The key a line of this kind has in YAML (``rank: {...}``), and its compiled ``kind``."""
    position: ClassVar[int]
    """Where the kind's key comes among a line's keys (and in messages that list the kinds)."""
    value_type: ClassVar[Any]
    """The record (or type) of the value under the kind's key."""
    doc: ClassVar[str]
    """What a line of this kind scores: the key's description in the data schema."""
    formula: ClassVar[KeyPath | None] = None
    """Where the kind's formula is inside its value (``()``: the value is the formula;
    ``("by",)``: its ``by``); compiled into the line's ``tree``. None: no formula."""
    compiled: ClassVar[dict[str, Any]]
    """The compiled line's own keys in the model schema: ``required`` (a list), ``properties``
    (JSON Schema by key) and ``description``."""
    vectors: ClassVar[Sequence[dict[str, Any]]] = ()
    """Hand-worked vectors: small calculators (``id``, ``inputs``, ``terms``) each with
    ``cases`` (``name``, ``players`` and the expected ``totals``, ``winners``...) that
    ``tests/scoring_vectors.py`` writes into the shared vectors both engines run."""

    def formula_text(self, value: Any) -> str | None:
        """The text of the kind's formula inside ``value`` (None without one)."""
        if self.formula is None:
            return None
        for key in self.formula:
            value = getattr(value, key)
        return value

    def compile(self, value: Any) -> dict[str, Any]:
        """The compiled line's own keys besides ``tree`` (JSON)."""
        return {}

    def names(self, term: Term) -> set[str]:
        """Names the line reads besides its formulas' (they order the evaluation)."""
        return set()

    def points(self, term: Term, amounts: list[int] | None, envs: list[Env]) -> list[int]:
        """Each player's points: ``amounts`` holds the kind's formula per player (None without
        a formula), ``envs`` every player's names so far."""
        raise NotImplementedError

    def span(self, term: Term, amount: Any, spans: Spans, where: KeyPath) -> Any:
        """The span of the line's points (None after reporting a problem): ``amount`` is its
        formula's span (None when reported, or without a formula); ``where`` is the line."""
        return amount

    def shape_problems(self, value: Any) -> Iterator[Problem]:
        """Problems of the value on its own (lengths that must match, rows that must rise)."""
        return iter(())

    def name_problems(self, value: Any, inputs: set[str]) -> Iterator[Problem]:
        """Problems with the names the value gives outside its formulas (``inputs``: input ids)."""
        return iter(())

    def count_problems(self, value: Any, counts: Iterable[int]) -> Iterator[Problem]:
        """Problems for player counts the line can apply with (``counts``), e.g. a missing award
        table; checked once the calculator compiles."""
        return iter(())
