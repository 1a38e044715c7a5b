"""Live preview: an edit rebuilds what it changed, as a build would; a mistake leaves the last good
pages up."""

from __future__ import annotations

import multiprocessing
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import pytest

from rulesite import catalog as catalog_module
from rulesite.errors import BuildError, DataError
from rulesite.project import Project
from rulesite.publish import builders as builders_module
from rulesite.publish.build import PreviewBuild, build
from rulesite.serve import files
from rulesite.serve import preview as serve
from rulesite.serve.files import snapshot
from tests.helpers import poll_until, tree_digest
from tests.projects import good_game_text, make_project, other_game


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, needle: str, timeout: float = 60) -> str:
    """The page at ``url`` once it holds ``needle`` (the preview rebuilds in its own process)."""
    return poll_until(lambda: _holding(url, needle), f"{needle!r} never appeared at {url}", timeout)


def _holding(url: str, needle: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode("utf-8")
    except OSError:
        return None
    return text if needle in text else None


def test_serve_rerenders_on_data_change_and_survives_mistakes(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", warm=False)  # its builds make and keep their caches
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    scratch = tmp_path / "tmp"  # where the preview keeps its files
    scratch.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesite", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    url = f"http://127.0.0.1:{port}/en/games/mini-game/"
    game = root / "data" / "games" / "mini-game.yaml"
    try:
        wait_for(url, "#9999")
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 9999", "bgg_rank: 4321"), "utf-8"
        )
        wait_for(url, "#4321")
        # The builds keep Material's compiled templates, as `rulesite build` does.
        assert any((root / ".cache" / "jinja" / "theme").iterdir())
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 4321", "bgg_rank: 5555"), "utf-8"
        )
        wait_for(url, "#5555")  # a second edit is picked up too
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 5555", "bgg_rank: many"), "utf-8"
        )
        poll_until(
            lambda: "card.bgg_rank" in (tmp_path / "serve.log").read_text("utf-8"),
            "the mistake was never reported",
            timeout=30,
        )
        assert "#5555" in wait_for(url, "#5555")  # the last good page is still served
        replace_in(game, "bgg_rank: many", "bgg_rank: 6666")
        wait_for(url, "#6666")  # the fix shows
        replace_in(root / "data" / "site.yaml", "site_name: Rulesite", "site_name: Renamed Rules")
        wait_for(url, "Renamed Rules")  # the site's name, in the header of every page
        assert "Rulesite" not in wait_for(url, "Renamed Rules")
        missing = missing_page(f"http://127.0.0.1:{port}/games/no-such-game/")
        assert "404" in missing and "md-header" in missing  # the site's own 404 page
        assert process.poll() is None
        # Stopped while it rebuilds (the game's page is shown, the rest still building).
        replace_in(game, "bgg_rank: 6666", "bgg_rank: 7777")
        wait_for(url, "#7777")
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
    output = (tmp_path / "serve.log").read_text("utf-8")
    # Its folder removed under the rebuild, the preview has nothing to say about that (on a
    # machine fast enough to end the rebuild first, its last line is the rebuild's summary).
    after = output[output.rindex("shown after") :].splitlines()[1:]
    after = [line for line in after if not line.endswith(" s in all")]
    assert after == ["interrupted; site/ and content/ were left as they were"]
    assert (
        "data/games/mini-game.yaml:10: card.bgg_rank: expected a whole number, got text 'many'"
        in output
    )
    assert "Traceback" not in output
    assert list(scratch.glob("rulesite-*")) == []  # stopped by SIGTERM, it removed its files


def missing_page(url: str) -> str:
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(url, timeout=5)
    assert caught.value.code == 404
    return caught.value.read().decode("utf-8")


# The preview on its own, without a server: what one change rebuilds, and that it is what a real
# build writes.


@dataclass
class Previewing:
    project: Project
    preview: serve.Preview
    said: list[str]
    scratch: Path

    def page(self, relative: str) -> str:
        return (self.preview.site / relative).read_text("utf-8")

    def rebuild(self) -> list[str]:
        """Rebuild; what it said."""
        start = len(self.said)
        self.preview.rebuild()
        return self.said[start:]

    def assert_like_a_build(self) -> None:
        """The preview holds, byte for byte, the site a real build of the same data writes."""
        reference = self.scratch / f"reference-{len(list(self.scratch.glob('reference-*')))}"
        build(self.project, site_dir=reference)
        expected, actual = tree_digest(reference), tree_digest(self.preview.site)
        expected.pop(".rulesite-site")
        assert sorted(actual.keys() - expected.keys()) == []
        assert sorted(expected.keys() - actual.keys()) == []
        assert sorted(name for name in expected if expected[name] != actual[name]) == []


