"""Files the preview watches and copies: snapshots of a folder, copies in one rename, and the
scratch folder the preview builds in."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Collection, Iterator
from pathlib import Path

from rulesite.engine.search_pieces import PIECES

REMOVE_TRIES = 20
"""How often the scratch folder's removal is tried before it is left with a note."""
REMOVE_PAUSE = 0.1
"""Seconds between two tries."""


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A new temporary folder, removed when the block ends, whatever happened in it.

    The preview stops without waiting for a rebuild it is in the middle of (Ctrl-C answers at
    once), so the rebuild's thread and processes may still be writing into the folder while it
    goes: one ``rmtree`` can then meet a folder that filled again ("Directory not empty"), which
    ``tempfile.TemporaryDirectory`` would raise over the interruption. Removal is tried again
    until the writers have given up; a folder still there after that is named on standard error.
    """
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        for _ in range(REMOVE_TRIES):
            shutil.rmtree(folder, ignore_errors=True)
            if not folder.exists():
                break
            time.sleep(REMOVE_PAUSE)
        else:
            print(
                f"rulesite: could not remove the preview's scratch folder {folder}", file=sys.stderr
            )


Snapshot = dict[str, tuple[int, int, int]]
"""Modification time (ns), size and inode of every file under a folder, by relative path."""


def snapshot(folder: Path, skip: Collection[str] = ()) -> Snapshot:
    """The state of every file under ``folder``, leaving out the top-level folders ``skip``.

    Files may vanish while it runs: whatever vanishes is simply left out.
    """
    state: Snapshot = {}
    top = os.fspath(folder)
    for parent, dirs, files in os.walk(top):  # os.walk skips folders it cannot list
        if parent == top:
            dirs[:] = [name for name in dirs if name not in skip]
        prefix = os.path.relpath(parent, top).replace(os.sep, "/") + "/"
        prefix = "" if prefix == "./" else prefix
        for name in files:
            try:
                stat = os.stat(os.path.join(parent, name))
            except OSError:  # deleted (or made unreadable) since it was listed
                continue
            state[prefix + name] = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    return state


def copy_file(source: Path, target: Path) -> None:
    """Replace ``target`` by a copy of ``source`` in one rename: a reader sees one or the other."""
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_name(f".{target.name}.rulesite-copy")
    shutil.copyfile(source, scratch)
    os.replace(scratch, target)


def write_atomically(target: Path, data: bytes) -> None:
    scratch = target.with_name(f".{target.name}.rulesite-copy")
    scratch.write_bytes(data)
    os.replace(scratch, target)


def remove_file(path: Path, top: Path) -> None:
    """Delete a file, then the folders it leaves empty, up to ``top``."""
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != top and folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:  # not empty, or gone already
            return
        folder = folder.parent


def publish_build(
    source: Path, target: Path, whole: bool, before: Snapshot, others: list[str]
) -> None:
    """Copy what a language's build wrote into ``source`` to ``target``, where the language
    lives in the served site (``others``: the other languages' folders in it, left alone);
    ``before``: ``source`` before a dirty build."""
    after = snapshot(source)
    after.pop(PIECES, None)  # the plugin's own, for the next dirty build
    if whole:
        for relative in snapshot(target, skip=[o for o in others if o]).keys() - after.keys():
            remove_file(target / relative, target)
        for relative in after:
            copy_file(source / relative, target / relative)
        return
    for relative, state in after.items():
        if before.get(relative) != state:
            copy_file(source / relative, target / relative)
    # What the build no longer writes (a search chunk or a game's shard that is gone) goes
    # too: the plugin rewrites its folders whole, MkDocs only adds.
    for relative in before.keys() - after.keys() - {PIECES}:
        remove_file(target / relative, target)
