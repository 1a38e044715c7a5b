"""The preview after a sequence of edits serves exactly the site a whole build writes.

One preview of a fixture project lives through every test of this module, in order: each test
makes one edit (or two, within 50 ms), brings the preview up to date and compares every file of
its served site with ``rulesite build --site-dir`` of the same data (HTML, search index and
shards, sitemap, offline lists, the worker). An incremental step that leaves anything stale
fails here, even when the page the editor looks at is right.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from rulesite.serve import preview as serve
from rulesite.serve.watcher import Watcher
from tests.helpers import good_game_text, make_project, other_game

MARKER = ".rulesite-site"
"""The build's own record of the site folder: the preview writes none."""


@dataclass
class Session:
    project: Project
    preview: serve.Preview
    scratch: Path
    said: list[str] = field(default_factory=list)

    @property
    def games(self) -> Path:
        return self.project.games_dir

    def edit(self, relative: str, old: str, new: str) -> None:
        """Replace ``old`` (exactly once) in a project file, as an editor saves: whole."""
        path = self.project.root / relative
        text = path.read_text("utf-8")
        assert text.count(old) == 1, f"{old!r} in {relative}"
        scratch = path.with_name(f".{path.name}.tmp")
        scratch.write_text(text.replace(old, new), "utf-8")
        scratch.replace(path)

    def rebuild(self) -> list[str]:
        start = len(self.said)
        self.preview.rebuild()
        return self.said[start:]

    def page(self, relative: str) -> str:
        return (self.preview.site / relative).read_text("utf-8")

    def assert_like_a_build(self) -> None:
        """Every file of the preview's site equals, byte for byte, what a whole build writes."""
        reference = self.scratch / f"reference-{len(list(self.scratch.glob('reference-*')))}"
        build(self.project, site_dir=reference)
        expected, actual = tree_digest(reference), tree_digest(self.preview.site)
        expected.pop(MARKER)
        assert sorted(actual.keys() - expected.keys()) == []
        assert sorted(expected.keys() - actual.keys()) == []
        assert sorted(name for name in expected if expected[name] != actual[name]) == []


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    scratch = tmp_path_factory.mktemp("incremental")
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    project = Project(make_project(scratch / "p", games))
    (scratch / "preview").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        said: list[str] = []
        patch.setattr(serve, "_say", said.append)
        patch.setattr(serve, "RETRY_SECONDS", 0.0)
        preview = serve.Preview(project, scratch / "preview")
        preview.start()
        yield Session(project, preview, scratch, said)


def test_a_faq_answer(session: Session) -> None:
    session.edit("data/games/mini-game.yaml", "zh: 没有。", "zh: 没有上限。")
    session.rebuild()
    assert "没有上限" in session.page("games/mini-game/faq/index.html")
    session.assert_like_a_build()


def test_a_rules_section(session: Session) -> None:
    session.edit(
        "data/games/mini-game.yaml",
        "      en: Each player takes 5 cards.",
        "      en: Each player draws 5 cards.",
    )
    session.rebuild()
    assert "draws 5 cards" in session.page("en/games/mini-game/rules/index.html")
    session.assert_like_a_build()


def test_a_card_summary(session: Session) -> None:
    session.edit("data/games/mini-game.yaml", "zh: 两张规则、两条", "zh: 两节规则、两条")
    session.rebuild()
    assert "两节规则" in session.page("index.html")
    session.assert_like_a_build()


def test_a_card_date_that_moves_the_build_date(session: Session) -> None:
    # The newest verification date is the site's build date: every page's footer and sitemap.
    newer = (dt.date(2026, 1, 15) + dt.timedelta(days=5)).isoformat()
    session.edit(
        "data/games/mini-game.yaml", "  verified: 2026-01-15\nintro", f"  verified: {newer}\nintro"
    )
    session.rebuild()
    assert newer in session.page("games/mini-game/rules/index.html")
    session.assert_like_a_build()


def test_a_card_date_of_an_older_game(session: Session) -> None:
    # Not the newest: the build date stays, only that game's check date moves.
    session.edit(
        "data/games/other-game.yaml",
        "  verified: 2026-01-15\nintro",
        "  verified: 2026-01-10\nintro",
    )
    session.rebuild()
    assert "2026-01-10" in session.page("games/other-game/rules/index.html")
    session.assert_like_a_build()