def two_games(folder: Path) -> Project:
    """The fixture project with a second game, at ``folder``."""
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    return Project(make_project(folder, games))


def started(project: Project, folder: Path) -> serve.Preview:
    """A preview of ``project`` in the new folder ``folder``, its first build done."""
    folder.mkdir()
    preview = serve.Preview(project, folder)
    preview.start()
    return preview


@pytest.fixture
def previewing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Previewing]:
    project = two_games(tmp_path / "p")
    said: list[str] = []
    monkeypatch.setattr(serve, "say", said.append)
    monkeypatch.setattr(serve, "RETRY_SECONDS", 0.0)
    yield Previewing(project, started(project, tmp_path / "preview"), said, tmp_path)


def modified(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*.html")}


def test_the_first_build_says_what_it_does(previewing: Previewing) -> None:
    assert previewing.said[:2] == ["rulesite: checking data/…", "rulesite: 2 games valid"]
    assert re.fullmatch(
        r"rulesite: built zh: whole \(\d+\.\d s\), en: whole \(\d+\.\d s\); 38 pages; "
        r"\d+\.\d s in all",
        previewing.said[2],
    )
    previewing.assert_like_a_build()


def test_the_first_build_is_a_builds_and_leaves_every_page_cached(
    capsys: pytest.CaptureFixture[str], previewing: Previewing
) -> None:
    # The first build runs `rulesite build`'s pipeline (its stages and counts on stderr), then
    # reads back what it wrote: the next update finds every page in the cache and every file
    # of content/ as it would write it, so it renders and builds nothing.
    err = capsys.readouterr().err.splitlines()
    stages = [line for line in err if line.startswith("rulesite:")]
    assert stages == ["rulesite: rendering zh, en…", "rulesite: building zh, en…"]
    made = previewing.preview.cache.misses
    assert previewing.rebuild() == ["rulesite: no page changed"]
    assert previewing.preview.cache.misses == made  # nothing rendered again


def test_the_start_reads_back_the_games_a_build_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After `rulesite build`, the preview's start checks no game file again (the checks the
    build kept: publish/check_cache.py); the next edit checks the edited file alone."""
    project = two_games(tmp_path / "p")
    build(project)
    checked: list[str] = []
    real_check = catalog_module.check_game_file

    def counted(raw: bytes, display: str, *args: Any) -> Any:
        checked.append(display)
        return real_check(raw, display, *args)

    monkeypatch.setattr(catalog_module, "check_game_file", counted)
    monkeypatch.setattr(serve, "say", lambda line: None)
    preview = started(project, tmp_path / "preview")
    assert checked == []
    replace_in(project.games_dir / "mini-game.yaml", "zh: 两张规则", "zh: 已改动的两张规则")
    preview.rebuild()
    assert checked == ["data/games/mini-game.yaml"]
    assert "已改动的两张规则" in (preview.site / "games/mini-game/index.html").read_text("utf-8")


def test_a_start_on_invalid_data_raises_and_leaves_no_builder_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first build forks each language's MkDocs process before the data is checked (as a
    clean build does); invalid data stops the start, and those processes with it."""
    games = {"mini-game.yaml": good_game_text() + "\nbroken: [\n"}
    project = Project(make_project(tmp_path / "p", games))
    monkeypatch.setattr(serve, "say", lambda line: None)
    (tmp_path / "preview").mkdir()
    forked_names: list[str] = []
    real_start = builders_module.start_builders

    def recorded(*args: Any) -> Any:
        builders = real_start(*args)
        forked_names.extend(builder.process.name for builder in builders.values())
        return builders

    monkeypatch.setattr(builders_module, "start_builders", recorded)
    with pytest.raises(DataError):
        serve.Preview(project, tmp_path / "preview").start()
    assert forked_names == ["rulesite-build-zh", "rulesite-build-en"]
    running = [child.name for child in multiprocessing.active_children()]
    assert [name for name in running if name in forked_names] == []


