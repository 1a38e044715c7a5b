"""The small exception hierarchy the CLI maps to exit codes.

Every user-facing problem is a :class:`Problem` (file, line, key path, message).
Stages collect problems and raise them once, so an editor sees all of them in one run.
"""

from __future__ import annotations

from dataclasses import dataclass


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