def test_adding_a_game(session: Session) -> None:
    (session.games / "third-game.yaml").write_text(other_game("third-game"), "utf-8")
    session.rebuild()
    assert "games/third-game/" in session.page("en/index.html")
    session.assert_like_a_build()


def test_deleting_a_game(session: Session) -> None:
    (session.games / "other-game.yaml").unlink()
    session.rebuild()
    assert not (session.preview.site / "games" / "other-game").exists()
    session.assert_like_a_build()


def test_renaming_a_glossary_term_in_chinese(session: Session) -> None:
    # The Chinese terms are search's word list (jieba): every Chinese page is split anew.
    session.edit(
        "data/games/mini-game.yaml", "name: {zh: 平手, en: tie}", "name: {zh: 同分, en: tie}"
    )
    session.rebuild()
    assert "同分" in session.page("glossary/mini-game/index.html")
    session.assert_like_a_build()


def test_renaming_a_glossary_term_in_english(session: Session) -> None:
    session.edit(
        "data/games/mini-game.yaml", "name: {zh: 同分, en: tie}", "name: {zh: 同分, en: draw}"
    )
    session.rebuild()
    assert "draw" in session.page("en/glossary/mini-game/index.html")
    session.assert_like_a_build()


def test_a_label_in_site_yaml(session: Session) -> None:
    session.edit(
        "data/site.yaml",
        "page_rules: {zh: 规则速查, en: Rules}",
        "page_rules: {zh: 规则速查, en: Rules in short}",
    )
    session.rebuild()
    assert "Rules in short" in session.page("en/games/mini-game/index.html")
    session.assert_like_a_build()


def test_two_edits_within_50_ms(session: Session) -> None:
    # Through the watcher, as `rulesite serve` runs: the second save lands while the first is
    # being read or built; the preview must end up with the second.
    done: list[float] = []

    def rebuild() -> None:
        session.preview.rebuild()
        done.append(time.monotonic())

    paths = [session.project.data_dir, session.project.templates_dir, session.project.mkdocs_file]
    watcher = Watcher(paths, rebuild, serve.POLL_SECONDS)
    watcher.start()
    try:
        time.sleep(0.3)  # the observer's first listing
        session.edit("data/games/mini-game.yaml", "zh: 没有上限。", "zh: 第一次改动。")
        time.sleep(0.02)
        session.edit("data/games/mini-game.yaml", "zh: 第一次改动。", "zh: 第二次改动。")
        _wait_until_quiet(done)
    finally:
        watcher.stop()
    assert "第二次改动" in session.page("games/mini-game/faq/index.html")
    session.assert_like_a_build()


def _wait_until_quiet(done: list[float], quiet: float = 2.0, longest: float = 120.0) -> None:
    """Until a rebuild has finished and no other one followed for ``quiet`` seconds."""
    deadline = time.monotonic() + longest
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if done and time.monotonic() - done[-1] > quiet:
            return
    raise AssertionError("the watcher never settled")


def test_a_failure_after_the_first_phase_is_made_good_by_the_next_rebuild(
    session: Session,
) -> None:
    # The game's pages are shown, then rendering the pages across games fails (and its retry):
    # the next rebuild must still give those pages their search entries and offline lists.
    failures = [RuntimeError("first"), RuntimeError("retry")]
    real = serve.render_site_pages

    def failing(*args: object) -> dict[str, str]:
        if failures:
            raise failures.pop(0)
        return real(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(serve, "render_site_pages", failing)
        session.edit("data/games/mini-game.yaml", "zh: 第二次改动。", "zh: 第三次改动。")
        said = session.rebuild()
    assert any("rebuilding failed: RuntimeError: retry" in line for line in said)
    assert "第三次改动" in session.page("games/mini-game/faq/index.html")
    session.rebuild()  # no new edit
    session.assert_like_a_build()


def test_invalid_data_keeps_the_last_good_pages_then_the_fix_shows(session: Session) -> None:
    before = tree_digest(session.preview.site)
    session.edit("data/games/mini-game.yaml", "bgg_rank: 9999", "bgg_rank: many")
    said = session.rebuild()
    assert any("data has errors" in line for line in said)
    assert tree_digest(session.preview.site) == before
    assert session.preview.problems.lines  # the overlay says it too
    session.edit("data/games/mini-game.yaml", "bgg_rank: many", "bgg_rank: 4321")
    session.rebuild()
    assert "#4321" in session.page("en/games/mini-game/index.html")
    assert not session.preview.problems.lines
    session.assert_like_a_build()