def test_an_edit_rebuilds_that_game_and_the_site_pages_as_a_build_would(
    previewing: Previewing,
) -> None:
    site = previewing.preview.site
    before = modified(site)
    game = previewing.project.games_dir / "mini-game.yaml"
    replace_in(game, "zh: 两张规则", "zh: 已改动的两张规则")
    said = previewing.rebuild()
    # The Chinese summary is on the Chinese pages only: English needs no build at all. First the
    # game's pages are built and shown; then they and the site-wide pages whose Markdown shows
    # the summary, with the language's search and offline files. No other page.
    assert len(said) == 2, said
    assert re.fullmatch(
        r"rulesite: built zh: 4 pages \(\d+\.\d s\); shown after \d+\.\d s", said[0]
    )
    assert re.fullmatch(r"rulesite: built zh: 5 pages \(\d+\.\d s\); \d+\.\d s in all", said[1])
    assert "已改动的两张规则" in previewing.page("games/mini-game/index.html")
    after = modified(site)
    rewritten = sorted(name for name in after if after[name] != before[name])
    assert rewritten == [
        "404.html",
        "games/mini-game/faq/index.html",
        "games/mini-game/index.html",
        "games/mini-game/rules/index.html",
        "games/mini-game/score/index.html",
        "index.html",
    ]
    previewing.assert_like_a_build()
    assert previewing.rebuild() == ["rulesite: no page changed"]


