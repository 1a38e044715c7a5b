"""The site marker: what a build says about the site folder it wrote, checked before it is trusted.

Every site a build (or ``assemble``) publishes holds ``.rulesite-site``, a regular file naming
which languages the folder holds, what they were built from (a digest of the generated MkDocs
projects, so of the data, templates, configuration and settings) and every file the build wrote.
The next build replaces the folder only when the marker is such a file and the folder holds
nothing else: a file someone added (a ``CNAME``, a verification file) is named, never deleted.
``assemble`` reads the same facts to refuse parts that are not what they are given as.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from rulesite.errors import UsageError
from rulesite.terminal import printable

MARKER = ".rulesite-site"
"""File in every published site folder: proof that a build wrote it, so the next may replace it."""
HEADER = "Written by `rulesite build`; the next build replaces this whole folder."
"""The marker's first line (the whole marker of earlier versions)."""
FORMAT = "rulesite-site: 1"
"""The marker's second line: the version of what follows."""
MAX_MARKER_BYTES = 64 * 1024 * 1024
"""A larger marker is not one a build wrote (a million files would be about 40 MB)."""
_ENGINES = ("rulesite", "mkdocs", "mkdocs-material")
"""Packages whose versions are part of what a site is built from."""


class MarkerError(Exception):
    """Why a folder's marker cannot be trusted; completes ``<folder>: ...``."""


@dataclass(frozen=True)
class SiteMarker:
    """What a build wrote into a site folder."""

    languages: tuple[str, ...]
    """The language codes the folder holds: one (``build --language``) or every one."""
    source: str
    """Digest of what the site was built from (the generated projects and the engines)."""
    files: frozenset[str]
    """Every file the build wrote, as a path relative to the folder (the marker excepted)."""

    def text(self) -> str:
        """The marker file's content."""
        lines = [
            HEADER,
            FORMAT,
            f"languages: {' '.join(self.languages)}",
            f"source: {self.source}",
            "files:",
            *sorted(self.files),
        ]
        return "\n".join(lines) + "\n"


def write_marker(
    site: Path,
    languages: tuple[str, ...],
    source: str,
    listed: tuple[list[str], list[str]] | None = None,
) -> SiteMarker:
    """Write the marker of the finished site in ``site``: its languages, source and files.
    ``listed``: its files and strays as ``site_files`` gives them, known to the build that
    put them there (else ``site`` is walked)."""
    files, strays = listed if listed is not None else site_files(site)
    if strays:  # a build writes regular files only; one that did not is a bug, not the data
        raise RuntimeError(f"the built site holds a link or special file: {strays[0]}")
    marker = SiteMarker(languages, source, frozenset(files) - {MARKER})
    (site / MARKER).write_text(marker.text(), encoding="utf-8", newline="\n")
    return marker


def read_marker(folder: Path) -> SiteMarker:
    """The marker of ``folder``; :class:`MarkerError` unless a build wrote it."""
    path = folder / MARKER
    try:
        status = path.lstat()
    except FileNotFoundError:
        raise MarkerError(f"has no {MARKER} file") from None
    except OSError as error:
        raise MarkerError(f"its {MARKER} cannot be read ({error.strerror})") from None
    if stat.S_ISLNK(status.st_mode):
        raise MarkerError(f"its {MARKER} is a symbolic link, not the file a build writes")
    if not stat.S_ISREG(status.st_mode):
        raise MarkerError(f"its {MARKER} is not a regular file")
    if status.st_size > MAX_MARKER_BYTES:
        raise MarkerError(f"its {MARKER} is too large to be one a build wrote")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as file:
            text = file.read(MAX_MARKER_BYTES + 1).decode("utf-8")
    except OSError as error:
        raise MarkerError(f"its {MARKER} cannot be read ({error.strerror})") from None
    except UnicodeDecodeError:
        raise MarkerError(f"its {MARKER} is not one a build wrote (not UTF-8 text)") from None
    return _parse(text)


