"""Stage 5: put freshly built trees in place of the old ones, all or nothing, and only where safe.

A build stages the new ``content/`` in a scratch folder of the project and the new site in a folder
beside its target, on the same file system: a full disk fails the build, never the live site.
Four renames then swap both trees into place. The scratch folder is also a journal: it names the
site folder and says when the staged trees are complete, so the next build finishes a swap that a
kill interrupted, and removes leftovers. Nothing here knows how the trees were produced, and only
folders with names made here are ever removed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesite.errors import BuildError, UsageError
from rulesite.project import Project
from rulesite.publish.marker import MARKER, MarkerError, read_marker, unknown_files
from rulesite.terminal import printable

SCRATCH_PREFIX = ".rulesite-build-"
_RESERVED_PREFIX = ".rulesite-"
_SITE_DIR_NOTE = "site-dir"
"""Journal entry in the scratch folder: the site folder this build publishes to."""
_SWAPPING_NOTE = "swapping"
"""Journal entry: the staged trees are complete and the swap has begun."""
_IDS_NOTE = "staged-ids"
"""Journal entry: the device and inode of each staged tree (which folder is the new one)."""

_OWN_FOLDERS = {
    "data": "holds the game data",
    "templates": "holds the page templates",
    "scripts": "holds the code",
    "tests": "holds the tests",
    "content": "every build replaces",
    "static": "holds the files copied into every site",
    ".git": "holds the history",
}
"""Project folders a site may never be written into, with what they are for (for messages)."""


def notice(message: str) -> None:
    """One line on stderr about something the build did besides building."""
    print(f"rulesite: {message}", file=sys.stderr)


def check_site_location(project: Project, target: Path) -> None:
    """Refuse a site folder that is, holds or sits inside the project's own files."""
    root = project.root.resolve()
    own_folder = next((name for name in _OWN_FOLDERS if target.is_relative_to(root / name)), None)
    if target == root:
        reason = "is the project folder; use a folder of its own, e.g. site/"
    elif root.is_relative_to(target):
        reason = "contains the project; use a folder of its own, e.g. site/"
    elif own_folder is not None:
        where = "is" if target == root / own_folder else "is inside"
        reason = (
            f"{where} {own_folder}/, which {_OWN_FOLDERS[own_folder]}; "
            "use a folder of its own, e.g. site/"
        )
    elif target.name.startswith(_RESERVED_PREFIX):
        reason = f"names starting with {_RESERVED_PREFIX} are kept for rulesite's scratch folders"
    else:
        return
    raise UsageError(f"site folder {_shown(project, target)}: {reason}")


def check_replaceable(project: Project, target: Path) -> None:
    """Refuse to replace a file, a non-empty folder no build wrote, or one holding files no
    build wrote (named, so that nothing of the user's is deleted without a word)."""
    try:
        if target.exists() and not target.is_dir():
            reason = "is a file, not a folder"
        elif target.is_dir() and any(target.iterdir()):
            reason = _not_replaceable(target)
        else:
            return
    except OSError as error:
        reason = f"cannot be read ({error.strerror})"
    if reason is not None:
        raise UsageError(f"site folder {_shown(project, target)}: {reason}")


_NAMED_AT_MOST = 5
"""Files named in a refusal; the rest are counted."""


def _not_replaceable(target: Path) -> str | None:
    # The marker must be one a build wrote (a regular file listing its files): an empty or
    # linked marker beside someone's files proves nothing.
    try:
        marker = read_marker(target)
    except MarkerError as error:
        if not (target / MARKER).exists() and not (target / MARKER).is_symlink():
            return (
                f"is not empty and was not written by rulesite build (it has no {MARKER} file); "
                "empty or remove it yourself, or choose another folder"
            )
        return f"is not empty and {error}; empty or remove it yourself, or choose another folder"
    unknown = unknown_files(target, marker)
    if not unknown:
        return None
    named = ", ".join(printable(name) for name in unknown[:_NAMED_AT_MOST])
    more = len(unknown) - _NAMED_AT_MOST
    named += f" and {more} more" if more > 0 else ""
    return (
        f"holds files no build wrote: {named}; to publish a file with every build, put it in "
        "static/ (copied into the site's root); else move it away"
    )


