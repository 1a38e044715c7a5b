"""The build cache: what the last ``rulesite build`` made, so the next rebuilds only what changed.

``.cache/rulesite-build/`` (git-ignored) holds:

- ``content/``: the generated projects of the last build, as it published them to ``content/``;
- ``site/<lang>/``: each language's MkDocs site as its build wrote it, with the search pieces
  a dirty build completes its index from (``engine/search_pieces.py``);
- ``export.json``: each game's JSON export records, by its file's digest (``engine/export.py``);
- ``checked/``: each game file's checked result, read back by the next build's loading
  (``publish/check_cache.py``: each file guards itself; the manifest does not list them);
- ``manifest.json``: what made them (the format, this rulesite's version and code, the engines'
  versions, the project's path, the environment the pages read), each page's render key
  (``render/cache.py``), the digest of every file of ``content/`` and the size and time of every
  file of the cache; and a checksum of all that.

A cache is used only when its manifest is whole, its checksum holds, it was made by this code
for this project, and every file it lists is there with its size and time, and nothing else:
else it is ignored with one line on stderr and the build is clean. The manifest is deleted
before anything in the cache changes and written last (temporary file, fsync, rename), so a
build killed halfway leaves no manifest: the next one says so and builds clean. A cache can make
a build slow, never wrong.

The published site and ``content/`` share their files with the cache (hard links, copies across
file systems): nothing here ever writes into a file in place, and a file changed through
``site/`` changes its time, so the cache is then ignored.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import shutil
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import rulesite
from rulesite.engine.export import ExportCache
from rulesite.engine.search_pieces import PIECES
from rulesite.project import Project
from rulesite.publish.site_folder import discard
from rulesite.terminal import printable

CACHE_DIR = ".cache/rulesite-build"
"""The cache, under the project's root (``/.cache/`` is git-ignored)."""
MANIFEST = "manifest.json"
CONTENT = "content"
SITES = "site"
EXPORT = "export.json"
TRASH = "trash"
CHECKED = "checked"
"""The checked games (``publish/check_cache.py``): kept and checked apart from the manifest."""
FORMAT = 2
"""The manifest's format; a cache of another is ignored. 2: the checksum is of the manifest's
bytes as written (1: of its data written again with sorted keys, which took two seconds of a
build after one edit at 1,000 games, once to read and once to write)."""
ENGINES = (
    "mkdocs",
    "mkdocs-material",
    "markdown",
    "pymdown-extensions",
    "jieba",
    "pypinyin",
    "jinja2",
    "pydantic",
    "pyyaml",
    "segno",
)
"""Packages whose versions are part of what a cached file was made with."""
ENVIRONMENT = ("SOURCE_DATE_EPOCH",)
"""Environment variables the pages read besides the project (``engine/build_date.py``)."""

Note = Callable[[str], None]


class Unusable(Exception):
    """Why a cache is ignored: completes ``build cache ignored (...)``."""


@dataclass
class Manifest:
    """What a cache holds; see the module's docstring."""

    render: dict[str, str] = field(default_factory=dict)
    """Each page's render key (``render/cache.py``): ``pages:<slug>``, ``site-page:<path>``."""
    content: dict[str, str] = field(default_factory=dict)
    """SHA-256 of every file of ``content/``, by path under it."""
    files: dict[str, list[int]] = field(default_factory=dict)
    """Size and modification time (ns) of every file of the cache but the manifest."""
    languages: list[str] = field(default_factory=list)
    """The languages whose sites are under ``site/``."""
    environment: dict[str, str | None] = field(default_factory=dict)
    """``ENVIRONMENT`` as the build saw it."""


@functools.cache
def code_version() -> str:
    """This rulesite: its version and a digest of its code (a checkout changes without a
    version). Worked out once per process: it describes the code this process runs, which an
    edit of the files after it started does not change (and a process that builds many times,
    ``rulesite serve`` or a test, would read every file of the package each time)."""
    package = Path(rulesite.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return f"{_version('rulesite')}+{digest.hexdigest()[:16]}"


def engines() -> dict[str, str]:
    """The engines' versions, and Python's (looked up once per process, as ``code_version``)."""
    return dict(_engines())


@functools.cache
def _engines() -> tuple[tuple[str, str], ...]:
    found = {name: _version(name) for name in ENGINES}
    found["python"] = sys.version.split()[0]
    return tuple(found.items())


def environment() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in ENVIRONMENT}


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "?"


