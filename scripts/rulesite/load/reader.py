"""Stage 1: read YAML files safely, keeping the line of every key.

A data file is read only if it is a regular file inside the project, and never more than
:data:`MAX_FILE_BYTES` of it. It is parsed in one pass over PyYAML's event stream (libyaml's C
parser when it is installed, else the pure-Python one), and we build the plain data ourselves
with an explicit stack instead of PyYAML's recursive composer. That lets us (a) remember the line
of every key for error messages, (b) reject duplicate keys, which PyYAML silently overwrites,
(c) refuse aliases where they occur, so "billion laughs" bombs are never expanded, (d) refuse
every tag outside the plain YAML types, and (e) limit nesting with a located error instead of a
``RecursionError``.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from rulesite.errors import DataError, Document, KeyPath, Problem, format_path
from rulesite.load.fast import fast_document

MAX_FILE_BYTES = 256_000
"""Data files are hand-written; anything larger is a mistake or an attack."""

MAX_DEPTH = 32
"""Deepest nesting of lists and mappings; a game file needs about ten levels."""


_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_TAGS = {_STR_TAG} | {
    "tag:yaml.org,2002:" + name for name in ("int", "float", "bool", "null", "timestamp")
}
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"

PARSER_LOADER: type = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
"""libyaml's C parser when PyYAML was built with it (``yaml.__with_libyaml__``); both are safe."""

