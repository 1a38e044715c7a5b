"""Stage 1: read YAML files safely, keeping the line of every key.

We compose the YAML node graph with PyYAML's *safe* loader and convert it ourselves, because
that lets us (a) remember the line of every key for error messages, (b) reject duplicate keys,
which PyYAML silently overwrites, (c) refuse aliases, which make "billion laughs" bombs possible
and which our data never needs, and (d) refuse every tag outside the plain YAML types.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesite.errors import DataError, Problem

MAX_FILE_BYTES = 1_000_000
"""Data files are hand-written; anything larger is a mistake or an attack."""

KeyPath = tuple[str | int, ...]

_PLAIN_TAGS = {
    "tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "timestamp")
}
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


@dataclass
class Document:
    """One parsed YAML file with the line of every key path in it."""

    file: str
    """Path shown in messages (relative to the project)."""
    data: Any
    """Plain Python data: dicts, lists, str, int, float, bool, None, date."""
    lines: dict[KeyPath, int] = field(default_factory=dict)
    """1-based line of each key path; the empty path is the document start."""

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


def load_yaml_file(path: Path, display: str) -> Document:
    """Read one YAML file; raise :class:`DataError` with every problem found."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError([Problem(display, None, "", f"cannot read file: {exc.strerror}")]) from None
    return load_yaml_bytes(raw, display)


def load_yaml_bytes(raw: bytes, display: str) -> Document:
    """Parse YAML bytes; raise :class:`DataError` on anything but plain, safe YAML."""
    if len(raw) > MAX_FILE_BYTES:
        size = f"{len(raw) / 1_000_000:.1f} MB"
        raise DataError(
            [Problem(display, None, "", f"file is {size}; data files must be under 1 MB")]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            [
                Problem(
                    display,
                    line,
                    "",
                    f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save as UTF-8",
                )
            ]
        ) from None
    if not text.strip() or all(_is_comment(line) for line in text.splitlines()):
        raise DataError([Problem(display, None, "", "file is empty")])
    try:
        alias = _first_alias(text)
        if alias is not None:
            line, count = alias
            more = f" ({count} in this file)" if count > 1 else ""
            raise DataError(
                [
                    Problem(
                        display,
                        line,
                        "",
                        f"YAML aliases (*name) are not allowed{more}; write values out",
                    )
                ]
            )
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise DataError([_yaml_problem(display, exc)]) from None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML marks nearly everything
        raise DataError([Problem(display, None, "", f"YAML error: {exc}")]) from None
    if node is None:
        raise DataError([Problem(display, None, "", "file is empty")])
    converter = _Converter(display)
    data = converter.convert(node, ())
    if converter.problems:
        raise DataError(converter.problems)
    return Document(display, data, converter.lines)


def _first_alias(text: str) -> tuple[int, int] | None:
    """Line of the first alias and the number of aliases, from the event stream.

    Aliases let a few lines expand into billions of values ("billion laughs"); our data never
    needs them, so they are refused before anything is built from the document.
    """
    first, count = None, 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            count += 1
            if first is None:
                first = event.start_mark.line + 1
    return (first, count) if first is not None else None


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _yaml_problem(display: str, exc: yaml.MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    message = exc.problem or exc.context or "invalid YAML"
    if "\\t" in message or "'\\t'" in message or "tab" in message.lower():
        message += " (indent with spaces, not tabs)"
    return Problem(display, line, "", f"YAML syntax error: {message}")


class _Converter:
    """Turns a composed node graph into plain data, recording lines and problems."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.lines: dict[KeyPath, int] = {}
        self.problems: list[Problem] = []
        self._seen: set[int] = set()
        self._scalars = SafeConstructor()

    def convert(self, node: Node, path: KeyPath) -> Any:
        self.lines.setdefault(path, node.start_mark.line + 1)
        if id(node) in self._seen:  # an alias; _first_alias refuses them, this is a safety net
            self._add(node, path, "YAML aliases (*name) are not allowed; write values out")
            return None
        self._seen.add(id(node))
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return self._sequence(node, path)
        return self._scalar(node, path)

    def _add(self, node: Node, path: KeyPath, message: str) -> None:
        self.problems.append(
            Problem(self.display, node.start_mark.line + 1, format_path(path), message)
        )

    def _mapping(self, node: MappingNode, path: KeyPath) -> dict[str, Any] | None:
        if node.tag != _MAP_TAG:
            self._add(node, path, f"tag {node.tag!r} is not allowed (plain YAML only)")
            return None
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node, path)
            if key is None:
                continue
            child = (*path, key)
            if key in result:
                first = self.lines.get(child)
                self._add(key_node, child, f"duplicate key {key!r} (first defined on line {first})")
                continue
            self.lines[child] = key_node.start_mark.line + 1
            result[key] = self.convert(value_node, child)
        return result

    def _key(self, key_node: Node, path: KeyPath) -> str | None:
        if not isinstance(key_node, ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
            if isinstance(key_node, ScalarNode) and key_node.tag in _PLAIN_TAGS:
                return str(key_node.value)
            self._add(key_node, path, "keys must be plain text")
            return None
        return str(key_node.value)

    def _sequence(self, node: SequenceNode, path: KeyPath) -> list[Any] | None:
        if node.tag != _SEQ_TAG:
            self._add(node, path, f"tag {node.tag!r} is not allowed (plain YAML only)")
            return None
        return [self.convert(item, (*path, index)) for index, item in enumerate(node.value)]

    def _scalar(self, node: Node, path: KeyPath) -> Any:
        if node.tag not in _PLAIN_TAGS:
            self._add(node, path, f"tag {node.tag!r} is not allowed (plain YAML only)")
            return None
        try:
            return self._scalars.construct_object(node, deep=True)
        except (ConstructorError, ValueError) as exc:
            self._add(node, path, f"invalid value: {exc}")
            return None


def iter_yaml_files(folder: Path) -> Iterator[Path]:
    """The ``*.yaml`` files of a folder in a stable order."""
    yield from sorted(p for p in folder.glob("*.yaml") if p.is_file())
