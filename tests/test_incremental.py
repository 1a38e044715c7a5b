"""The preview after a sequence of edits serves exactly the site a whole build writes.

One preview of a fixture project lives through every test of this module, in order: each test
makes one edit (or two, within 50 ms), brings the preview up to date and compares every file of
its served site with ``rulesite build --site-dir`` of the same data (HTML, search index and
shards, sitemap, offline lists, the worker). An incremental step that leaves anything stale
fails here, even when the page the editor looks at is right.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from rulesite.serve import preview as serve
from rulesite.serve.watcher import Watcher
from tests.helpers import poll_until, tree_digest
from tests.projects import good_game_text, make_project, other_game

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


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    scratch = tmp_path_factory.mktemp("incremental")
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    project = Project(make_project(scratch / "p", games))
    (scratch / "preview").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        said: list[str] = []
        patch.setattr(serve, "say", said.append)
        patch.setattr(serve, "RETRY_SECONDS", 0.0)
        preview = serve.Preview(project, scratch / "preview")
        preview.start()
        yield Session(project, preview, scratch, said)


def edit(relative: str, old: str, new: str) -> Callable[[Session], None]:
    return lambda session: session.edit(relative, old, new)


def add_game(slug: str) -> Callable[[Session], None]:
    return lambda session: (session.games / f"{slug}.yaml").write_text(other_game(slug), "utf-8")


def delete_game(slug: str) -> Callable[[Session], None]:
    return lambda session: (session.games / f"{slug}.yaml").unlink()


GAME = "data/games/mini-game.yaml"
NEWER = (dt.date(2026, 1, 15) + dt.timedelta(days=5)).isoformat()
"""A verification date after every other: the site's build date moves with it."""

EDITS = [
    # (the change, a page of the preview, a text it then shows: None when the page is gone)
    pytest.param(
        edit(GAME, "zh: 没有。", "zh: 没有上限。"),
        "games/mini-game/faq/index.html",
        "没有上限",
        id="a-faq-answer",
    ),
    pytest.param(
        edit(GAME, "      en: Each player takes 5 cards.", "      en: Each player draws 5 cards."),
        "en/games/mini-game/rules/index.html",
        "draws 5 cards",
        id="a-rules-section",
    ),
    pytest.param(
        edit(GAME, "zh: 两张规则、两条", "zh: 两节规则、两条"),
        "index.html",
        "两节规则",
        id="a-card-summary",
    ),
    # The newest verification date is the site's build date: every page's footer and sitemap.
    pytest.param(
        edit(GAME, "  verified: 2026-01-15\nintro", f"  verified: {NEWER}\nintro"),
        "games/mini-game/rules/index.html",
        NEWER,
        id="a-card-date-that-moves-the-build-date",
    ),
    # Not the newest: the build date stays, only that game's check date moves.
    pytest.param(
        edit(
            "data/games/other-game.yaml",
            "  verified: 2026-01-15\nintro",
            "  verified: 2026-01-10\nintro",
        ),
        "games/other-game/rules/index.html",
        "2026-01-10",
        id="a-card-date-of-an-older-game",
    ),
    pytest.param(add_game("third-game"), "en/index.html", "games/third-game/", id="adding-a-game"),
    pytest.param(delete_game("other-game"), "games/other-game", None, id="deleting-a-game"),
    # The Chinese terms are search's word list (jieba): every Chinese page is split anew.
    pytest.param(
        edit(GAME, "name: {zh: 平手, en: tie}", "name: {zh: 同分, en: tie}"),
        "glossary/mini-game/index.html",
        "同分",
        id="renaming-a-glossary-term-in-chinese",
    ),
    pytest.param(
        edit(GAME, "name: {zh: 同分, en: tie}", "name: {zh: 同分, en: draw}"),
        "en/glossary/mini-game/index.html",
        "draw",
        id="renaming-a-glossary-term-in-english",
    ),
    pytest.param(
        edit(
            "data/site.yaml",
            "page_rules: {zh: 规则速查, en: Rules}",
            "page_rules: {zh: 规则速查, en: Rules in short}",
        ),
        "en/games/mini-game/index.html",
        "Rules in short",
        id="a-label-in-site-yaml",
    ),
]
"""One edit after another, in this order (each starts from the data the ones above left)."""


@pytest.mark.parametrize(("change", "page", "shows"), EDITS)
def test_an_edit_shows_and_the_preview_is_what_a_build_writes(
    session: Session, change: Callable[[Session], None], page: str, shows: str | None
) -> None:
    change(session)
    session.rebuild()
    if shows is None:
        assert not (session.preview.site / page).exists()
    else:
        assert shows in session.page(page)
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
    settled = lambda: bool(done) and time.monotonic() - done[-1] > quiet  # noqa: E731
    poll_until(settled, "the watcher never settled", timeout=longest, every=0.1)


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