_NOT_YAML_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
"""Characters YAML does not allow in a file (its "printable" set), found before parsing so that
both parsers report them the same way, with a line."""
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""What YAML counts as a line break (so our line numbers agree with the parser's)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


# --- Reading files -------------------------------------------------------------------------------


def load_yaml_file(path: Path, display: str, root: Path | None = None) -> Document:
    """Read and parse one data file; raise :class:`DataError` with every problem found.

    With ``root``, a file that resolves outside it (through a symlink) is refused.
    """
    return load_yaml_bytes(read_data_file(path, display, root and root.resolve()), display)


def read_data_file(path: Path, display: str, real_root: Path | None = None) -> bytes:
    """The bytes of a regular data file, reading at most ``MAX_FILE_BYTES + 1`` of them; with
    ``real_root`` (a resolved folder: a load resolves it once), one resolving outside is refused.

    FIFOs would block forever and devices such as ``/dev/zero`` never end, so only regular files
    are opened (checked again on the open file, in case it was swapped in between).
    """

    def fail(message: str) -> DataError:
        return DataError([Problem(display, None, "", message)])

    real = _resolve(path, fail)
    if real_root is not None and not real.is_relative_to(real_root):
        raise fail(f"links to {real}, outside the project; data files must be inside it")
    try:
        kind = _file_kind(os.stat(real).st_mode)
        if kind is not None:
            raise fail(kind)
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise fail(f"cannot read file: {exc.strerror}") from None
    try:
        status = os.fstat(fd)
        kind = _file_kind(status.st_mode)
        if kind is not None:
            raise fail(kind)
        if status.st_size > MAX_FILE_BYTES:
            raise fail(_too_big(status.st_size))
        return _read_at_most(fd, MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise fail(f"cannot read file: {exc.strerror}") from None
    finally:
        os.close(fd)


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes: a file that grew after it was measured is not read to its end."""
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _resolve(path: Path, fail: Callable[[str], DataError]) -> Path:
    try:
        return path.resolve(strict=True)
    except FileNotFoundError:
        if path.is_symlink():
            raise fail(f"is a symlink to {os.readlink(path)}, which does not exist") from None
        raise fail("cannot read file: No such file or directory") from None
    except RuntimeError:  # Python < 3.13 reports a symlink loop this way
        raise fail("is a symlink loop") from None
    except OSError as exc:
        raise fail(f"cannot read file: {exc.strerror}") from None


def _file_kind(mode: int) -> str | None:
    """Why a file of this mode cannot be read as data, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    kinds = {
        stat.S_ISFIFO: "a named pipe (FIFO)",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
        stat.S_ISSOCK: "a socket",
    }
    kind = next((name for test, name in kinds.items() if test(mode)), "a special file")
    return f"is {kind}, not a regular file"


def _too_big(size: int) -> str:
    shown = f"{size / 1_000_000:.1f} MB" if size >= 1_050_000 else f"{size:,} bytes"
    return f"file is {shown}; data files must be under 256 KB"


def yaml_files(folder: Path, display: str) -> tuple[list[Path], list[Problem]]:
    """The ``*.yaml`` entries of a folder in a stable order, and a problem for every other entry.

    A ``nations.yml`` or ``notes.txt`` among the games would otherwise be skipped silently, and
    its author left wondering where the game went. Hidden entries (``.DS_Store``, an editor's
    ``.nations.yaml.swp``) are not data and are ignored.
    """
    if not folder.is_dir():
        return [], []
    files, problems = [], []
    for entry in sorted(folder.iterdir()):
        name = entry.name
        if name.startswith("."):
            continue
        if name.endswith(".yaml"):
            files.append(entry)  # a folder or a FIFO named *.yaml is refused when it is read
            continue
        where = f"{display}/{name}"
        rule = f"only <slug>.yaml files belong in {display}/"
        if entry.is_dir():
            message = f"is a folder; {rule}"
        elif name.lower().endswith((".yml", ".yaml")):
            message = f"{rule}; rename it to {name.rsplit('.', 1)[0]}.yaml"
        else:
            message = f"{rule}; move this file elsewhere"
        problems.append(Problem(where, None, "", message))
    return files, problems


# --- Parsing -------------------------------------------------------------------------------------


def load_yaml_bytes(raw: bytes, display: str) -> Document:
    """Parse YAML bytes; raise :class:`DataError` on anything but plain, safe YAML."""
    doc = parse_yaml_bytes(raw, display)
    if doc.refused:
        raise DataError(list(doc.refused))
    return doc


def parse_yaml_bytes(raw: bytes, display: str) -> Document:
    """Parse YAML bytes, keeping what can be kept: raise :class:`DataError` only when the file
    as a whole cannot be read (not UTF-8, a syntax error, aliases, too deep).

    A duplicate key, a bad tag or a value that is not what it claims to be (``2026-13-01``) is a
    problem of that one place, listed in the document's ``refused``; the rest of the file is
    still checked, so one slip does not hide every other problem (``catalog.py``).
    """
    if len(raw) > MAX_FILE_BYTES:
        raise DataError([Problem(display, None, "", _too_big(len(raw)))])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        message = f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save as UTF-8"
        raise DataError([Problem(display, line, "", message)]) from None
    if not text.strip() or all(_is_comment(line) for line in text.splitlines()):
        raise DataError([Problem(display, None, "", "file is empty")])
    bad = _NOT_YAML_PRINTABLE.search(text)
    if bad is not None:
        line = _line_at(text, bad.start())
        message = f"{_char_name(bad.group())} is not allowed in YAML; remove it"
        raise DataError([Problem(display, line, "", message)])
    fast = fast_document(text, display, PARSER_LOADER, MAX_DEPTH)
    if fast is not None:  # plain YAML with nothing to refuse (load/fast.py)
        return fast
    return _careful_document(text, display)


def _careful_document(text: str, display: str) -> Document:
    """The document built event by event, every refusal and problem recorded."""
    builder = _Builder(display)
    try:
        for event in yaml.parse(text, Loader=PARSER_LOADER):
            builder.feed(event)
    except yaml.MarkedYAMLError as exc:
        raise DataError([_yaml_problem(display, exc, text)]) from None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML marks nearly everything
        raise DataError([Problem(display, None, "", f"YAML error: {exc}")]) from None
    except _TooDeep:
        raise DataError(builder.problems) from None
    return builder.document()


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _line_at(text: str, index: int) -> int:
    return len(_LINE_BREAK.findall(text, 0, index)) + 1


def _char_name(char: str) -> str:
    name = unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} ({name})"


_CONTEXT_NAMES = {
    "flow mapping": "{ } mapping",
    "flow sequence": "[ ] list",
    "flow node": "[ ] or { } value",
    "block mapping": "mapping",
    "block collection": "list or mapping",
    "quoted scalar": "quoted text",
    "plain scalar": "unquoted text",
    "block scalar": "| or > text",
}


def _yaml_problem(display: str, exc: yaml.MarkedYAMLError, text: str) -> Problem:
    """A syntax error in words: what is wrong, where, and where the construct it is in began."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    message = exc.problem or exc.context or "invalid YAML"
    if message == "exceeded maximum nesting depth":  # libyaml's own limit (1,000), hit first
        return Problem(display, line, "", _too_deep())
    at_tab = mark is not None and text[mark.index : mark.index + 1] == "\t"
    if at_tab or "\\t" in message or "tab" in message.lower():
        return Problem(
            display, line, "", f"YAML syntax error: {message} (indent with spaces, not tabs)"
        )
    context = exc.context if exc.problem else None
    start = exc.context_mark
    found = re.fullmatch(r"while (?:parsing|scanning) an? (.+)", context or "")
    if found and start is not None and mark is not None and start.line != mark.line:
        what = _CONTEXT_NAMES.get(found.group(1), found.group(1))
        message += f" (in the {what} that starts on line {start.line + 1})"
    return Problem(display, line, "", f"YAML syntax error: {message}")


def _too_deep() -> str:
    return f"nested more than {MAX_DEPTH} levels deep; data files need far fewer"


class _TooDeep(Exception):
    """Nesting went past MAX_DEPTH; the builder's problems say where."""


_REFUSED = object()
"""A mapping key that was refused (duplicate, not text): its value is skipped."""


@dataclass
class _Frame:
    """A list or mapping being built."""

    path: KeyPath
    value: dict[str, Any] | list[Any]
    key: object = None
    """Mappings: the key whose value comes next (a str, or _REFUSED), or None between entries."""


class _Builder:
    """Builds plain data from YAML events with an explicit stack, recording lines and problems.

    Nothing recurses, so depth is a counter. A subtree that is refused (a bad tag, a bad or
    duplicate key and its value, an alias) is skipped by counting its start and end events.
    """

    def __init__(self, display: str) -> None:
        self.display = display
        self.lines: dict[KeyPath, int] = {}
        self.spellings: dict[KeyPath, str] = {}
        self.problems: list[Problem] = []
        self.refused_paths: set[KeyPath] = set()
        self.stack: list[_Frame] = []
        self.skipping = 0
        self.documents = 0
        self.root: Any = None
        self.aliases = 0
        self.first_alias: int | None = None
        self._resolver = Resolver()
        self._constructor = SafeConstructor()

    def document(self) -> Document:
        if self.aliases:
            more = f" ({self.aliases} in this file)" if self.aliases > 1 else ""
            message = f"YAML aliases (*name) are not allowed{more}; write values out"
            raise DataError([Problem(self.display, self.first_alias, "", message)])
        if self.documents == 0:
            raise DataError([Problem(self.display, None, "", "file is empty")])
        if self.documents > 1:  # a second document is a syntax slip: nothing is trusted
            raise DataError(self.problems)
        return Document(
            self.display,
            self.root,
            self.lines,
            self.spellings,
            tuple(self.problems),
            frozenset(self.refused_paths),
        )

    def feed(self, event: yaml.Event) -> None:
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            # Refused where it stands: an alias is never expanded, so no bomb can go off.
            self.aliases += 1
            self.first_alias = self.first_alias or line
            if not self.skipping:
                self._attach(line, None)
        elif isinstance(event, yaml.ScalarEvent):
            if not self.skipping:
                self._attach(line, event)
        elif isinstance(event, yaml.CollectionStartEvent):
            self._start(event, line)
        elif isinstance(event, yaml.CollectionEndEvent):
            self._end(line)
        elif isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                if self.documents == 2:
                    message = "YAML syntax error: found a second document (---); a file holds one"
                    self.problems.append(Problem(self.display, line, "", message))
                self.skipping = 1  # everything up to the document's end is ignored
        elif isinstance(event, yaml.DocumentEndEvent) and self.documents > 1:
            self.skipping = 0

    # Structure.

    def _start(self, event: yaml.CollectionStartEvent, line: int) -> None:
        if self.skipping:
            self.skipping += 1
            return
        path = self._child_path(line)
        if path is None:  # a list or mapping used as a key, or the value of a refused key
            self.skipping = 1
            return
        self.lines.setdefault(path, line)
        is_map = isinstance(event, yaml.MappingStartEvent)
        if event.tag not in (None, "!", _MAP_TAG if is_map else _SEQ_TAG):
            self._add(line, path, f"tag {event.tag!r} is not allowed (plain YAML only)", True)
            self._place(None)
            self.skipping = 1
            return
        if len(self.stack) >= MAX_DEPTH:
            self._add(line, path, _too_deep())
            raise _TooDeep
        self.stack.append(_Frame(path, {} if is_map else []))

    def _end(self, line: int) -> None:
        if self.skipping:
            self.skipping -= 1
            return
        frame = self.stack.pop()
        self._place(frame.value)

    def _child_path(self, line: int) -> KeyPath | None:
        """Path of the value starting now; None if it must be skipped (refused or a key)."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.value, list):
            return (*top.path, len(top.value))
        if top.key is None:
            self._add(line, top.path, "keys must be plain text")
            top.key = _REFUSED
            return None
        if top.key is _REFUSED:
            top.key = None
            return None
        return (*top.path, top.key)  # type: ignore[misc]

    def _place(self, value: Any) -> None:
        """Store a finished value in its parent (the parent's path was given by _child_path)."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if isinstance(top.value, list):
            top.value.append(value)
        else:
            top.value[top.key] = value  # type: ignore[index]
            top.key = None

    # Scalars.

    def _attach(self, line: int, scalar: yaml.ScalarEvent | None) -> None:
        """A scalar (or an alias, when ``scalar`` is None) arrives: a key or a value."""
        top = self.stack[-1] if self.stack else None
        if top is not None and isinstance(top.value, dict) and top.key is None:
            self._key(top, line, scalar)
            return
        path = self._child_path(line)
        if path is None:
            return
        self.lines.setdefault(path, line)
        self._place(None if scalar is None else self._scalar(scalar, path, line))

    def _key(self, top: _Frame, line: int, scalar: yaml.ScalarEvent | None) -> None:
        tag = None if scalar is None else self._tag_of(scalar)
        if scalar is None or tag not in _PLAIN_TAGS:
            if scalar is not None:
                self._add(line, top.path, "keys must be plain text")
            top.key = _REFUSED
            return
        key = scalar.value
        child = (*top.path, key)
        if _SURROGATE.search(key):
            self._add(line, top.path, "keys must be plain text")
            top.key = _REFUSED
        elif key in top.value:
            first = self.lines.get(child)
            self._add(line, child, f"duplicate key {key!r} (first defined on line {first})")
            top.key = _REFUSED
        else:
            self.lines[child] = line
            top.key = key

    def _tag_of(self, event: yaml.ScalarEvent) -> str:
        if event.tag is None or event.tag == "!":
            return self._resolver.resolve(ScalarNode, event.value, event.implicit)
        return event.tag

    def _scalar(self, event: yaml.ScalarEvent, path: KeyPath, line: int) -> Any:
        tag = self._tag_of(event)
        if tag == _STR_TAG:
            if _SURROGATE.search(event.value):
                self._add(
                    line,
                    path,
                    "contains a lone surrogate escape (\\ud800–\\udfff); remove it",
                    True,
                )
                return None
            return event.value
        if tag not in _PLAIN_TAGS:
            self._add(line, path, f"tag {tag!r} is not allowed (plain YAML only)", True)
            return None
        node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            value = SafeConstructor.yaml_constructors[tag](self._constructor, node)
        except ValueError as exc:
            self._add(line, path, f"invalid value: {exc}", True)
            return None
        except (KeyError, AttributeError, TypeError):  # e.g. `!!bool maybe`, `!!timestamp x`
            short = tag.replace("tag:yaml.org,2002:", "!!")
            self._add(line, path, f"invalid value: {event.value!r} is not a valid {short}", True)
            return None
        if event.tag is None and event.implicit[0]:
            self.spellings[path] = event.value
        return value

    def _add(self, line: int, path: KeyPath, message: str, value: bool = False) -> None:
        """A problem at ``path``; with ``value``, the value there was refused (read as nothing)
        and the field checks stay silent about it."""
        if value:
            self.refused_paths.add(path)
        self.problems.append(Problem(self.display, line, format_path(path), message))