def compiled_templates(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The page templates (``*.j2``) Jinja compiles from now on in this process, as it
    compiles them."""
    compiled: list[str] = []
    real_compile = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None, *a: Any) -> Any:
        if name and name.endswith(".j2"):
            compiled.append(name)
        return real_compile(self, source, name, *a)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return compiled


def test_a_second_start_loads_the_page_templates_instead_of_compiling_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first start compiles every page template in the preview's process and keeps the code
    # in the project's cache (engine/bytecode.py), as builds do; the next start (a restarted
    # `rulesite serve`) loads it.
    monkeypatch.setattr(serve, "say", lambda line: None)
    project = two_games(tmp_path / "p")
    started(project, tmp_path / "first")
    compiled = compiled_templates(monkeypatch)
    started(project, tmp_path / "second")
    assert compiled == []


def test_the_first_edit_finds_the_page_templates_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first build renders in the languages' processes; the preview then compiles the
    # templates in its own, so the first edit's pages show as soon as the next's.
    monkeypatch.setattr(serve, "say", lambda line: None)
    project = two_games(tmp_path / "p")
    preview = started(project, tmp_path / "preview")
    assert len(preview.cache) > 0  # the pages came from the first build's processes
    compiled = compiled_templates(monkeypatch)
    replace_in(project.games_dir / "mini-game.yaml", "zh: 没有。", "zh: 没有上限。")
    preview.update()
    assert "没有上限" in (preview.site / "games/mini-game/faq/index.html").read_text("utf-8")
    assert compiled == []


def test_a_change_to_one_page_rebuilds_every_page_of_its_game(previewing: Previewing) -> None:
    # A game's pages link to each other's headings; MkDocs checks those links against the
    # pages it read in this build, so the game is rebuilt together.
    site = previewing.preview.site
    before = modified(site)
    replace_in(previewing.project.games_dir / "mini-game.yaml", "zh: 没有。", "zh: 没有上限。")
    previewing.rebuild()
    after = modified(site)
    rewritten = [name for name in after if after[name] != before[name]]
    assert "games/mini-game/rules/index.html" in rewritten
    assert "没有上限" in previewing.page("games/mini-game/faq/index.html")
    assert "没有上限" not in (
        previewing.preview.content / "zh/docs/games/mini-game/rules.md"
    ).read_text("utf-8")


def test_a_page_is_rebuilt_even_when_its_markdown_looks_older(
    previewing: Previewing, monkeypatch: pytest.MonkeyPatch
) -> None:
    # File systems with coarse clocks can give the Markdown written now the time of the HTML
    # written by the previous build: MkDocs would then think the page is up to date.
    real_write = serve.Preview._write

    def write_with_old_times(
        self: serve.Preview, files: dict[str, str | bytes], partial: bool = False
    ) -> set[str]:
        changed = real_write(self, files, partial)
        for relative in changed:
            if (self.content / relative).exists():
                os.utime(self.content / relative, ns=(0, 0))
        return changed

    monkeypatch.setattr(serve.Preview, "_write", write_with_old_times)
    replace_in(previewing.project.games_dir / "mini-game.yaml", "bgg_rank: 9999", "bgg_rank: 4321")
    previewing.rebuild()
    assert "#4321" in previewing.page("en/games/mini-game/index.html")


def test_site_name_and_template_changes_show_up(previewing: Previewing) -> None:
    project = previewing.project
    replace_in(project.site_file, "site_name: Rulesite", "site_name: Renamed Rules")
    said = previewing.rebuild()
    assert re.fullmatch(r"rulesite: built en: whole \(\d+\.\d s\); \d+\.\d s in all", said[0])
    header = '<span class="md-ellipsis">\n            Renamed Rules\n          </span>'
    assert header in previewing.page("en/games/mini-game/index.html")
    assert "Renamed Rules" not in previewing.page("games/mini-game/index.html")
    template = project.templates_dir / "pages" / "rules.md.j2"
    template.write_text(template.read_text("utf-8") + "\ntemplate-marker\n", "utf-8")
    said = previewing.rebuild()
    assert re.fullmatch(
        r"rulesite: built zh: 8 pages \(.*\), en: 8 pages \(.*\); .* in all", said[-1]
    ), said
    for page in ("games/other-game/rules/index.html", "en/games/mini-game/rules/index.html"):
        assert "template-marker" in previewing.page(page)
    previewing.assert_like_a_build()


def test_a_theme_change_rebuilds_everything(previewing: Previewing) -> None:
    css = previewing.project.templates_dir / "theme" / "assets" / "rulesite.css"
    css.write_text(css.read_text("utf-8") + "\n.rs-marker { color: red }\n", "utf-8")
    said = previewing.rebuild()
    assert re.match(r"rulesite: built zh: whole .*, en: whole ", said[0])
    assert ".rs-marker" in previewing.page("en/assets/rulesite.css")
    previewing.assert_like_a_build()


def test_added_and_deleted_games_come_and_go(previewing: Previewing) -> None:
    games = previewing.project.games_dir
    (games / "third-game.yaml").write_text(other_game("third-game"), "utf-8")
    previewing.rebuild()
    assert "Other Game" in previewing.page("en/games/third-game/index.html")
    assert "games/third-game/" in previewing.page("en/index.html")
    (games / "other-game.yaml").unlink()
    previewing.rebuild()
    assert not (previewing.preview.site / "games" / "other-game").exists()
    assert not (previewing.preview.site / "en" / "games" / "other-game").exists()
    assert "games/other-game/" not in previewing.page("index.html")
    previewing.assert_like_a_build()


def test_invalid_data_keeps_the_last_good_pages_and_the_fix_shows_up(
    previewing: Previewing,
) -> None:
    site = previewing.preview.site
    before = tree_digest(site)
    game = previewing.project.games_dir / "mini-game.yaml"
    replace_in(game, "bgg_rank: 9999", "bgg_rank: many")
    replace_in(
        previewing.project.games_dir / "other-game.yaml",
        "  - id: other-game\n",
        "  - id: mini-game\n",
    )
    assert previewing.rebuild() == [
        "rulesite: data has errors; the preview keeps the last good pages",
        "data/games/mini-game.yaml:10: card.bgg_rank: expected a whole number, got text 'many'",
    ]
    assert tree_digest(site) == before
    replace_in(game, "bgg_rank: many", "bgg_rank: 4321")
    assert previewing.rebuild() == [
        "rulesite: data has errors; the preview keeps the last good pages",
        "data/games/other-game.yaml:85: scoring[0].id: calculator id 'mini-game' is also used "
        "in data/games/mini-game.yaml",
    ]
    replace_in(
        previewing.project.games_dir / "other-game.yaml",
        "  - id: mini-game\n",
        "  - id: other-game\n",
    )
    previewing.rebuild()
    assert "#4321" in previewing.page("en/games/mini-game/index.html")
    previewing.assert_like_a_build()


def test_an_unexpected_failure_is_retried_once_and_the_fix_shows_up(
    previewing: Previewing, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures = [RuntimeError("bad label \x1b[31m"), FileNotFoundError("mini-game.yaml")]
    real_render = serve.render_game_pages

    def render_failing_twice(*args: object) -> dict[str, str]:
        if failures:
            raise failures.pop(0)
        return real_render(*args)

    monkeypatch.setattr(serve, "render_game_pages", render_failing_twice)
    game = previewing.project.games_dir / "mini-game.yaml"
    replace_in(game, "bgg_rank: 9999", "bgg_rank: 4321")
    assert previewing.rebuild() == [
        "rulesite: rebuilding failed: RuntimeError: bad label \\x1b[31m; the preview keeps "
        "the last good pages; trying again",
        "rulesite: rebuilding failed: FileNotFoundError: mini-game.yaml; the preview keeps the "
        "last good pages; waiting for the next change",
    ]
    assert "#9999" in previewing.page("en/games/mini-game/index.html")
    replace_in(game, "bgg_rank: 4321", "bgg_rank: 5555")
    said = previewing.rebuild()
    assert len(said) == 2 and said[0].startswith("rulesite: built zh: 4 pages"), said
    assert "#5555" in previewing.page("en/games/mini-game/index.html")


def test_after_a_failed_build_the_next_build_is_whole(
    previewing: Previewing, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_build = serve.build_previews

    def failing_once(builds: list[PreviewBuild]) -> dict[str, float]:
        monkeypatch.setattr(serve, "build_previews", real_build)
        raise BuildError("MkDocs build failed: disk on fire")

    monkeypatch.setattr(serve, "build_previews", failing_once)
    game = previewing.project.games_dir / "mini-game.yaml"
    before = tree_digest(previewing.preview.site)
    replace_in(game, "bgg_rank: 9999", "bgg_rank: 4321")
    assert previewing.rebuild() == [
        "rulesite: cannot rebuild; the preview keeps the last good pages",
        "MkDocs build failed: disk on fire",
    ]
    assert tree_digest(previewing.preview.site) == before
    replace_in(game, "zh: 两张规则", "zh: 已改动的两张规则")
    said = previewing.rebuild()
    assert re.match(r"rulesite: built zh: whole .*, en: whole ", said[0])
    assert "#4321" in previewing.page("en/games/mini-game/index.html")
    previewing.assert_like_a_build()


def test_snapshot_leaves_out_a_file_deleted_during_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "kept.html").write_text("a", "utf-8")

    def walk_that_lists_a_deleted_file(folder: str) -> Iterator[tuple[str, list[str], list[str]]]:
        yield folder, [], ["deleted.html", "kept.html"]

    monkeypatch.setattr(files.os, "walk", walk_that_lists_a_deleted_file)
    assert list(snapshot(tmp_path)) == ["kept.html"]


def test_the_scratch_folder_goes_even_while_a_stopped_rebuild_still_writes_into_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A rebuild cut short by Ctrl-C writes on for a moment: the first two removals find the
    # folder filled again, as rmtree's "Directory not empty" race leaves it.
    really_remove = files.shutil.rmtree
    calls = []

    def remove_while_a_writer_writes(folder: Path, ignore_errors: bool = False) -> None:
        calls.append(folder)
        really_remove(folder, ignore_errors=ignore_errors)
        if len(calls) < 3:
            (folder / "languages").mkdir(parents=True)
            (folder / "languages" / "late.html").write_text("late", "utf-8")

    monkeypatch.setattr(files.shutil, "rmtree", remove_while_a_writer_writes)
    monkeypatch.setattr(files, "REMOVE_PAUSE", 0)
    with pytest.raises(KeyboardInterrupt), files.scratch_folder("rulesite-test-") as folder:
        (folder / "site").mkdir()
        raise KeyboardInterrupt  # what the preview's Ctrl-C brings, unchanged
    assert len(calls) == 3 and not folder.exists()
    assert capsys.readouterr().err == ""


def test_a_scratch_folder_that_cannot_go_is_named_and_changes_no_exit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(files.shutil, "rmtree", lambda folder, ignore_errors=False: None)
    monkeypatch.setattr(files, "REMOVE_PAUSE", 0)
    with files.scratch_folder("rulesite-test-") as folder:
        pass
    assert capsys.readouterr().err == (
        f"rulesite: could not remove the preview's scratch folder {folder}\n"
    )
    folder.rmdir()


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


def test_a_dirty_builds_index_is_completed_from_the_kept_pieces(tmp_path: Path) -> None:
    from rulesite.engine import search_pieces

    def index(*docs: tuple[str, str]) -> dict:
        return {"config": {"lang": ["en"]}, "docs": [{"location": at, "text": t} for at, t in docs]}

    whole = index(("", "home"), ("games/a/", "a"), ("games/a/#x", "ax"), ("games/b/", "b"))
    pages = ["", "games/a/", "games/b/"]
    assert search_pieces.whole_index(whole, tmp_path, pages, set(pages)) == whole
    # A dirty build of home and a (a's section gone), b gone, c new: in the build's page order.
    dirty = index(("", "home 2"), ("games/a/", "a 2"), ("games/c/", "c"))
    pages = ["", "games/a/", "games/c/"]
    assert search_pieces.whole_index(dirty, tmp_path, pages, set(pages)) == dirty
    kept = search_pieces.whole_index(index(("", "home 3")), tmp_path, pages, {""})
    assert kept == index(("", "home 3"), ("games/a/", "a 2"), ("games/c/", "c"))


def test_a_page_waits_for_the_next_version() -> None:
    from rulesite.serve.server import Versions

    versions = Versions()
    assert versions.wait(0, timeout=0.01) == 0  # no change: answered when the time is up
    versions.bump()
    assert versions.wait(0, timeout=5) == 1  # changed since: answered at once
