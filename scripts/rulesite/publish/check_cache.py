"""The checked games a build keeps in ``.cache/rulesite-build/checked/``: the next build reads
a game file whose bytes and checks' inputs are unchanged back from here instead of parsing and
checking it.

At 300 games, loading with every game file parsed and checked took 5.5 CPU s (on two cores),
a third of a build after one edit; with them read back from here, 0.9 CPU s, the checks across
files included (slugs, calculator ids, pictures, warnings: they still run on the whole catalog
every time).

One file per game, named by a digest of its key: what the game's check reads (its file's name
and bytes, ``data/site.yaml``, the date: ``catalog.load_catalog``) and what made the result
(this rulesite's version and code, the engines' and Python's versions, the project). The file is
a header line (the format, the key itself, the payload's SHA-256) and the checked game pickled.
Pickle rebuilds the records as they were, several times faster than checking again or
validating them from JSON (measured at 300 games: 0.36 s against 2 s for JSON and pydantic);
it can run code, so a file is unpickled only after its header names this very key and its
payload's digest holds, and only from the project's own ``.cache/`` (made private to the user:
a file or folder another user owns or may write is not read). A file under a key's name that is
not that (damaged, truncated, not private) is ignored with one line naming it, and the game is
checked again; a file of another version, project or day has another name, so it is never read.

Each file is written new and renamed into place, so a killed build leaves whole files or none;
a torn one fails its digest. Files this build did not use are removed once all are loaded.
``rulesite build --clean`` reads none and writes every one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import stat
from pathlib import Path

from rulesite.catalog import CheckedGame
from rulesite.project import Project
from rulesite.publish.build_cache import CACHE_DIR, CHECKED, Note, code_version, engines
from rulesite.terminal import printable

CHECK_DIR = f"{CACHE_DIR}/{CHECKED}"
"""The store, under the project's root: inside the build cache's folder (``/.cache/`` is
git-ignored), apart from what its manifest lists."""
MAGIC = b"rulesite-checked 1\n"
"""A store file's first line: its format."""
SUFFIX = ".checked"


class CheckCache:
    """``catalog.CheckStore`` on disk, for one build; ``clean``: nothing is read (``--clean``),
    only written."""

    def __init__(self, project: Project, note: Note, clean: bool = False) -> None:
        self.project = project
        self.root = project.root / CHECK_DIR
        self.note = note
        self.clean = clean
        made = {
            "rulesite": code_version(),
            "engines": engines(),
            "project": str(project.root.resolve()),
        }
        self.made = json.dumps(made, sort_keys=True, separators=(",", ":"))
        self.used: set[str] = set()
        self.hits = 0
        """Games read back (for reports and tests)."""
        self.usable = self._private()

    def _private(self) -> bool:
        """Whether the folder is ours alone (made so when new)."""
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            status = self.root.lstat()
        except OSError:
            return False
        if not _owned(status) or not stat.S_ISDIR(status.st_mode):
            self.note(f"note: checked-games cache ignored (not private: {self._shown(self.root)})")
            return False
        return True

    def _key(self, name: str, key: str) -> str:
        return f"{self.made}\n{name}\n{key}"

    def _path(self, full_key: str) -> Path:
        return self.root / f"{hashlib.sha256(full_key.encode()).hexdigest()[:40]}{SUFFIX}"

    def load(self, name: str, key: str) -> CheckedGame | None:
        if not self.usable:
            return None
        full = self._key(name, key)
        path = self._path(full)
        self.used.add(path.name)
        if self.clean:
            return None
        try:
            with path.open("rb") as file:
                status = os.fstat(file.fileno())
                raw = file.read()
        except FileNotFoundError:
            return None
        except OSError:
            return self._ignored(path)
        if not _owned(status) or not stat.S_ISREG(status.st_mode):
            return self._ignored(path, "not private")
        checked = _unpickled(raw, full)
        if not isinstance(checked, CheckedGame):
            return self._ignored(path)
        self.hits += 1
        return checked

    def keep(self, name: str, key: str, pickled: bytes) -> None:
        if not self.usable:
            return
        full = self._key(name, key)
        path = self._path(full)
        self.used.add(path.name)
        header = json.dumps(
            {"key": full, "sha256": hashlib.sha256(pickled).hexdigest()}, ensure_ascii=True
        )
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(MAGIC + header.encode("ascii") + b"\n")
                file.write(pickled)
            temporary.replace(path)
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink()
            self.note(f"note: checked game not kept ({printable(str(error))})")
            self.usable = False

    def done(self) -> None:
        """Remove the files this build did not use (and any stray temporary file)."""
        if not self.usable:
            return
        with contextlib.suppress(OSError), os.scandir(self.root) as entries:
            stale = [entry.path for entry in entries if entry.name not in self.used]
        for path in stale:
            with contextlib.suppress(OSError):
                os.unlink(path)

    def _ignored(self, path: Path, why: str = "damaged") -> None:
        self.note(f"note: checked game ignored ({why}: {self._shown(path)}); checking it again")
        return None

    def _shown(self, path: Path) -> str:
        return printable(self.project.display(path))


def _owned(status: os.stat_result) -> bool:
    """Ours, and writable by no one else."""
    mine = not hasattr(os, "getuid") or status.st_uid == os.getuid()
    return mine and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _unpickled(raw: bytes, full_key: str) -> object:
    """The payload of a store file's ``raw`` bytes, when its header names ``full_key`` and its
    digest holds (checked before anything is unpickled); else None."""
    if not raw.startswith(MAGIC):
        return None
    end = raw.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    try:
        header = json.loads(raw[len(MAGIC) : end])
        key, digest = header["key"], header["sha256"]
    except (ValueError, TypeError, KeyError):
        return None
    payload = memoryview(raw)[end + 1 :]
    if key != full_key or digest != hashlib.sha256(payload).hexdigest():
        return None
    try:
        return pickle.loads(payload)
    except Exception:  # a payload that passed its digest but does not unpickle: check again
        return None
