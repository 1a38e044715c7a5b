"""The reader's fast path: plain, well-formed YAML built from the event stream in one tight loop.

Nearly every data file is plain YAML with nothing to refuse. For those, this loop builds the
same data, the same line of every key and the same spellings as ``reader._Builder`` at about
half its cost: it dispatches on the event's exact class, resolves implicit tags itself (PyYAML's
resolver table, without a call per scalar) and keeps no problems. The moment it meets anything
the careful builder would say something about (an explicit tag, an alias, a key that is not
plain text or is repeated, a value that cannot be constructed, a second document, nesting past
``MAX_DEPTH``, a syntax error, a possible surrogate escape), it gives up and returns None: the
caller then parses the file again with the careful builder, whose problems and partial data are
the only ones ever reported. A file is thus either read identically or read the careful way
(``tests/test_load_fast.py`` compares both on every YAML file the tests know).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from rulesite.errors import Document, KeyPath

_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_TAGS = frozenset(
    {_STR_TAG} | {"tag:yaml.org,2002:" + n for n in ("int", "float", "bool", "null", "timestamp")}
)
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
"""A decoded file holds no surrogate; only an escape such as ``\\ud800`` in a quoted value can
make one (the careful builder refuses it), so a file that may hold one takes the careful path."""


class _Unusual(Exception):
    """Something the careful builder would report, or might: that path reads the file."""


def _implicit_table() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """PyYAML's implicit resolvers by first character, each list already joined with the
    wildcard ones, as ``Resolver.resolve`` joins them on every call."""
    table = Resolver.yaml_implicit_resolvers
    wildcard = table.get(None, [])  # type: ignore[call-overload]
    return {first: list(resolvers) + list(wildcard) for first, resolvers in table.items()}


_IMPLICIT = _implicit_table()
_WILDCARD: list[tuple[str, re.Pattern[str]]] = list(
    Resolver.yaml_implicit_resolvers.get(None, [])  # type: ignore[call-overload]
)


def _plain_tag(value: str) -> str:
    """The tag ``Resolver().resolve(ScalarNode, value, (True, False))`` gives an unquoted value
    (the default resolver has no path resolvers, so only the implicit table counts)."""
    for tag, regexp in _IMPLICIT.get(value[:1], _WILDCARD):
        if regexp.match(value):
            return tag
    return _STR_TAG


def fast_document(text: str, display: str, loader: type, max_depth: int) -> Document | None:
    """The document of ``text`` when it is plain YAML with nothing to refuse, else None."""
    if Resolver.yaml_path_resolvers or _SURROGATE_ESCAPE.search(text):
        return None
    parser = loader(text)
    try:
        root, lines, spellings = _build(parser.get_event, max_depth)
    except (_Unusual, yaml.YAMLError):
        return None
    finally:
        parser.dispose()
    return Document(display, root, lines, spellings, (), frozenset())


def _build(next_event: Any, max_depth: int) -> tuple[Any, dict[KeyPath, int], dict[KeyPath, str]]:
    """Root, lines and spellings from the events; raises _Unusual where the careful builder
    would take over. Kept in one function on purpose: it runs for every event of every file."""
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    mapping_start, sequence_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
    collection_end = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    document_start, stream_end = yaml.DocumentStartEvent, yaml.StreamEndEvent
    constructors = SafeConstructor.yaml_constructors
    constructor = SafeConstructor()
    lines: dict[KeyPath, int] = {}
    spellings: dict[KeyPath, str] = {}
    stack: list[tuple[Any, KeyPath, Any]] = []  # the enclosing (container, path, pending key)
    container: Any = None  # the list or mapping being built; None outside the root
    path: KeyPath = ()
    key: Any = None  # in a mapping: the key whose value comes next, or None
    root: Any = None
    documents = 0
    while True:
        event = next_event()
        kind = type(event)
        if kind is scalar_event:
            if event.tag is not None:
                raise _Unusual
            value = event.value
            line = event.start_mark.line + 1
            plain = event.implicit[0]
            tag = _plain_tag(value) if plain else _STR_TAG
            is_map = type(container) is dict
            if is_map and key is None:  # a key
                if tag not in _PLAIN_TAGS or value in container:
                    raise _Unusual
                key = value
                lines[(*path, key)] = line
                continue
            if tag != _STR_TAG:
                if tag not in _PLAIN_TAGS:
                    raise _Unusual
                node = ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
                try:
                    built = constructors[tag](constructor, node)
                except Exception:  # the careful builder words it
                    raise _Unusual from None
                if plain:
                    spellings[_child(container, path, key)] = value
                value = built
            if is_map:
                container[key] = value
                key = None
            elif container is None:
                lines.setdefault((), line)
                root = value
            else:
                lines[(*path, len(container))] = line
                container.append(value)
        elif kind is mapping_start or kind is sequence_start:
            if event.tag is not None:
                raise _Unusual
            line = event.start_mark.line + 1
            if type(container) is dict:
                if key is None:  # a list or mapping used as a key
                    raise _Unusual
                child = (*path, key)
            elif container is None:
                child = ()
                lines.setdefault((), line)
            else:
                child = (*path, len(container))
                lines[child] = line
            if len(stack) >= max_depth:
                raise _Unusual
            stack.append((container, path, key))
            container, path, key = ({} if kind is mapping_start else []), child, None
        elif kind in collection_end:
            value = container
            container, path, key = stack.pop()
            if type(container) is dict:
                container[key] = value
                key = None
            elif container is None:
                root = value
            else:
                container.append(value)
        elif kind is alias_event:
            raise _Unusual
        elif kind is document_start:
            documents += 1
            if documents > 1:
                raise _Unusual
        elif kind is stream_end:
            break
    if documents != 1:
        raise _Unusual
    return root, lines, spellings


def _child(container: Any, path: KeyPath, key: Any) -> KeyPath:
    """The path of the value that comes next in ``container`` (None: the root)."""
    if container is None:
        return ()
    return (*path, key) if type(container) is dict else (*path, len(container))