class BuildCache:
    """The cache of one project (``.cache/rulesite-build/``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.root = project.root / CACHE_DIR
        self.touched = False
        """Whether this build has begun to change the cache (its manifest is gone)."""
        self.exports: ExportCache = {}
        """Each game's JSON export records, kept in ``export.json`` (``engine/export.py``)."""

    @property
    def content(self) -> Path:
        return self.root / CONTENT

    def site(self, lang: str) -> Path:
        return self.root / SITES / lang

    # --- reading -----------------------------------------------------------------------------

    def open(self, clean: bool, note: Note) -> Manifest | None:
        """The last build's manifest when the cache can be trusted, else None.

        ``clean`` (``--clean``): the cache is ignored without a word. An empty cache (the first
        build) is ignored without a word too; any other is named in one ``note`` line.
        """
        if clean or not self.root.is_dir() or not any(self._held()):
            return None
        try:
            return self._checked()
        except Unusable as why:
            note(f"note: build cache ignored ({why}); building clean")
            return None

    def _held(self) -> list[Path]:
        """What the cache holds but its trash and the checked games."""
        return [path for path in self.root.iterdir() if path.name not in (TRASH, CHECKED)]

    @property
    def trash(self) -> Path:
        """Where replaced trees wait for a process of their own to remove them
        (``site_folder.discard``)."""
        return self.root / TRASH

    def trash_emptied(self) -> bool:
        """Whether the trash holds nothing: its process removed what the last build put there
        (it runs on after the build returns)."""
        return not self.trash.is_dir() or not any(self.trash.iterdir())

    def _checked(self) -> Manifest:
        path = self.root / MANIFEST
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise Unusable("incomplete: a build was interrupted") from None
        except OSError:
            raise Unusable(f"damaged: {MANIFEST}") from None
        data = _manifest_data(raw)
        if data is None:
            raise Unusable(f"damaged: {MANIFEST}")
        if data.get("format") != FORMAT or data.get("rulesite") != code_version():
            made = printable(str(data.get("rulesite")))
            raise Unusable(f"made by another rulesite: {made}")
        if data.get("engines") != engines():
            raise Unusable("made with other versions of MkDocs or its engines")
        if data.get("project") != str(self.project.root.resolve()):
            raise Unusable(f"made for another project: {printable(str(data.get('project')))}")
        try:
            manifest = Manifest(
                render=dict(data["render"]),
                content=dict(data["content"]),
                files={k: list(v) for k, v in data["files"].items()},
                languages=list(data["languages"]),
                environment=dict(data["environment"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise Unusable(f"damaged: {MANIFEST}") from None
        wrong = self._wrong_file(manifest.files)
        if wrong is not None:
            raise Unusable(f"damaged: {printable(wrong)}")
        self.exports = self._read_exports()
        return manifest

    def _read_exports(self) -> ExportCache:
        try:
            data = json.loads((self.root / EXPORT).read_bytes())
            return {
                slug: (key, row.encode("utf-8"), record.encode("utf-8"))
                for slug, (key, row, record) in data.items()
            }
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, AttributeError):
            raise Unusable(f"damaged: {EXPORT}") from None

    def write_exports(self) -> None:
        """Keep ``exports`` (a new file: never written in place)."""
        data = {
            slug: [key, row.decode("utf-8"), record.decode("utf-8")]
            for slug, (key, row, record) in sorted(self.exports.items())
        }
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        write_new(self.root / EXPORT, text.encode("utf-8"))

    def _wrong_file(self, files: dict[str, list[int]]) -> str | None:
        """The first file that is not as the manifest says (missing, changed, unknown)."""
        found = self.stats()
        if found == files:  # the usual answer, in C: the names are sorted only to name one
            return None
        for name in sorted(files.keys() | found.keys()):
            if found.get(name) != files.get(name):
                return name
        return None

    def stats(self) -> dict[str, list[int]]:
        """Size and time of every file of the cache but the manifest; a link or special file
        counts as changed (its size -1)."""
        found: dict[str, list[int]] = {}
        for top in (CONTENT, SITES, EXPORT):
            self._stat_under(top, found)
        return found

    def restat(self, before: dict[str, list[int]], changed: Iterable[str]) -> dict[str, list[int]]:
        """``stats()`` of a cache whose files were ``before``, when only the paths ``changed``
        (files or folders, relative to the cache) may differ now: those alone are read again.
        A path left out makes the next build's check fail (a clean build), never a wrong one."""
        changed = sorted(set(changed))
        under = tuple(f"{path}/" for path in changed)
        wanted = set(changed)
        found = {
            name: size_time
            for name, size_time in before.items()
            if name not in wanted and not name.startswith(under)
        }
        for path in changed:
            self._stat_under(path, found)
        return found

    def _stat_under(self, relative: str, found: dict[str, list[int]]) -> None:
        """Add the size and time of ``relative`` (a file) or of every file under it."""
        start = self.root / relative
        try:
            status = start.lstat()
        except FileNotFoundError:
            return
        if not stat.S_ISDIR(status.st_mode):
            size = status.st_size if stat.S_ISREG(status.st_mode) else -1
            found[relative] = [size, status.st_mtime_ns]
            return
        _stat_folder(str(start), relative, found)

    # --- changing ----------------------------------------------------------------------------

    def forget(self) -> None:
        """Make the cache unusable before changing it: a build killed from here on leaves no
        manifest, and the next build builds clean."""
        self.touched = True
        path = self.root / MANIFEST
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            _sync_folder(self.root)

    def empty(self) -> None:
        """Forget, then remove everything the cache holds: its trees go to the trash, which the
        build's swap empties once the new site is written (``site_folder.discard``'s ``later``)."""
        self.forget()
        held = [self.root / top for top in (CONTENT, SITES)]
        discard([folder for folder in held if folder.exists()], self.trash, later=True)
        for top in (CONTENT, SITES):
            shutil.rmtree(self.root / top, ignore_errors=True)
        (self.root / EXPORT).unlink(missing_ok=True)

    def keep_content(self, content: Path) -> None:
        """Keep a clean build's finished ``content/`` (links). A clean build calls it while
        MkDocs still builds (MkDocs never writes into ``content/``)."""
        link_tree(content, self.content)

    def keep_sites(self, sites: dict[str, Path]) -> None:
        """Keep a clean build's language sites once built (links), the search pieces only here
        (a site never publishes them), and the exports."""
        for lang, folder in sites.items():
            link_tree(folder, self.site(lang))
            (folder / PIECES).unlink(missing_ok=True)
        self.write_exports()

    def remove(self) -> None:
        """Remove the whole cache (a build failed: the next one starts without a word)."""
        self.forget()
        shutil.rmtree(self.root, ignore_errors=True)

    def keep_manifest(
        self, manifest: Manifest, note: Note, changed: Iterable[str] | None = None
    ) -> None:
        """``write``, once the site is published: a cache that cannot be written is one line
        (the build succeeded), and the next build is clean. ``changed``: the paths an
        incremental build changed (``manifest.files`` holds the last build's: ``restat``)."""
        try:
            if changed is not None:
                manifest.files = self.restat(manifest.files, changed)
            self.write(manifest, walk=changed is None)
        except OSError as error:
            note(f"note: build cache not kept ({printable(str(error))})")
            self.remove()

    def write(self, manifest: Manifest, walk: bool = True) -> None:
        """Write the manifest of what the cache now holds (last: temporary file, fsync,
        rename); ``walk``: its files' sizes and times are read anew (else ``manifest.files``
        holds them)."""
        if walk:
            manifest.files = self.stats()
        data: dict[str, Any] = {
            "format": FORMAT,
            "rulesite": code_version(),
            "engines": engines(),
            "project": str(self.project.root.resolve()),
            "environment": manifest.environment,
            "languages": manifest.languages,
            "render": manifest.render,
            "content": manifest.content,
            "files": manifest.files,
        }
        temporary = self.root / f".{MANIFEST}.tmp"
        with temporary.open("wb") as file:
            file.write(manifest_bytes(data))
            file.flush()
            os.fsync(file.fileno())
        temporary.replace(self.root / MANIFEST)
        _sync_folder(self.root)


_CHECKSUM = b',"checksum":"'
_CHECKSUM_TAIL = len(_CHECKSUM) + 64 + 2
"""The manifest ends with ``,"checksum":"<SHA-256 hex>"}``."""


def manifest_bytes(data: dict[str, Any]) -> bytes:
    """The manifest file of ``data`` (a non-empty object): its compact JSON with a last key,
    ``checksum``, the SHA-256 of that JSON without it."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    digest = hashlib.sha256(body).hexdigest()
    return body[:-1] + _CHECKSUM + digest.encode("ascii") + b'"}'


def _manifest_data(raw: bytes) -> dict[str, Any] | None:
    """``manifest_bytes``' data when its checksum holds (checked on the bytes, before they are
    parsed), else None."""
    tail = raw[-_CHECKSUM_TAIL:]
    if len(raw) <= _CHECKSUM_TAIL or not tail.startswith(_CHECKSUM) or not tail.endswith(b'"}'):
        return None
    body = raw[:-_CHECKSUM_TAIL] + b"}"
    if hashlib.sha256(body).hexdigest().encode("ascii") != tail[len(_CHECKSUM) : -2]:
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


_NO_LINK = {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.EOPNOTSUPP, errno.ENOTSUP}
"""Why a hard link may fail where a copy works (another file system, one without links)."""


def link_tree(source: Path, target: Path, skip: frozenset[str] = frozenset()) -> list[Linked]:
    """Give ``target`` every file of ``source`` (relative paths in ``skip`` left out): hard
    links, copies where the file system has none. Never follows a link: a link (to a file or a
    folder) or special file is linked as itself. What was linked, as ``Linked`` entries."""
    linked: list[Linked] = []
    target.mkdir(parents=True, exist_ok=True)
    _link_folder(os.fspath(source), os.fspath(target), "", skip, linked)
    return linked


Linked = tuple[str, bool]
"""A path ``link_tree`` linked (relative, ``/``-separated) and whether it is a regular file."""


def _link_folder(
    source: str, target: str, base: str, skip: frozenset[str], linked: list[Linked]
) -> None:
    with os.scandir(source) as entries:
        for entry in entries:
            relative = f"{base}{entry.name}"
            if relative in skip:
                continue
            destination = os.path.join(target, entry.name)
            if entry.is_dir(follow_symlinks=False):
                os.makedirs(destination, exist_ok=True)
                _link_folder(entry.path, destination, f"{relative}/", skip, linked)
                continue
            link_file(Path(entry.path), Path(destination))
            linked.append((relative, entry.is_file(follow_symlinks=False)))


def link_file(source: Path, target: Path) -> None:
    """``target`` as a hard link to ``source``, or a copy."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError as error:
        if error.errno not in _NO_LINK:
            raise
        shutil.copy2(source, target, follow_symlinks=False)


def write_new(path: Path, data: bytes) -> None:
    """Write ``path`` as a new file (never into the old one, which ``content/`` may share)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.rulesite-tmp")
    temporary.write_bytes(data)
    temporary.replace(path)


def _stat_folder(folder: str, relative: str, found: dict[str, list[int]]) -> None:
    """``BuildCache._stat_under`` for every file under ``folder`` (``relative`` to the cache),
    one ``lstat`` each, links (to folders too) as files that changed. A folder that went
    meanwhile has no files. At 1,000 games the cache holds some 48,000 files: read with
    ``os.scandir`` this takes 0.34 s, against 0.52-0.56 s with ``os.walk`` and a ``stat`` of
    every path."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        name = f"{relative}/{entry.name}"
        if entry.is_dir(follow_symlinks=False):
            _stat_folder(entry.path, name, found)
            continue
        status = entry.stat(follow_symlinks=False)
        size = status.st_size if stat.S_ISREG(status.st_mode) else -1
        found[name] = [size, status.st_mtime_ns]
