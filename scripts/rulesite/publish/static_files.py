"""A publisher's own files (``static/``): copied into the root of every site a build writes.

A host may need files no build makes: a ``CNAME``, a search engine's verification file, a
``robots.txt``. A build refuses to replace a site folder holding files it did not write, so such
files live in the project's ``static/`` folder instead and come with every build, listed in the
site's marker like every other file. They are checked before the build: regular files and
folders only (a link could publish something from outside the project), and never a file the
build writes itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rulesite.errors import UsageError
from rulesite.project import Project
from rulesite.publish.marker import MARKER, plain_files
from rulesite.terminal import printable

_RESERVED = ".rulesite-"
"""Names of rulesite's own files and scratch folders."""


def static_files(project: Project) -> list[str]:
    """The files of ``static/`` (relative paths), checked; none when there is no such folder."""
    folder = project.static_dir
    if folder.is_symlink():
        raise UsageError("static: is a symbolic link; put the files themselves in static/")
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise UsageError("static: is a file; it must be a folder of files to publish")
    files = plain_files(folder, "static", "put the file itself in static/")
    odd = [name for name in files if any(ord(char) < 0x20 or ord(char) == 0x7F for char in name)]
    if odd:  # the marker lists one file a line: a name is one line of printable text
        raise UsageError(f"static/{printable(odd[0])}: a file name may not hold control characters")
    reserved = [name for name in files if Path(name).name.startswith(_RESERVED)]
    if reserved:
        raise UsageError(
            f"static/{printable(reserved[0])}: names starting with {_RESERVED} are rulesite's own"
        )
    return files


def copy_static_files(project: Project, files: list[str], site: Path) -> None:
    """Copy ``files`` of ``static/`` into the finished ``site``; never over a built file."""
    clashes = [name for name in files if (site / name).exists() or name == MARKER]
    if clashes:
        raise UsageError(
            f"static/{printable(clashes[0])}: the build writes a file of that name; "
            "rename or remove it"
        )
    for name in files:
        target = site / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(project.static_dir / name, target, follow_symlinks=False)
