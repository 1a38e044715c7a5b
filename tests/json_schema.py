"""A small JSON Schema validator: the keywords the compiled calculator model's schema uses.

``tests/js/json-schema.js`` is the same for Node, so both test runners check the models they
run against the compiled model's schema (``rulesite.scoring.schema.model_schema()``, which the
vectors carry). (No third-party validator: nothing to install, and a keyword the schema starts
using without support here fails loudly.)
"""

from __future__ import annotations

import re
from typing import Any

SUPPORTED = {
    "$schema", "$id", "$ref", "$defs", "title", "description", "type", "properties", "required",
    "additionalProperties", "items", "prefixItems", "minItems", "maxItems", "enum", "const",
    "oneOf", "pattern", "minimum", "maximum", "maxLength",
}  # fmt: skip

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(
    value: Any, schema: Any, root: dict[str, Any] | None = None, path: str = "$"
) -> list[str]:
    """Every way ``value`` breaks ``schema`` (``[]`` when it fits), each with its JSON path."""
    return _errors(value, schema, root if root is not None else schema, path, first=False)


def fits(value: Any, schema: Any, root: dict[str, Any]) -> bool:
    """Whether ``value`` fits: stops at the first problem (``oneOf`` asks this of each choice;
    finding every problem of every choice of every nested formula would take exponential time)."""
    return not _errors(value, schema, root, "$", first=True)


def _errors(value: Any, schema: Any, root: Any, path: str, first: bool) -> list[str]:
    if schema is False:
        return [f"{path}: not allowed here"]
    if schema is True:
        return []
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise ValueError(f"schema keyword(s) not supported by this checker: {sorted(unknown)}")
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _errors(value, target, root, path, first)
    found: list[str] = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return [f"{path}: expected {' or '.join(types)}"]
    if "const" in schema and not _same(value, schema["const"]):
        found.append(f"{path}: expected {schema['const']!r}")
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        found.append(f"{path}: expected one of {schema['enum']}")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{path}: does not match {schema['pattern']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            found.append(f"{path}: longer than {schema['maxLength']}")
    if _TYPES["integer"](value):
        if "minimum" in schema and value < schema["minimum"]:
            found.append(f"{path}: below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            found.append(f"{path}: above {schema['maximum']}")
    if found and first:
        return found
    if isinstance(value, dict):
        found += _object_errors(value, schema, root, path, first)
    if isinstance(value, list):
        found += _array_errors(value, schema, root, path, first)
    if "oneOf" in schema and not (found and first):
        count = sum(fits(value, option, root) for option in schema["oneOf"])
        if count != 1:
            found.append(f"{path}: fits {count} of the oneOf choices, not exactly 1")
    return found


def _object_errors(
    value: dict[str, Any], schema: dict[str, Any], root: Any, path: str, first: bool
) -> list[str]:
    found = [f"{path}: missing {key!r}" for key in schema.get("required", []) if key not in value]
    properties = schema.get("properties", {})
    # Plain keys (a kind, an operator) before nested ones: a wrong choice fails fast.
    for key in sorted(value, key=lambda k: not {"const", "enum"} & set(properties.get(k, {}))):
        if found and first:
            break
        if key in properties:
            found += _errors(value[key], properties[key], root, f"{path}.{key}", first)
        elif schema.get("additionalProperties", True) is False:
            found.append(f"{path}: unexpected key {key!r}")
    return found


def _array_errors(
    value: list[Any], schema: dict[str, Any], root: Any, path: str, first: bool
) -> list[str]:
    found = []
    if len(value) < schema.get("minItems", 0):
        found.append(f"{path}: fewer than {schema['minItems']} items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        found.append(f"{path}: more than {schema['maxItems']} items")
    prefix = schema.get("prefixItems", [])
    for index, item in enumerate(value):
        if found and first:
            break
        item_schema = prefix[index] if index < len(prefix) else schema.get("items", True)
        found += _errors(item, item_schema, root, f"{path}[{index}]", first)
    return found


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
