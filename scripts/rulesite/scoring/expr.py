"""The formula language: integers, names, ``+ - *``, floor division ``//``, ``min``, ``max``.

Formulas are parsed into plain JSON-ready trees and walked by an evaluator; nothing is ever
passed to ``eval``. Each distinct text is parsed once: :func:`parse` remembers its trees, so the
checks, the compiler and the pages share them (a tree is never changed after parsing). Tree nodes:

- ``{"n": 3}`` an integer;
- ``{"v": "gold"}`` a name (an input, a term, a setting flag or ``players``);
- ``{"op": "+", "a": [left, right]}`` for ``+ - * //``;
- ``{"op": "neg", "a": [x]}`` for unary minus;
- ``{"op": "min" | "max", "a": [x, y, ...]}`` for the functions.

The divisor of ``//`` must be a positive integer constant: this rules out division by zero when
the data is validated rather than at the table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

Tree = dict[str, Any]

MAX_FORMULA_LENGTH = 500
MAX_DEPTH = 40
FUNCTIONS = ("min", "max")

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(//|[-+*(),]))")


class FormulaError(ValueError):
    """A formula that does not parse; the message says where and why."""


def parse(text: str) -> Tree:
    """Parse ``text`` into a tree; raise :class:`FormulaError` with a clear message.

    The tree is shared by every caller that parses the same text: read it, never change it.
    """
    if not isinstance(text, str):
        raise FormulaError("a formula must be text")
    return _parse_text(text)


@functools.lru_cache(maxsize=65_536)
def _parse_text(text: str) -> Tree:
    # Errors are not cached: a formula that fails stops validation, so it is seldom parsed twice.
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaError(f"formula is longer than {MAX_FORMULA_LENGTH} characters")
    parser = _Parser(text)
    tree = parser.expression(0)
    parser.expect_end()
    return tree


def names(tree: Tree) -> set[str]:
    """Every name a tree refers to."""
    return set(_walk_names(tree))


def _walk_names(tree: Tree) -> Iterator[str]:
    if "v" in tree:
        yield tree["v"]
    for child in tree.get("a", ()):
        yield from _walk_names(child)


def evaluate(tree: Tree, env: Mapping[str, int]) -> int:
    """The integer value of ``tree`` with names looked up in ``env``."""
    if "n" in tree:
        return tree["n"]
    if "v" in tree:
        return env[tree["v"]]
    op, args = tree["op"], [evaluate(child, env) for child in tree["a"]]
    if op == "+":
        return args[0] + args[1]
    if op == "-":
        return args[0] - args[1]
    if op == "*":
        return args[0] * args[1]
    if op == "//":
        return args[0] // args[1]  # floor division, like Math.floor(a / b) in the browser
    if op == "neg":
        return -args[0]
    if op == "min":
        return min(args)
    if op == "max":
        return max(args)
    raise FormulaError(f"unknown operation {op!r}")


class _Parser:
    """Recursive descent over the token list; positions are 1-based columns for messages."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = list(self._tokenize(text))
        self.index = 0

    @staticmethod
    def _tokenize(text: str) -> Iterator[tuple[str, str, int]]:
        position = 0
        while position < len(text):
            if text[position:].strip() == "":
                return
            match = _TOKEN.match(text, position)
            if not match:
                column = len(text) - len(text[position:].lstrip()) + 1
                raise FormulaError(f"unexpected character {text[column - 1]!r} at column {column}")
            number, name, symbol = match.groups()
            column = match.start(match.lastindex) + 1
            if number is not None:
                yield ("num", number, column)
            elif name is not None:
                yield ("name", name, column)
            else:
                yield ("sym", symbol, column)
            position = match.end()

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        if token is None:
            raise FormulaError("formula ends too early")
        self.index += 1
        return token

    def expect_end(self) -> None:
        token = self.peek()
        if token is not None:
            raise FormulaError(f"unexpected {token[1]!r} at column {token[2]}")

    def expression(self, depth: int) -> Tree:
        self._check_depth(depth)
        tree = self.product(depth + 1)
        while (token := self.peek()) and token[1] in ("+", "-"):
            self.take()
            tree = {"op": token[1], "a": [tree, self.product(depth + 1)]}
        return tree

    def product(self, depth: int) -> Tree:
        self._check_depth(depth)
        tree = self.unary(depth + 1)
        while (token := self.peek()) and token[1] in ("*", "//"):
            self.take()
            right = self.unary(depth + 1)
            if token[1] == "//":
                right = self._divisor(right, token[2])
            tree = {"op": token[1], "a": [tree, right]}
        return tree

    def unary(self, depth: int) -> Tree:
        self._check_depth(depth)
        token = self.peek()
        if token and token[1] == "-":
            self.take()
            operand = self.unary(depth + 1)
            if "n" in operand:
                return {"n": -operand["n"]}
            return {"op": "neg", "a": [operand]}
        return self.atom(depth + 1)

    def atom(self, depth: int) -> Tree:
        kind, value, column = self.take()
        if kind == "num":
            if len(value) > 9:
                raise FormulaError(f"number {value} at column {column} is too large")
            return {"n": int(value)}
        if kind == "name":
            token = self.peek()
            if token and token[1] == "(":
                return self.call(value, column, depth)
            if value in FUNCTIONS:
                raise FormulaError(f"{value} at column {column} needs arguments: {value}(a, b)")
            return {"v": value}
        if value == "(":
            tree = self.expression(depth + 1)
            self.closing(column)
            return tree
        raise FormulaError(f"unexpected {value!r} at column {column}")

    def call(self, name: str, column: int, depth: int) -> Tree:
        if name not in FUNCTIONS:
            raise FormulaError(f"unknown function {name!r} at column {column} (use min or max)")
        self.take()  # "("
        args = [self.expression(depth + 1)]
        while (token := self.peek()) and token[1] == ",":
            self.take()
            args.append(self.expression(depth + 1))
        self.closing(column)
        if len(args) < 2:
            raise FormulaError(f"{name} at column {column} needs at least two arguments")
        return {"op": name, "a": args}

    def closing(self, column: int) -> None:
        token = self.peek()
        if token is None or token[1] != ")":
            raise FormulaError(f"'(' at column {column} is never closed")
        self.take()

    def _divisor(self, tree: Tree, column: int) -> Tree:
        if "n" not in tree:
            raise FormulaError(
                f"divisor of // at column {column} must be a whole number, not a formula"
            )
        if tree["n"] == 0:
            raise FormulaError(f"division by zero at column {column}")
        if tree["n"] < 0:
            raise FormulaError(f"divisor of // at column {column} must be positive")
        return tree

    def _check_depth(self, depth: int) -> None:
        if depth > MAX_DEPTH * 4:
            raise FormulaError("formula is nested too deeply")
