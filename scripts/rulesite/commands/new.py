"""`rulesite new SLUG`: a game file with every required field stubbed, in every site language.

The stubs are written from the data model itself (``model.Game``), so a field that becomes
required is stubbed without a change here. Every stub is a text that starts with
:data:`STUB_MARKER`; validation reports each one where it stands (:func:`find_stubs`), so a game
cannot be published until every stub is replaced.
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import re
import types
import typing
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from rulesite.catalog import load_site
from rulesite.check.fields import RESERVED_PAGE_NAMES
from rulesite.check.stubs import STUB_MARKER
from rulesite.errors import UsageError
from rulesite.model import Game, Text
from rulesite.project import Project
from rulesite.terminal import printable

SCHEMA_LINE = "# yaml-language-server: $schema=../schema/game.schema.json"
"""First line of every game file: editors complete and check it against the schema."""

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MAX_SLUG = 64


# --- Writing a new game --------------------------------------------------------------------------


def new_game(project: Project, slug: str) -> Path:
    """Write ``data/games/<slug>.yaml`` with every required field stubbed; its path.

    Raises UsageError for an invalid slug or a file that exists (never overwritten), and
    DataError when ``data/site.yaml`` (which names the languages) is invalid.
    """
    if not _SLUG.fullmatch(slug) or len(slug) > _MAX_SLUG:
        raise UsageError(
            f"{printable(slug)!r} is not a valid slug: use lowercase letters, digits and single "
            f"hyphens (at most {_MAX_SLUG} characters), e.g. clans-of-caledonia"
        )
    if slug in RESERVED_PAGE_NAMES:
        reserved = ", ".join(sorted(RESERVED_PAGE_NAMES))
        raise UsageError(
            f"{slug!r} is kept for the site's own pages (reserved: {reserved}): choose another slug"
        )
    path = project.games_dir / f"{slug}.yaml"
    shown = project.display(path)
    # Where data/ or data/games/ is a symlink out of the project, the game would be written
    # outside it (and validation, which reads data only inside the project, would refuse it).
    folder = project.games_dir.resolve()
    if not folder.is_relative_to(project.root.resolve()):
        raise UsageError(
            f"{project.games_dir.relative_to(project.root).as_posix()} links to "
            f"{printable(str(folder))}, outside the project; rulesite new writes only inside it"
        )
    if path.exists() or path.is_symlink():
        raise UsageError(f"{shown} already exists; rulesite new never overwrites a file")
    text = game_stub_text(slug, site_languages(project))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("x", encoding="utf-8", newline="\n") as file:  # "x": never overwrite
            file.write(text)
    except FileExistsError:
        raise UsageError(f"{shown} already exists; rulesite new never overwrites a file") from None
    return path


def site_languages(project: Project) -> tuple[str, ...]:
    """The language codes ``data/site.yaml`` declares, the root language first.

    Checked as ``rulesite validate`` checks the site file, so a wrong language list (a
    duplicated code) is named rather than written into a stub.
    """
    return load_site(project).codes


def game_stub_text(slug: str, languages: tuple[str, ...]) -> str:
    """The YAML text of a new game: the schema line, a note, and every required field."""
    data = _stub_record(Game, languages)
    data["slug"] = slug
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    note = (
        "# Written by `rulesite new`. Replace every TODO text: `rulesite validate` lists those\n"
        "# left, and the game is not published until none is. README: Adding a game.\n"
    )
    return f"{SCHEMA_LINE}\n{note}{body}"


def _stub_record(model: type[BaseModel], languages: tuple[str, ...]) -> dict[str, Any]:
    return {
        name: _stub(field.annotation, field, languages, f"{model.__name__}.{name}")
        for name, field in model.model_fields.items()
        if field.is_required()
    }


def _stub(
    annotation: Any, field: FieldInfo | None, languages: tuple[str, ...], key: str = ""
) -> Any:
    """A stub value of ``annotation``: a text starting with STUB_MARKER wherever a value goes;
    a text's stub says what belongs there in its own language where ``stub_hints.yaml`` can."""
    annotation = _unwrap(annotation)
    hint = _hint(field)
    if isinstance(annotation, type) and issubclass(annotation, Text):
        hints = stub_hints().get(key, {})
        return {code: f"{STUB_MARKER} {hints.get(code, hint)}" for code in languages}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _stub_record(annotation, languages)
    origin = typing.get_origin(annotation)
    if origin is list:
        (item,) = typing.get_args(annotation) or (str,)
        if field is None:
            return [_stub(item, None, languages)]
        return [_item(item, field, languages, key)]
    if origin is dict:
        return {}
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        choices = ", ".join(str(member.value) for member in annotation)
        return f"{STUB_MARKER} one of: {choices}"
    if annotation is dt.date and "YYYY-MM-DD" not in hint:
        return f"{STUB_MARKER} {hint} (YYYY-MM-DD)"
    return f"{STUB_MARKER} {hint}"


def _item(item: Any, field: FieldInfo, languages: tuple[str, ...], key: str) -> Any:
    """The first entry of a required list, described by the list's own field."""
    item = _unwrap(item)
    is_text = isinstance(item, type) and issubclass(item, Text)
    if isinstance(item, type) and issubclass(item, BaseModel) and not is_text:
        return _stub(item, None, languages)
    return _stub(item, field, languages, key)


@functools.cache
def stub_hints() -> dict[str, dict[str, str]]:
    """``stub_hints.yaml``: the stubs' hints by ``Record.field`` and language code."""
    text = resources.files("rulesite.commands").joinpath("stub_hints.yaml").read_text("utf-8")
    hints = yaml.safe_load(text) or {}
    return {
        key: {code: str(hint) for code, hint in by_code.items()} for key, by_code in hints.items()
    }


def _unwrap(annotation: Any) -> Any:
    """``Annotated[X, ...]`` → X; ``X | None`` → X."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            annotation = options[0]
        else:
            return annotation


def _hint(field: FieldInfo | None) -> str:
    """The field's docstring, its first clause, as an instruction."""
    if field is None or not field.description:
        return "fill in"
    text = " ".join(field.description.replace("``", "").split())
    return re.split(r"\. |; ", text)[0].rstrip(".")
