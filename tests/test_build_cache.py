"""``rulesite build`` keeps a cache and rebuilds only what an edit changed, into the very site a
clean build writes (``publish/build_cache.py``, ``publish/incremental.py``).

One fixture project lives through the module, in order: each test makes an edit, builds (from
the cache), and compares every file of ``site/`` and ``content/`` with a clean build of a copy of
the same data. Then the cache is damaged in every way the manifest guards against (each named in
one line, the build clean and the same), a build is killed while it changes the cache, and
``--clean`` is given.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulesite.engine import search_split
from rulesite.errors import DataError
from rulesite.project import Project
from rulesite.publish import build_cache, marker
from rulesite.publish.build import build
from rulesite.publish.progress import Progress
from tests.helpers import poll_until, tree_digest
from tests.projects import good_game_text, make_project, other_game

GAME = "data/games/mini-game.yaml"


@dataclass
class Session:
    project: Project
    scratch: Path
    reference: Path | None = None
    """The project of the last clean build compared with."""

    @property
    def cache(self) -> Path:
        return self.project.root / build_cache.CACHE_DIR

    def edit(self, relative: str, old: str, new: str) -> None:
        path = self.project.root / relative
        text = path.read_text("utf-8")
        assert text.count(old) == 1, f"{old!r} in {relative}"
        path.write_text(text.replace(old, new), "utf-8")

    def build(self, clean: bool = False) -> str:
        """Build (from the cache unless ``clean``); the progress lines. The manifest then lists
        every file of the cache as a walk finds it (an incremental build reads again only what
        it changed: ``BuildCache.restat``)."""
        shown = io.StringIO()
        build(self.project, progress=Progress(shown, tty=False), clean=clean)
        kept = json.loads((self.cache / build_cache.MANIFEST).read_bytes())["files"]
        assert kept == build_cache.BuildCache(self.project).stats()
        # The replaced trees went to the cache's trash: nothing is left beside site/; and the
        # trash is emptied (by a process of its own, once the build published its site).
        assert sorted(self.project.root.glob(".rulesite-*")) == []
        poll_until(
            build_cache.BuildCache(self.project).trash_emptied,
            "the cache's trash was never emptied",
            60,
        )
        # The marker lists what the site holds (an incremental build lists what it linked).
        files, strays = marker.site_files(self.project.site_dir)
        assert strays == []
        assert marker.read_marker(self.project.site_dir).files == set(files) - {marker.MARKER}
        return shown.getvalue()

    def assert_like_a_clean_build(self) -> None:
        """``site/`` and ``content/`` equal, file for file, a clean build of the same data."""
        copy = self.scratch / f"reference-{len(list(self.scratch.glob('reference-*')))}"
        skip = shutil.ignore_patterns("site", "content", ".cache")
        shutil.copytree(self.project.root, copy, ignore=skip)
        build(Project(copy), clean=True)
        self.reference = copy
        self.assert_like(copy)

    def assert_like(self, reference: Path) -> None:
        for folder in ("site", "content"):
            expected, actual = (
                tree_digest(reference / folder),
                tree_digest(self.project.root / folder),
            )
            assert sorted(expected.keys() ^ actual.keys()) == [], folder
            assert sorted(name for name in expected if expected[name] != actual[name]) == []


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    scratch = tmp_path_factory.mktemp("build-cache")
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    project = Project(make_project(scratch / "p", games))
    # A publisher's own file, copied into every site (publish/static_files.py).
    (project.static_dir / "notes").mkdir(parents=True)
    (project.static_dir / "notes" / "robots.txt").write_text("User-agent: *\n", "utf-8")
    build(project)
    yield Session(project, scratch)


def test_a_faq_answer_rebuilds_one_game(session: Session) -> None:
    session.edit(GAME, "zh: 没有。", "zh: 没有上限。")
    shown = session.build()
    assert "rulesite: 1 of 2 games changed; rebuilding zh " in shown
    assert "rendering" not in shown and "whole" not in shown, shown
    session.assert_like_a_clean_build()


def test_nothing_changed(session: Session, capsys: pytest.CaptureFixture[str]) -> None:
    shown = session.build()
    assert "rulesite: 0 of 2 games changed; no page changed" in shown
    assert capsys.readouterr().err == ""
    assert session.reference is not None
    session.assert_like(session.reference)


def test_a_rules_section(session: Session) -> None:
    rule = "      en: Each player {} 5 cards."
    session.edit(GAME, rule.format("takes"), rule.format("draws"))
    assert "1 of 2 games changed; rebuilding en " in session.build()
    session.assert_like_a_clean_build()


def test_the_card(session: Session) -> None:
    session.edit(GAME, "bgg_rank: 9999", "bgg_rank: 4321")
    assert "1 of 2 games changed" in session.build()
    session.assert_like_a_clean_build()


def test_adding_a_game(session: Session) -> None:
    (session.project.games_dir / "third-game.yaml").write_text(other_game("third-game"), "utf-8")
    assert "1 of 3 games changed" in session.build()
    session.assert_like_a_clean_build()


def test_deleting_a_game(session: Session) -> None:
    (session.project.games_dir / "other-game.yaml").unlink()
    assert "1 of 2 games changed" in session.build()
    assert not (session.project.site_dir / "games" / "other-game").exists()
    session.assert_like_a_clean_build()


def test_renaming_a_glossary_term(session: Session) -> None:
    # The Chinese terms are search's word list: the Chinese site is built whole.
    session.edit(GAME, "name: {zh: 平手, en: tie}", "name: {zh: 同分, en: draw}")
    assert "1 of 2 games changed; rebuilding zh whole" in session.build()
    session.assert_like_a_clean_build()


def test_a_label_in_site_yaml(session: Session) -> None:
    # Every page shows labels: the build is clean (in parallel), and keeps a cache again.
    session.edit(
        "data/site.yaml",
        "page_rules: {zh: 规则速查, en: Rules}",
        "page_rules: {zh: 规则速查, en: Rules in short}",
    )
    assert "rendering zh, en" in session.build()
    session.assert_like_a_clean_build()


def test_a_template_and_a_theme_file(session: Session) -> None:
    templates = session.project.templates_dir
    with (templates / "theme" / "assets" / "rulesite.css").open("a", encoding="utf-8") as file:
        file.write("/* edited */\n")
    faq = templates / "pages" / "faq.md.j2"
    faq.write_text(faq.read_text("utf-8") + "\n", "utf-8")
    session.build()
    session.assert_like_a_clean_build()


def test_invalid_data_leaves_the_site_and_the_cache(session: Session) -> None:
    before = tree_digest(session.project.site_dir)
    session.edit(GAME, "bgg_rank: 4321", "bgg_rank: many")
    with pytest.raises(DataError):
        session.build()
    assert tree_digest(session.project.site_dir) == before
    session.edit(GAME, "bgg_rank: many", "bgg_rank: 1234")
    assert "1 of 2 games changed" in session.build()  # the cache was still good
    session.assert_like_a_clean_build()


# --- a cache that is not to be trusted ----------------------------------------------------------


def _manifest(session: Session) -> dict:
    return json.loads((session.cache / build_cache.MANIFEST).read_bytes())


def _with_checksum(data: dict) -> bytes:
    return build_cache.manifest_bytes({k: v for k, v in data.items() if k != "checksum"})


def _altered(field: str, value: object):
    def alter(data: dict) -> bytes:
        return _with_checksum({**data, field: value})

    return alter


DAMAGES = {
    "bad JSON": (lambda data: b'{"format": 1,', "damaged: manifest.json"),
    "wrong checksum": (
        lambda data: json.dumps({**data, "checksum": "0" * 64}).encode(),
        "damaged: manifest.json",
    ),
    "another project": (_altered("project", "/elsewhere"), "made for another project: /elsewhere"),
    "another version": (_altered("rulesite", "0.0.1+old"), "made by another rulesite: 0.0.1+old"),
    "a file it does not list": (
        lambda data: _with_checksum(
            {**data, "files": {k: v for k, v in data["files"].items() if k != "content/.gitignore"}}
        ),
        "damaged: content/.gitignore",
    ),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_manifest_is_named_and_ignored(session: Session, damage: str) -> None:
    alter, why = DAMAGES[damage]
    path = session.cache / build_cache.MANIFEST
    kept = path.read_bytes()
    path.write_bytes(alter(json.loads(kept)))
    said: list[str] = []
    try:
        assert build_cache.BuildCache(session.project).open(False, said.append) is None
    finally:
        path.write_bytes(kept)
    assert said == [f"note: build cache ignored ({why}); building clean"]
    assert build_cache.BuildCache(session.project).open(False, said.append) is not None


def test_a_truncated_page_is_named_and_the_build_is_clean(
    session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    page = session.cache / "site" / "en" / "index.html"
    page.write_bytes(page.read_bytes()[:100])
    capsys.readouterr()
    shown = session.build()
    assert capsys.readouterr().err.splitlines() == [
        "rulesite: note: build cache ignored (damaged: site/en/index.html); building clean"
    ]
    assert "rendering zh, en" in shown
    assert session.reference is not None
    session.assert_like(session.reference)


@pytest.mark.parametrize("target", ["index.html", "games"], ids=["file", "folder"])
def test_a_link_in_the_cache_is_named_and_never_followed(session: Session, target: str) -> None:
    # A page (or a folder of pages) replaced by a link, even to the very same bytes: the cache
    # holds files a build wrote, nothing else.
    page = session.cache / "site" / "en" / target
    moved = page.with_name(f"{target}.moved")
    page.rename(moved)
    page.symlink_to(moved.name, target_is_directory=moved.is_dir())
    said: list[str] = []
    try:
        assert build_cache.BuildCache(session.project).open(False, said.append) is None
    finally:
        page.unlink()
        moved.rename(page)
    assert said == [f"note: build cache ignored (damaged: site/en/{target}); building clean"]
    assert build_cache.BuildCache(session.project).open(False, said.append) is not None


def test_a_build_killed_while_it_changes_the_cache(
    session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    session.edit(GAME, "zh: 没有上限。", "zh: 没有上限了。")
    manifest = session.cache / build_cache.MANIFEST
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesite", "build"],
        cwd=session.project.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while manifest.exists():  # the build has begun to change the cache
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    capsys.readouterr()
    session.build()
    assert capsys.readouterr().err.splitlines()[-1] == (
        "rulesite: note: build cache ignored (incomplete: a build was interrupted); building clean"
    )
    session.assert_like_a_clean_build()


def test_clean_ignores_the_cache_without_a_word(
    session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    shown = session.build(clean=True)
    assert capsys.readouterr().err == ""
    assert "rendering zh, en" in shown
    assert session.reference is not None
    session.assert_like(session.reference)
    assert "0 of 2 games changed" in session.build()  # and it keeps one for the next


def test_a_rebuilt_language_splits_in_its_builder_with_its_last_texts_already_split(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An incremental build's language builds in the builder started before the catalog was
    loaded (``builders.for_dirty_builds``), whose tokenizer already holds the words of the
    cached site's texts: the split finds it warm, knowing the texts of every page but the
    edited ones (each split notes that in a file of its own; the processes are forks of this
    one)."""
    notes = session.scratch / "splits"
    notes.mkdir()
    real_prepare = search_split.prepare

    def noting(index, words=None):
        warmed = search_split._WARMED.get(index["config"]["separator"])
        known = warmed is not None and [doc["text"] in warmed._known for doc in index["docs"]]
        warm = known and sum(known) >= 0.9 * len(known)
        (notes / str(os.getpid())).write_text("warm" if warm else "cold")
        return real_prepare(index, words)

    monkeypatch.setattr(search_split, "prepare", noting)
    session.edit(GAME, "zh: 没有上限了。", "zh: 从来没有上限。")
    assert "rebuilding zh " in session.build()
    assert [path.read_text() for path in notes.iterdir()] == ["warm"]
    session.assert_like_a_clean_build()