def _parse(text: str) -> SiteMarker:
    lines = text.split("\n")
    if text == HEADER + "\n":
        raise MarkerError(
            f"its {MARKER} comes from an older rulesite that did not list the files it wrote; "
            "check that nothing of yours is in the folder, then remove it yourself"
        )
    wanted = [HEADER, FORMAT, "languages: ", "source: ", "files:"]
    if (
        len(lines) < 6
        or lines[-1] != ""
        or lines[:2] != wanted[:2]
        or not all(
            line.startswith(start) for line, start in zip(lines[2:5], wanted[2:], strict=True)
        )
        or lines[4] != "files:"
    ):
        raise MarkerError(f"its {MARKER} is not one a build wrote (its content is not a marker)")
    languages = tuple(lines[2].removeprefix("languages: ").split(" "))
    source = lines[3].removeprefix("source: ")
    files = lines[5:-1]
    if not all(languages) or len(source) != 64 or files != sorted(set(files)):
        raise MarkerError(f"its {MARKER} is not one a build wrote (its content is not a marker)")
    return SiteMarker(languages, source, frozenset(files))


def site_files(folder: Path) -> tuple[list[str], list[str]]:
    """``(files, strays)`` under ``folder``, as relative paths, sorted, links never followed.

    ``files`` are the regular files; ``strays`` what a build never writes: symbolic links (to
    files or folders) and special files. Empty folders are neither.
    """
    files: list[str] = []
    strays: list[str] = []
    _walk(os.fspath(folder), "", files, strays)
    return sorted(files), sorted(strays)


def _walk(folder: str, relative: str, files: list[str], strays: list[str]) -> None:
    """``site_files`` under ``folder`` (``relative`` to the top, "" or ending in "/"): each
    entry's kind from the folder's listing, a ``stat`` only where the system does not say (a
    site at 1,000 games holds some 37,000 files: with ``os.walk`` and an ``lstat`` of each, this
    was a third of a second of every build). A folder that cannot be listed holds nothing, as
    ``os.walk`` has it."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return
    for entry in entries:
        name = relative + entry.name
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, name + "/", files, strays)
        elif entry.is_file(follow_symlinks=False):
            files.append(name)
        else:  # a link (to a file or a folder) or a special file
            strays.append(name)


def plain_files(folder: Path, shown: str, refusal: str) -> list[str]:
    """The regular files under ``folder`` (``site_files``); a :class:`UsageError` naming
    ``shown`` when it cannot be read or holds a link or special file (``refusal`` says why that
    is refused there)."""
    try:
        files, strays = site_files(folder)
    except OSError as error:
        raise UsageError(f"{shown}: cannot be read ({error.strerror})") from None
    if strays:
        raise UsageError(
            f"{shown}/{printable(strays[0])}: is a symbolic link or special file; {refusal}"
        )
    return files


def unknown_files(folder: Path, marker: SiteMarker) -> list[str]:
    """What ``folder`` holds that its build did not write (links and special files included)."""
    files, strays = site_files(folder)
    return sorted({*files, *strays} - marker.files - {MARKER})


def source_digest(content: Path) -> str:
    """What a site is built from: the generated projects under ``content`` and the engines."""
    return source_digest_of(file_digests(content))


def file_digests(folder: Path) -> dict[str, bytes]:
    """The SHA-256 of every regular file under ``folder``, by relative path."""
    files, _ = site_files(folder)
    found = {}
    for relative in files:
        with (folder / relative).open("rb") as file:
            found[relative] = hashlib.file_digest(file, "sha256").digest()
    return found


def source_digest_of(digests: dict[str, bytes]) -> str:
    """``source_digest`` of a folder whose files have ``digests`` (relative path → SHA-256):
    a build that knows them (``publish/build_cache.py``) need not read the files again."""
    digest = hashlib.sha256()
    for package in _ENGINES:
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = "?"
        digest.update(f"{package}=={version}\n".encode())
    for relative in sorted(digests):
        digest.update(relative.encode("utf-8") + b"\0")
        digest.update(digests[relative])
    return digest.hexdigest()