@contextlib.contextmanager
def lock(root: Path) -> Iterator[None]:
    """Hold the project's build lock; a second build fails with exit 2.

    The lock is on the project folder itself (``flock``), so no lock file is left behind, and the
    kernel releases it when a build dies however it dies.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX: builds running at once are not prevented
        yield
        return
    descriptor = os.open(root, os.O_RDONLY)
    _HELD_LOCKS.add(descriptor)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(
                f"another build is running in {printable(str(root))}; "
                "try again when it has finished"
            ) from None
        except OSError as error:  # e.g. a network file system without locks
            notice(
                f"cannot lock {printable(str(root))} ({error.strerror}); "
                "builds at once are not prevented"
            )
        yield
    finally:
        _HELD_LOCKS.discard(descriptor)
        os.close(descriptor)  # releases the lock


_HELD_LOCKS: set[int] = set()
"""Descriptors of the build locks this process holds."""


def _forget_locks_in_child() -> None:
    # A flock belongs to the open file, which a forked worker shares: if the worker kept its copy,
    # the lock would outlive a killed build for as long as the worker does. Closing the copy (never
    # unlocking it) leaves the lock to the build process alone.
    for descriptor in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(descriptor)
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks_in_child)


@dataclass(frozen=True)
class Swap:
    """One build's staged trees and their swap into place, recorded in its scratch folder.

    The swap is four renames: site → old site, new site → site, content → old content, new
    content → content. Each step is known from which folders exist, so :meth:`forward` and
    :meth:`backward` continue from wherever a failure or a kill stopped them.
    """

    scratch: Path
    """``.rulesite-build-<token>`` in the project: the new and old content/, and the journal."""
    content_dir: Path
    """The project's ``content/``."""
    site_dir: Path | None
    """The site folder, or None when only ``content/`` is published (``serve``)."""

    @property
    def new_content(self) -> Path:
        return self.scratch / "content"

    @property
    def old_content(self) -> Path:
        return self.scratch / "content.old"

    @property
    def new_site(self) -> Path | None:
        return self._beside_site("new")

    @property
    def old_site(self) -> Path | None:
        return self._beside_site("old")

    @property
    def swapping(self) -> bool:
        return (self.scratch / _SWAPPING_NOTE).exists()

    def _beside_site(self, kind: str) -> Path | None:
        # Beside the target, so the swap is a rename on one file system; the token ties it to
        # its journal, and the name to its target.
        if self.site_dir is None:
            return None
        token = self.scratch.name.removeprefix(SCRATCH_PREFIX)
        return self.site_dir.parent / f"{_RESERVED_PREFIX}{kind}-{token}.{self.site_dir.name}"

    def prepare(self) -> None:
        """Create the empty staging folders, after the journal entry naming them."""
        self.new_content.mkdir()
        if self.site_dir is not None:
            note = self.scratch / f"{_SITE_DIR_NOTE}.tmp"
            note.write_text(str(self.site_dir), encoding="utf-8")
            note.replace(self.scratch / _SITE_DIR_NOTE)
            self.site_dir.parent.mkdir(parents=True, exist_ok=True)
            self.new_site.mkdir()

    @classmethod
    def load(cls, scratch: Path, content_dir: Path) -> Swap:
        """The swap an earlier build recorded in ``scratch``."""
        try:
            site_dir = Path((scratch / _SITE_DIR_NOTE).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            site_dir = None  # killed before it staged anything beside a site folder
        return cls(scratch, content_dir, site_dir)

    def publish(self) -> None:
        """Swap the staged trees into place; on any failure put the previous ones back.

        The staged site already holds its marker (``publish/marker.py``).
        """
        self._record_identities()
        swapping = self.scratch / _SWAPPING_NOTE
        swapping.touch()
        try:
            self.forward()
        except BaseException:
            self.backward()  # if this fails too, the journal stays and the next build finishes
            swapping.unlink()
            raise
        swapping.unlink()

    def forward(self) -> bool:
        """Do the remaining steps of the swap; False when none remained.

        Where the system has an atomic exchange (Linux), a tree is exchanged with the live one,
        so the live path never goes missing, then the old tree is moved aside; elsewhere the
        live tree is renamed aside, then the new one into place (a kill between the two leaves
        no live tree until the next build finishes the swap).
        """
        remained = False
        for kind, new, target, old in self._steps():
            if not new.exists():
                continue
            remained = True
            # Exchanged before a kill (`new` holds the old tree), or exchanged now: move it aside.
            if not self._staged(kind, new) or (target.exists() and exchange(new, target)):
                new.rename(old)
            else:
                if target.exists():
                    target.rename(old)
                new.rename(target)
        return remained

    def backward(self) -> None:
        """Undo the steps of the swap already done, last first."""
        for kind, new, target, old in reversed(self._steps()):
            if new.exists() and not self._staged(kind, new):
                exchange(new, target)  # exchanged, not yet moved aside: exchange back
            if not new.exists():
                target.rename(new)
            if old.exists():
                old.rename(target)

    def _steps(self) -> list[tuple[str, Path, Path, Path]]:
        steps = [("site", self.new_site, self.site_dir, self.old_site)] if self.site_dir else []
        return [*steps, ("content", self.new_content, self.content_dir, self.old_content)]

    def _record_identities(self) -> None:
        # Which folder is the staged tree, by device and inode: after an exchange the staged
        # path holds the old tree, and a build finishing the swap must know which it is.
        lines = [f"{kind} {_identity(new)}" for kind, new, _, _ in self._steps()]
        note = self.scratch / f"{_IDS_NOTE}.tmp"
        note.write_text("\n".join(lines) + "\n", encoding="utf-8")
        note.replace(self.scratch / _IDS_NOTE)

    def _staged(self, kind: str, path: Path) -> bool:
        try:
            text = (self.scratch / _IDS_NOTE).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return True  # a journal of before exchanges: only renames were used
        recorded = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
        return recorded.get(kind) in (None, _identity(path))

    def leftovers(self) -> list[Path]:
        """What to remove once the swap is done or abandoned: staging, old trees, journal."""
        beside = [self.new_site, self.old_site] if self.site_dir is not None else []
        return [self.scratch, *(path for path in beside if path.exists())]

    def clear(self, trash: Path | None = None) -> bool:
        """Remove the leftovers; a folder that cannot be removed is a warning, not a failure.

        With ``trash``, the trees (staged or replaced) are moved there first and removed by a
        process of their own (``discard``). The journal goes last, and only when everything it
        names is gone, so the next build tries again.
        """
        (self.scratch / _SWAPPING_NOTE).unlink(missing_ok=True)
        scratch, *beside = self.leftovers()
        if trash is not None:
            trees = [*beside, self.new_content, self.old_content]
            discard([tree for tree in trees if tree.is_dir() and not tree.is_symlink()], trash)
        if all([_remove(path) for path in beside]):
            return _remove(scratch)
        return False


@contextlib.contextmanager
def staged(content_dir: Path, site_dir: Path | None, trash: Path | None = None) -> Iterator[Swap]:
    """Staging folders for one build; whatever happens, nothing but the swap's result remains
    (``trash``: the leftover trees are removed in the background, ``Swap.clear``)."""
    scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=content_dir.parent))
    swap = Swap(scratch, content_dir, site_dir)
    try:
        swap.prepare()
        yield swap
    finally:
        if not swap.swapping:  # still swapping only when putting things back failed too
            swap.clear(trash)


