"""Partial records: what of a file that failed its field checks is still sound (cross checks).

A game whose one date is wrong still has rule sections, rulings and mechanics worth checking:
an editor should see every problem in one run, not a date first and the unknown mechanic after
fixing it. :func:`partial_record` builds the record from the parts pydantic accepted and leaves
out the parts it refused, without validating the whole again:

- a record with a refused field is built with ``model_construct`` from its sound fields (a
  field left out has its default, or no attribute at all);
- a record that broke a rule across its fields (a range whose minimum is above its maximum)
  is left out, its fields being each sound but not together;
- a list of records keeps every element, so key paths and indexes stay those of the file (a
  refused element is itself partial);
- anything else that was refused (a text, a date, a union of line kinds) is left out.

Cross checks then run on it through :func:`guarded`: a check that reaches for a part that was
left out is skipped, since its field check already said what is wrong there (no follow-on
noise).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, TypeVar, Union

from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError

from rulesite.errors import KeyPath, Problem

ModelT = TypeVar("ModelT", bound=BaseModel)


def partial_record(
    model: type[ModelT],
    data: Any,
    refused: Iterable[KeyPath],
    context: dict[str, Any] | None = None,
) -> ModelT | None:
    """``data`` as a ``model`` with every refused key path (pydantic's error locations) left
    out; None when ``data`` is not even a mapping."""
    bad = [loc for loc in refused if loc != ()]  # a rule of the whole file: check the rest
    return _partial(model, data, bad, context)


def guarded(check: Callable[[], Iterable[Problem]], partial: bool) -> list[Problem]:
    """Run one cross check; on a partial record, one that meets a missing part is skipped."""
    if not partial:
        return list(check())
    try:
        return list(check())
    except (AttributeError, TypeError, KeyError, IndexError, ValueError, RuntimeError):
        # Reached a part the field checks refused (and reported): nothing more to say there.
        return []


def _partial(model: type[ModelT], data: Any, bad: list[KeyPath], context: Any) -> ModelT | None:
    if not isinstance(data, dict) or () in bad:
        return None  # not a mapping, or a rule across its fields failed (min above max)
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key not in data:
            continue  # its default, or no attribute (the field check said it is missing)
        below = [loc[1:] for loc in bad if loc and loc[0] == key]
        value = _field(model, name, data[key], below, context)
        if value is not _LEFT_OUT:
            fields[name] = value
    return model.model_construct(**fields)


_LEFT_OUT = object()


def _field(model: type[BaseModel], name: str, value: Any, bad: list[KeyPath], context: Any) -> Any:
    """One field's value: validated alone when nothing under it was refused, else rebuilt."""
    if not bad:
        try:
            return _adapter(model, name).validate_python(value, context=context)
        except ValidationError:  # refused only with its siblings (a record-level rule)
            return _LEFT_OUT
    annotation = _unwrap_optional(model.model_fields[name].annotation)
    if _is_model(annotation):
        record = _partial(annotation, value, bad, context)
        return _LEFT_OUT if record is None else record
    item = _list_item(annotation)
    if item is not None and isinstance(value, list) and not any(loc == () for loc in bad):
        return [_element(item, index, element, bad, context) for index, element in enumerate(value)]
    return _LEFT_OUT


def _element(item: type[BaseModel], index: int, value: Any, bad: list[KeyPath], ctx: Any) -> Any:
    below = [loc[1:] for loc in bad if loc and loc[0] == index]
    if below:
        record = _partial(item, value, below, ctx)
        return record if record is not None else item.model_construct()
    try:
        return _item_adapter(item).validate_python(value, context=ctx)
    except ValidationError:
        return item.model_construct()


@cache
def _adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    info = model.model_fields[name]
    annotation = info.annotation
    if info.metadata:
        annotation = typing.Annotated[(annotation, *info.metadata)]  # type: ignore[valid-type]
    return TypeAdapter(annotation)


@cache
def _item_adapter(item: type[BaseModel]) -> TypeAdapter[Any]:
    return TypeAdapter(item)


def _unwrap_optional(annotation: Any) -> Any:
    """``X | None`` → ``X``; anything else as it is."""
    if typing.get_origin(annotation) in (Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _is_model(annotation: Any) -> bool:
    """A record with fields of its own (a text, a root model, is one value)."""
    return (
        isinstance(annotation, type)
        and issubclass(annotation, BaseModel)
        and not issubclass(annotation, RootModel)
    )


def _list_item(annotation: Any) -> type[BaseModel] | None:
    """The record type of ``list[Record]``, else None."""
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation) or (None,)
        if _is_model(item):
            return item
    return None
