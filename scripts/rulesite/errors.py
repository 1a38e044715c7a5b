"""The small exception hierarchy the CLI maps to exit codes.

Every user-facing problem is a :class:`Problem` (file, line, key path, message).
Stages collect problems and raise them once, so an editor sees all of them in one run.
A :class:`Document` (a parsed data file) turns a key path into a located problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, located as precisely as we can."""

    file: str
    """Path of the offending file, relative to the project when possible."""
    line: int | None
    """1-based line number, or None when the problem has no single line (e.g. an empty file)."""
    path: str
    """Dotted key path inside the document, e.g. ``faq[3].answer.en``; empty for the whole file."""
    message: str
    """What is wrong and, where possible, what to do about it."""

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class RulesiteError(Exception):
    """Base class of every error the CLI reports without a traceback."""

    exit_code = 1

    def lines(self) -> list[str]:
        """The error as the lines printed on stderr."""
        return [str(self)]


class DataError(RulesiteError):
    """The data files are invalid; carries every problem found."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(set(problems), key=_problem_sort_key)
        super().__init__(f"{len(self.problems)} problem(s) in the data")

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class UsageError(RulesiteError):
    """The command line or a command's input is wrong (unknown calculator, bad JSON...)."""

    exit_code = 2

    def __init__(self, messages: list[str] | str) -> None:
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))

    def lines(self) -> list[str]:
        return list(self.messages)


class BuildError(RulesiteError):
    """Rendering or the MkDocs build failed; the previous site is left untouched."""

    exit_code = 3


def _problem_sort_key(problem: Problem) -> tuple[str, int, str, str]:
    return (problem.file, problem.line or 0, problem.path, problem.message)


# --- Locating problems in data files -------------------------------------------------------------

KeyPath = tuple[str | int, ...]
"""Where a value sits in a document: keys and list indexes, ``("faq", 3, "answer", "en")``."""


@dataclass
class Document:
    """One parsed YAML file with the line of every key path in it."""

    file: str
    """Path shown in messages (relative to the project)."""
    data: Any
    """Plain Python data: dicts, lists, str, int, float, bool, None, date."""
    lines: dict[KeyPath, int] = field(default_factory=dict)
    """1-based line of each key path; the empty path is the document start."""
    spellings: dict[KeyPath, str] = field(default_factory=dict)
    """How each unquoted value that YAML read as a boolean, number, date or null was written
    (``no`` for False), so messages can say what to quote."""
    refused: tuple[Problem, ...] = ()
    """What the reader refused while keeping the rest of the file (a duplicate key and its
    value, a value that is not what it claims, such as the date 2026-13-01): the refused value
    is left out (a duplicate) or read as nothing, and the field checks say nothing more there."""
    refused_paths: frozenset[KeyPath] = frozenset()
    """The key paths of :attr:`refused`: problems at or under them are follow-on noise."""

    def line_of(self, path: KeyPath) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:end]))
            if line is not None:
                return line
        return None

    def problem(self, path: KeyPath, message: str) -> Problem:
        """A problem located at ``path`` in this document."""
        return Problem(self.file, self.line_of(path), format_path(path), message)


def format_path(path: KeyPath) -> str:
    """``("faq", 3, "answer", "en")`` → ``faq[3].answer.en``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text
