"""Compiled Jinja templates kept between builds, in the project's own ``.cache/jinja/``.

Every build compiles the page templates (render) and Material's templates (MkDocs) afresh in
each language's process: about half a second each before the first page. Jinja's bytecode cache
keeps the compiled code, checked against each template's source (a changed template is compiled
again) and against the Python version. Compiled code is executed, so the folder must be this
user's own and private: a folder anyone else could write is never used (no cache instead).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import TypeVar

import jinja2

E = TypeVar("E", bound=jinja2.Environment)

_root: Path | None = None
"""The cache folder ``rulesite build`` named before forking (None: no cache)."""


def use(folder: Path | None) -> None:
    """Keep compiled templates under ``folder`` (``<project>/.cache``) in this process and the
    builds it forks; None: none."""
    global _root
    _root = folder


def root() -> Path | None:
    """The cache folder :func:`use` named (None: no cache)."""
    return _root


def cache(kind: str) -> jinja2.BytecodeCache | None:
    """The bytecode cache for ``kind`` of templates (``pages``, ``theme``), or None."""
    if _root is None:
        return None
    folder = _private(_root / "jinja" / kind)
    return _ByName(str(folder)) if folder is not None else None


def pages(env: E) -> E:
    """``env``, keeping its page templates' compiled code in the cache (``cache("pages")``): a
    process that renders pages skips compiling them again."""
    env.bytecode_cache = cache("pages")
    return env


class _ByName(jinja2.FileSystemBytecodeCache):
    """Keyed by the template's name alone: a build's theme is copied into a staging folder of
    a new name every time, so keying by file name (Jinja's default) would add files forever.
    A name whose source differs (another language's copy, an edit) fails Jinja's check of the
    source's digest, is compiled again and replaces the entry."""

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha1(name.encode("utf-8")).hexdigest()


def _private(folder: Path) -> Path | None:
    """``folder``, made if missing; None unless it and its parents up to the cache are real
    folders of this user that nobody else may write (the cache's own is checked first)."""
    if not hasattr(os, "getuid"):  # no owners to check: no cache
        return None
    try:
        for path in (folder.parent.parent, folder.parent, folder):
            path.mkdir(mode=0o700, exist_ok=True)
            status = os.lstat(path)
            if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid():
                return None
            if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return None
    except OSError:
        return None
    return folder
