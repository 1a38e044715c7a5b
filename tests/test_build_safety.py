"""Publishing never harms the user's files: safe site folders, swaps that survive kills, one build.

Each test names the failure it guards against (issue #7, items 2 and 3).
"""

from __future__ import annotations

import builtins
import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulesite.errors import BuildError, UsageError
from rulesite.project import Project
from rulesite.publish import site_folder as publish
from rulesite.publish.build import build
from rulesite.publish.build_cache import CACHE_DIR, TRASH
from rulesite.publish.marker import read_marker
from tests.helpers import tree_digest
from tests.projects import built_once, copy_built, shared_temp, skipping

RANK_BEFORE, RANK_AFTER = "bgg_rank: 9999", "bgg_rank: 9998"


def files_outside(world: Path, site: Path | None) -> dict[str, bytes]:
    """Every file's bytes under ``world``, except inside ``site`` and the build cache (a
    build keeps it for the next: ``tests/test_build_cache.py``)."""
    found = {}
    for folder, dirs, files in os.walk(world):
        here = Path(folder)
        # Not walked at all: a process of its own may be removing the cache's trash meanwhile.
        dirs[:] = [name for name in dirs if not (here / name).as_posix().endswith(CACHE_DIR)]
        for name in files:
            path = here / name
            if not (site is not None and path.is_relative_to(site)):
                found[path.relative_to(world).as_posix()] = path.read_bytes()
    return dict(sorted(found.items()))


def leftovers(*folders: Path) -> list[Path]:
    return [path for folder in folders for path in folder.glob(".rulesite-*")]


def change_rank(project: Project, old: str = RANK_BEFORE, new: str = RANK_AFTER) -> None:
    game = project.games_dir / "mini-game.yaml"
    text = game.read_text("utf-8")
    assert old in text
    game.write_text(text.replace(old, new), "utf-8")


def break_data(project: Project) -> None:
    game = project.games_dir / "mini-game.yaml"
    game.write_text(game.read_text("utf-8").replace("bgg_rank: 99", "bgg_rank: x"), "utf-8")


WRITTEN = ("site", "content", ".cache")
"""What builds write in a project (and its .rulesite-* scratch): not what they read."""


def reference_build(project: Project, where: Path) -> Project:
    """A copy of ``project`` (its current data) built normally: what a finished build gives."""
    copy = Project(where)
    ignore = shutil.ignore_patterns("site", "content", ".rulesite-*", "rulesite-build")
    shutil.copytree(project.root, copy.root, ignore=ignore)
    build(copy)
    return copy


def sources(project: Project) -> dict[str, bytes]:
    """Every file a build of ``project`` reads, by path in the project."""
    read = [
        path
        for path in project.root.iterdir()  # what builds write is not walked (files_outside)
        if path.name not in WRITTEN and not path.name.startswith(".rulesite-")
    ]
    return {
        path.relative_to(project.root).as_posix(): path.read_bytes()
        for top in read
        for path in sorted([top, *top.rglob("*")])
        if path.is_file()
    }


def reference_of(project: Project, reference: Project) -> Project:
    """``reference`` (a finished build, shared by the module), once it is sure to be built from
    what ``project`` holds now: a test then compares with it as with its own reference_build."""
    assert sources(project) == sources(reference), "the shared reference is of other data"
    return reference


def published_copy(project: Project, target: Path) -> None:
    """``target`` as ``build(project, site_dir=target)`` leaves it when nothing changed since
    the project's own site was built: the same files (a build writes no absolute path), without
    another MkDocs run. For tests whose subject is the next build into ``target``."""
    copy_built(project.site_dir, target)