_REMOVER = (
    "import os, shutil, sys\n"
    "if hasattr(os, 'nice'):\n    os.nice(19)\n"
    "for path in sys.argv[1:]:\n    shutil.rmtree(path, True)\n"
)
"""What the process that removes discarded trees runs: at the lowest priority, so it takes no
core from the build that discarded them (it starts while a language still builds)."""


def discard(folders: list[Path], trash: Path, *, later: bool = False) -> None:
    """Move ``folders`` into ``trash`` and remove everything there in a process of its own,
    which the build does not wait for: removing a site of thousands of files takes seconds (the
    build cache's replaced trees: ``publish/build_cache.py``). A folder that cannot be moved
    there (another file system) is left where it is.

    ``later``: only move them; the next ``discard`` into ``trash`` (the build's swap, once the
    new site is written) removes them. A build that is about to write thousands of files gains
    by it: on ext4 without a journal, the system will not reuse an inode freed in the last half
    minute, and each file created scans past every such inode (a clean build at 100 games whose
    cache's old trees were removed while it wrote: about 1 CPU s more, ``rulesite build --clean``
    over ``cgcpu``)."""
    trash.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rename(Path(tempfile.mkdtemp(prefix="old-", dir=trash)) / "tree")
    gone = [str(path) for path in sorted(trash.iterdir())]
    if not gone or later:
        return
    import subprocess

    try:
        subprocess.Popen(
            [sys.executable, "-c", _REMOVER, *gone],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:  # no process to spare: the next build's removes them
        return


def recover(project: Project, site_dir: Path | None = None) -> None:
    """Finish swaps that a kill interrupted, then remove what earlier builds left behind.

    Call with the lock held, before anything else writes.
    """
    swaps = [
        Swap.load(scratch, project.content_dir)
        for scratch in sorted(project.root.glob(f"{SCRATCH_PREFIX}*"))
        if scratch.is_dir() and not scratch.is_symlink()
    ]
    for swap in swaps:
        if swap.swapping:
            _finish(project, swap)
    leftovers = [path for swap in swaps for path in swap.leftovers()]
    orphans = _orphans_beside(site_dir, set(leftovers))
    if leftovers or orphans:
        shown = ", ".join(_shown(project, path) for path in leftovers + orphans)
        notice(f"removing leftovers of earlier builds: {shown}")
    for swap in swaps:
        swap.clear()
    for path in orphans:
        _remove(path)


def _orphans_beside(site_dir: Path | None, known: set[Path]) -> list[Path]:
    # Staging beside the site folder whose journal is gone (removed by hand, or `make clean`).
    if site_dir is None or not site_dir.parent.is_dir():
        return []
    pattern = rf"{re.escape(_RESERVED_PREFIX)}(?:new|old)-\w+\.{re.escape(site_dir.name)}"
    return [
        path
        for path in sorted(site_dir.parent.iterdir())
        if re.fullmatch(pattern, path.name)
        and path.is_dir()
        and not path.is_symlink()
        and path not in known
    ]


def _finish(project: Project, swap: Swap) -> None:
    # The staged trees were complete, so the interrupted build is finished rather than undone:
    # site/ and content/ come from the same build either way.
    try:
        finished = swap.forward()
    except OSError as error:
        raise BuildError(
            f"cannot finish the swap of a build that was interrupted ({printable(str(error))}); "
            f"its journal is {_shown(project, swap.scratch)}: put site and content back by hand, "
            "then remove it"
        ) from None
    published = [_shown(project, p) for p in (swap.site_dir, swap.content_dir) if p is not None]
    if finished:
        notice(f"finished publishing an interrupted build: {', '.join(published)}")


def _identity(path: Path) -> str:
    status = path.lstat()
    return f"{status.st_dev}:{status.st_ino}"


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange(first: Path, second: Path) -> bool:
    """Exchange two paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False, having
    done nothing, where the system or the file system has no such call."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library without it (glibc before 2.28, musl)
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    done = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), 2)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False  # a kernel or file system without exchanges: two renames instead
    raise OSError(code, os.strerror(code), str(first), None, str(second))


def _shown(project: Project, path: Path) -> str:
    return printable(project.display(path))


def _remove(path: Path) -> bool:
    try:
        shutil.rmtree(path)
    except FileNotFoundError:
        return True
    except OSError as error:
        notice(
            f"warning: cannot remove {printable(str(path))} "
            f"({error.strerror}: {printable(str(error.filename))}); "
            "the next build tries again"
        )
        return False
    return True
