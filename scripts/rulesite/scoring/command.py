"""`rulesite score`'s JSON: read and check the input, score it with a calculator, the result.

The input comes from anyone (a file, a pipe), so reading it is bounded at every step: its size,
its encoding (strict UTF-8), its nesting, the length of its numbers, and no key twice. Each
refusal is one line naming what is wrong; the CLI exits 2. Finding the calculator in a
project's data is the command's business (``rulesite/commands/score.py``), not the scoring layer's.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, BinaryIO

from rulesite.errors import UsageError
from rulesite.model import Calculator
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import score
from rulesite.scoring.inputs import check
from rulesite.terminal import printable, quoted

MAX_INPUT_BYTES = 100_000
MAX_DEPTH = 20
"""Deepest nesting of arrays and objects accepted (the input itself needs 3)."""
MAX_DIGITS = 16
"""Longest whole number accepted, in digits: enough for any score a browser computes exactly."""
MAX_PROBLEMS = 20
"""Problems listed before the rest are only counted."""

_STRUCTURE = re.compile(r'["\\\[\]{}]')
"""What matters for nesting: quotes and backslashes (strings), brackets and braces."""


def read_input(name: str) -> bytes:
    """The bytes of the file ``name``, or of standard input for ``-``; at most the limit."""
    if name == "-":
        return _read_bounded(sys.stdin.buffer, "standard input")
    path = Path(name)
    try:
        with path.open("rb") as stream:
            return _read_bounded(stream, printable(name))
    except OSError as exc:
        raise UsageError(f"{printable(name)}: cannot read: {exc.strerror or exc}") from None


def _read_bounded(stream: BinaryIO, label: str) -> bytes:
    raw = stream.read(MAX_INPUT_BYTES + 1)
    if len(raw) > MAX_INPUT_BYTES:
        raise UsageError(f"{label}: input is larger than {MAX_INPUT_BYTES // 1000} kB")
    return raw


def parse_input(raw: bytes) -> Any:
    """The JSON value in ``raw``; :class:`UsageError` with one line saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"input is not UTF-8 text: byte 0x{raw[exc.start]:02x} at offset {exc.start}"
        ) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some Windows tools write
    if _depth(text) > MAX_DEPTH:
        raise UsageError(f"input is nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(
            text,
            object_pairs_hook=_object_without_duplicates,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"input is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except _Refused as exc:
        raise UsageError(str(exc)) from None
    except (ValueError, RecursionError) as exc:  # limits of Python itself, should ours miss one
        raise UsageError(f"input cannot be read: {printable(str(exc))}") from None


def score_input(calculator: Calculator, raw: bytes) -> dict[str, Any]:
    """Score the players in ``raw`` (JSON); raise :class:`UsageError` listing every problem."""
    data = parse_input(raw)
    if not isinstance(data, dict) or "players" not in data:
        raise UsageError('input must be a JSON object with "players": [...]')
    model = compile_calculator(calculator)
    settings = {key: value for key, value in data.items() if key != "players"}
    problems = check(model, data["players"], settings)
    if problems:
        if len(problems) > MAX_PROBLEMS:
            more = len(problems) - MAX_PROBLEMS
            problems = [*problems[:MAX_PROBLEMS], f"... and {more} more problems"]
        raise UsageError(problems)
    result = score(model, data["players"], settings).as_json()
    # Name the tie-breakers that decided, as written in the data ("money", "built").
    result["decided_by"] = [calculator.tiebreakers[i].by for i in result["decided_by"]]
    return result


def result_json(result: dict[str, Any], encoding: str | None) -> str:
    """The result as JSON text; names stay readable where the output can encode them."""
    readable = (encoding or "").lower().replace("-", "").replace("_", "") == "utf8"
    return json.dumps(result, ensure_ascii=not readable, indent=2)


class _Refused(ValueError):
    """Raised from inside the JSON parser's hooks; the message is the line shown."""


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"input has the key {quoted(key)} twice in one object")
        result[key] = value
    return result


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"input has a number longer than {MAX_DIGITS} digits")
    return int(digits)


def _no_constant(name: str) -> Any:
    raise _Refused(f"input is not JSON: {name} is not a number JSON allows")


def _depth(text: str) -> int:
    """How deeply arrays and objects nest, ignoring brackets inside strings.

    Checked before parsing: Python's parser recurses once per level and would stop with a
    RecursionError (or worse) long before the size limit.
    """
    depth = deepest = 0
    in_string = False
    position = 0
    while match := _STRUCTURE.search(text, position):
        char, position = match.group(), match.end()
        if in_string:
            if char == "\\":
                position += 1  # the escaped character, whatever it is
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
        elif char in "]}":
            depth -= 1
    return deepest