@pytest.fixture(scope="module")
def built_world(built_fixture: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The world below, built once per run (a build is the slow part; the tests change it):
    the shared built fixture project, with the files around it."""
    root = tmp_path_factory.mktemp("built") / "world"
    project = copy_built(built_fixture / "project", root / "project")
    (project / "tests").mkdir()
    (project / "tests" / "test_mine.py").write_text("def test(): pass\n", "utf-8")
    assert (project / "content").is_dir()  # in the repository, content/ always exists
    (root / "foreign").mkdir()
    (root / "foreign" / "thesis.txt").write_text("years of work\n", "utf-8")
    (root / "notes.txt").write_text("a file\n", "utf-8")
    (root / "empty").mkdir()
    return root


@pytest.fixture(scope="module")
def changed_reference(built_world: Path, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """What a finished build gives for the world's project with its rank changed once
    (``change_rank``): built once per run (``built_once``: the file's tests may run on several
    workers) for the tests that need it (``reference_of``). Read it only."""

    def make(folder: Path) -> None:
        project = Project(folder / "project")
        ignore = skipping("site", "content", ".rulesite-*")
        shutil.copytree(built_world / "project", project.root, ignore=ignore)
        change_rank(project)
        build(project)

    return Project(built_once(shared_temp(tmp_path_factory), "changed-reference", make) / "project")


@pytest.fixture
def world(built_world: Path, tmp_path: Path) -> Path:
    """A folder holding a built project, a folder of someone else's files and a lone file: a
    fresh copy of ``built_world`` for each test (a build writes no absolute path, so a copy is
    what building here would give)."""
    # Without the build cache: a copy's is another project's (ignored with a note).
    skip = shutil.ignore_patterns("rulesite-build")
    return Path(shutil.copytree(built_world, tmp_path / "world", symlinks=True, ignore=skip))


# --- Item 2: a site folder that would replace or hide the user's files is refused -------------

REFUSED = {
    ".": "site folder .: is the project folder; use a folder of its own, e.g. site/",
    "..": "site folder {world}: contains the project; use a folder of its own, e.g. site/",
    "/": "site folder /: contains the project; use a folder of its own, e.g. site/",
    "data": "site folder data: is data/, which holds the game data; "
    "use a folder of its own, e.g. site/",
    "data/games": "site folder data/games: is inside data/, which holds the game data; "
    "use a folder of its own, e.g. site/",
    # Missing or empty: only the rule about the project's own folders stops these.
    "data/new-site": "site folder data/new-site: is inside data/, which holds the game data; "
    "use a folder of its own, e.g. site/",
    "templates": "site folder templates: is templates/, which holds the page templates; "
    "use a folder of its own, e.g. site/",
    "templates/pages": "site folder templates/pages: is inside templates/, which holds the "
    "page templates; use a folder of its own, e.g. site/",
    "scripts": "site folder scripts: is scripts/, which holds the code; "
    "use a folder of its own, e.g. site/",
    "tests": "site folder tests: is tests/, which holds the tests; "
    "use a folder of its own, e.g. site/",
    "content": "site folder content: is content/, which every build replaces; "
    "use a folder of its own, e.g. site/",
    "content/site": "site folder content/site: is inside content/, which every build replaces; "
    "use a folder of its own, e.g. site/",
    "mkdocs.yml": "site folder mkdocs.yml: is a file, not a folder",
    "../notes.txt": "site folder {world}/notes.txt: is a file, not a folder",
    "../foreign": "site folder {world}/foreign: is not empty and was not written by rulesite "
    "build (it has no .rulesite-site file); empty or remove it yourself, or choose another folder",
    ".rulesite-mine": "site folder .rulesite-mine: names starting with .rulesite- are kept for "
    "rulesite's scratch folders",
}


@pytest.mark.parametrize("site_dir", REFUSED)
def test_unsafe_site_folder_is_refused_and_nothing_changes(world: Path, site_dir: str) -> None:
    project = Project(world / "project")
    before = files_outside(world, None)
    with pytest.raises(UsageError) as caught:
        build(project, site_dir=(project.root / site_dir).resolve())
    assert caught.value.lines() == [REFUSED[site_dir].format(world=world)]
    assert files_outside(world, None) == before
    assert not (project.root / "data" / "new-site").exists()
    assert leftovers(project.root, world) == []


def test_refusal_shows_control_characters_in_the_folder_name_escaped(world: Path) -> None:
    project = Project(world / "project")
    with pytest.raises(UsageError) as caught:
        build(project, site_dir=project.root / "data" / "\x1b]0;owned\x07\nsite")
    assert caught.value.lines() == [
        "site folder data/\\x1b]0;owned\\x07\\nsite: is inside data/, which holds the game data; "
        "use a folder of its own, e.g. site/"
    ]


def test_an_empty_or_missing_folder_is_used_and_a_built_one_replaced(world: Path) -> None:
    project = Project(world / "project")
    for site_dir in (world / "empty", world / "new" / "deeper" / "site", project.site_dir):
        build(project, site_dir=site_dir)
        assert (site_dir / "index.html").is_file()
        assert read_marker(site_dir).languages == ("zh", "en")
    assert (world / "foreign" / "thesis.txt").read_text("utf-8") == "years of work\n"


def test_a_built_folder_that_lost_its_marker_is_refused(world: Path) -> None:
    project = Project(world / "project")
    (project.site_dir / publish.MARKER).unlink()
    with pytest.raises(UsageError, match=r"^site folder site: is not empty and was not written"):
        build(project)
    assert (project.site_dir / "index.html").is_file()


def test_every_command_with_a_random_site_dir_changes_nothing_outside_it(
    world: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #7: any command, any of the project's own folders: only the site folder changes."""
    import argparse

    from rulesite.cli import _parser, main

    seed = int(os.environ.get("RULESITE_TEST_SEED", "7"))
    rng = random.Random(seed)
    project = world / "project"
    monkeypatch.chdir(project)
    accepted = {"site", "../empty", "../fresh/www"}
    candidates = [*REFUSED, *accepted, "../..", str(world.parent.parent)]
    subparsers = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    arguments = {"score": ["mini-game", "-"]}
    # Every folder once for build (in a random order: each run starts where the last left off),
    # and a random folder for every other command.
    runs = [("build", site_dir) for site_dir in rng.sample(candidates, len(candidates))]
    runs += [(command, rng.choice(candidates)) for command in subparsers.choices]
    for command, site_dir in runs:
        target = (project / site_dir).resolve()
        changes = target if command == "build" and site_dir in accepted else None
        before = files_outside(world, changes)
        argv = [command, *arguments.get(command, []), "--site-dir", site_dir]
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse: the command takes no --site-dir
            code = exit_.code
        err = capsys.readouterr().err
        where = f"seed {seed}: rulesite {' '.join(argv)}"
        assert code == (0 if changes else 2), f"{where}: {err}"
        assert "Traceback" not in err, where
        assert files_outside(world, changes) == before, where
        assert leftovers(project, world, world / "fresh") == [], where


def test_folders_named_like_the_old_scratch_are_left_alone(world: Path) -> None:
    """The old build deleted .site.old and .content.old without a word."""
    project = Project(world / "project")
    mine = [project.root / ".site.old", project.root / ".content.old", world / ".www.old"]
    mine += [project.root / ".rulesite-notes", world / ".rulesite-old-abc.wwwx"]
    for folder in mine:
        folder.mkdir()
        (folder / "keep.txt").write_text("mine\n", "utf-8")
    build(project)
    build(project, site_dir=world / "www")
    assert all((folder / "keep.txt").read_text("utf-8") == "mine\n" for folder in mine)


# --- Item 3: staging beside the target; a full disk fails the build, never the site ------------


def test_full_disk_beside_the_target_leaves_the_previous_site(
    world: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The target is on another, nearly full file system (simulated: no rename across, no room).

    The old build staged the site in the project, so publishing became a copy across file
    systems that stopped half-way, leaving 0-byte pages.
    """
    project = Project(world / "project")
    other = world / "other-fs"
    target = other / "www"
    published_copy(project, target)
    site_before, content_before = tree_digest(target), tree_digest(project.content_dir)
    change_rank(project)

    real_rename, real_open = os.rename, builtins.open
    written: list[str] = []

    def rename(src, dst, *args, **kwargs):
        if Path(src).is_relative_to(other) != Path(dst).is_relative_to(other):
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), str(src), None, str(dst))
        return real_rename(src, dst, *args, **kwargs)

    def open_(file, mode="r", *args, **kwargs):
        if isinstance(file, str | Path) and Path(file).is_relative_to(other) and "w" in mode:
            written.append(str(file))
            if len(written) > 5:  # room for a few files only
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(builtins, "open", open_)
    with pytest.raises(BuildError) as caught:
        # Clean: every page is written beside the target (an incremental build links them).
        build(project, site_dir=target, clean=True)
    monkeypatch.undo()
    # Each language is built in its own process (with the patched open: they are forked), and
    # each reports the full disk once, naming the staging folder beside the target.
    message = caught.value.lines()
    assert 1 <= len(message) <= 2, message
    assert all("No space left on device" in line and str(other) in line for line in message)
    assert tree_digest(target) == site_before
    assert tree_digest(project.content_dir) == content_before
    assert leftovers(project.root, other) == []


def _mount_tmpfs(folder: Path, kib: int) -> bool:
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("mount"):
        return False
    folder.mkdir(parents=True)
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(folder)], capture_output=True
    )
    return result.returncode == 0


def test_full_tmpfs_target_leaves_the_previous_site(world: Path) -> None:
    """The same on a real small file system, where the machine lets us mount one (as root)."""
    project = Project(world / "project")
    used = sum(p.stat().st_blocks * 512 for p in project.site_dir.rglob("*"))
    mount = world / "small-fs"
    if not _mount_tmpfs(mount, kib=int(used * 1.5) // 1024):  # one site fits, not two
        pytest.skip("cannot mount a tmpfs here (needs root); the simulated test covers this")
    try:
        target = mount / "www"
        published_copy(project, target)
        site_before, content_before = tree_digest(target), tree_digest(project.content_dir)
        change_rank(project)
        with pytest.raises(BuildError) as caught:
            build(project, site_dir=target)
        message = caught.value.lines()
        assert len(message) == 1 and "No space left on device" in message[0], message
        assert tree_digest(target) == site_before
        assert tree_digest(project.content_dir) == content_before
        assert leftovers(project.root, mount) == []
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


# --- Item 3: a failed swap puts both trees back; one that cannot clean up still publishes ------


@pytest.mark.parametrize("failing", ["site", "content"])
def test_failed_rename_in_the_swap_puts_site_and_content_back(
    world: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    project = Project(world / "project")
    site_before, content_before = tree_digest(project.site_dir), tree_digest(project.content_dir)
    change_rank(project)
    victim = project.root / failing
    real_rename = os.rename
    failed: list[str] = []

    def rename(src, dst, *args, **kwargs):
        if Path(dst) == victim and not failed:  # the first rename into place: new → live
            failed.append(str(src))
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(src), None, str(dst))
        return real_rename(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(publish, "exchange", lambda first, second: False)  # the two renames
    with pytest.raises(BuildError) as caught:
        build(project)
    assert failed
    assert len(caught.value.lines()) == 1 and "Input/output error" in str(caught.value)
    assert tree_digest(project.site_dir) == site_before
    assert tree_digest(project.content_dir) == content_before
    assert leftovers(project.root) == []


def test_undeletable_old_site_is_a_warning_and_later_builds_work(
    world: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """The old build raised after swapping site/ but before content/, and on every later build."""
    project = Project(world / "project")
    # A file the build itself publishes (a site folder holding files no build wrote is refused).
    project.static_dir.mkdir()
    (project.static_dir / "undeletable.txt").write_text("immutable\n", "utf-8")
    build(project)
    real_unlink = os.unlink

    def unlink(path, *args, **kwargs):
        if os.path.basename(path) == "undeletable.txt":
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), path)
        return real_unlink(path, *args, **kwargs)

    real_rename = os.rename

    def rename(src, dst, *args, **kwargs):
        if TRASH in Path(dst).parts:  # the cache's trash on another file system
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), dst)
        return real_rename(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    # A build hands the trees it replaces to a process of its own to remove, through the
    # cache's trash; where they cannot be moved there, it removes them itself, and says so.
    monkeypatch.setattr(os, "rename", rename)
    for old, new in [(RANK_BEFORE, RANK_AFTER), (RANK_AFTER, "bgg_rank: 9997")]:
        change_rank(project, old, new)
        build(project, clean=True)
        err = capsys.readouterr().err
        assert "warning: cannot remove" in err and "the next build tries again" in err, err
        reference = reference_build(project, tmp_path / new.replace(" ", "").replace(":", "-"))
        assert tree_digest(project.site_dir) == tree_digest(reference.site_dir)
        assert tree_digest(project.content_dir) == tree_digest(reference.content_dir)
    monkeypatch.undo()
    build(project)
    assert "rulesite: removing leftovers of earlier builds: .rulesite-build-" in (
        capsys.readouterr().err
    )
    assert leftovers(project.root) == []


# --- Item 3: kills: leftovers removed, a swap cut short finished by the next build -------------

AT_RENAME = """
import os, signal, sys, time
from pathlib import Path

action, victim, real_rename = sys.argv[1], Path(sys.argv[2]), os.rename

def rename(src, dst, *args, **kwargs):
    if Path(dst) == victim:  # the first rename into place: the new tree about to go live
        if action == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(2)  # "slow": hold the swap open for other builds to collide with
    return real_rename(src, dst, *args, **kwargs)

os.rename = rename
import rulesite.publish.site_folder as site_folder
site_folder.exchange = lambda first, second: False  # the two-rename swap (no atomic exchange)
from rulesite.cli import main
sys.exit(main(sys.argv[3:]))
"""


def rulesite(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesite", *args], cwd=cwd, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("site_dir", "killed_at"),
    [("site", "site"), ("site", "content"), ("../www", "site"), ("../www", "content")],
)
def test_kill_in_the_swap_is_finished_by_the_next_build_even_a_failing_one(
    world: Path, changed_reference: Project, site_dir: str, killed_at: str
) -> None:
    """The old build left no site/ (or no content/) after a kill between two renames."""
    project = Project(world / "project")
    target = (project.root / site_dir).resolve()
    if site_dir != "site":
        published_copy(project, target)
    change_rank(project)
    victim = target if killed_at == "site" else project.content_dir
    killed = subprocess.run(
        [sys.executable, "-c", AT_RENAME, "kill", str(victim), "build", "--site-dir", site_dir],
        cwd=project.root,
        capture_output=True,
        text=True,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not victim.exists()  # the state the kill left: one tree missing
    reference = reference_of(project, changed_reference)
    break_data(project)
    result = rulesite("build", cwd=project.root)  # fails on the data, and a different site folder
    assert result.returncode == 1, result.stderr
    assert "rulesite: finished publishing an interrupted build: " in result.stderr
    assert "removing leftovers of earlier builds" in result.stderr
    assert tree_digest(target) == tree_digest(reference.site_dir)
    assert tree_digest(project.content_dir) == tree_digest(reference.content_dir)
    assert leftovers(project.root, target.parent) == []


def test_sigkill_mid_build_leftovers_are_removed_by_the_next_build(world: Path, capsys) -> None:
    """The old build's scratch folders were never removed after a SIGKILL."""
    project = Project(world / "project")
    target = world / "www"
    published_copy(project, target)
    site_before, content_before = tree_digest(target), tree_digest(project.content_dir)
    change_rank(project)
    process = subprocess.Popen(
        # Clean: every page is built beside the target (an incremental build links them).
        [sys.executable, "-m", "rulesite", "build", "--clean", "--site-dir", str(target)],
        cwd=project.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not list(world.glob(".rulesite-new-*.www/.rulesite-languages/*/assets")):  # writing
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    process.kill()
    process.wait()
    assert tree_digest(target) == site_before
    assert tree_digest(project.content_dir) == content_before
    assert len(leftovers(project.root)) == 1 and len(leftovers(world)) == 1
    build(project)
    lines = capsys.readouterr().err.splitlines()
    # Whether the killed build had already set its cache aside depends on when the kill
    # landed; when it had, the next build says so in one line of its own.
    interrupted = (
        "rulesite: note: build cache ignored (incomplete: a build was interrupted); building clean"
    )
    assert lines[1:] in ([], [interrupted]), lines
    assert lines[0].startswith("rulesite: removing leftovers of earlier builds: .rulesite-build-")
    assert f"{world}/.rulesite-new-" in lines[0], lines
    assert leftovers(project.root, world) == []
    assert tree_digest(target) == site_before  # another build's folder, only tidied beside


def test_staging_whose_journal_is_gone_is_removed_beside_the_target(world: Path, capsys) -> None:
    project = Project(world / "project")
    target = world / "www"
    orphans = [world / ".rulesite-old-k3x9_2ab.www", world / ".rulesite-new-zz.www"]
    for orphan in orphans:
        orphan.mkdir()
        (orphan / "index.html").write_text("stale\n", "utf-8")
    build(project, site_dir=target)
    assert capsys.readouterr().err == (
        f"rulesite: removing leftovers of earlier builds: {orphans[1]}, {orphans[0]}\n"
    )
    assert leftovers(world) == []


# --- Item 3: one build at a time ---------------------------------------------------------------


def test_second_build_exits_2_while_one_is_running(world: Path) -> None:
    project = Project(world / "project")
    site_before = tree_digest(project.site_dir)
    change_rank(project)
    with publish.lock(project.root):  # what a running build holds
        result = rulesite("build", cwd=project.root)
    assert result.returncode == 2
    assert result.stderr == (
        f"another build is running in {project.root}; try again when it has finished\n"
    )
    assert tree_digest(project.site_dir) == site_before


def test_builds_at_once_never_mix_or_trace_back(world: Path, changed_reference: Project) -> None:
    """The old builds shared .site.old: FileNotFoundError tracebacks, a site inside the site."""
    project = Project(world / "project")
    change_rank(project)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", AT_RENAME, "slow", str(project.site_dir), "build"],
            cwd=project.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    results = [(p.wait(timeout=120), p.communicate()[1]) for p in processes]
    assert all(code in (0, 2) and "Traceback" not in err for code, err in results), results
    assert any(code == 0 for code, _ in results), results
    reference = reference_of(project, changed_reference)
    assert tree_digest(project.site_dir) == tree_digest(reference.site_dir)
    assert tree_digest(project.content_dir) == tree_digest(reference.content_dir)
    assert leftovers(project.root) == []
