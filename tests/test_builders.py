"""A clean build's MkDocs processes, started before the catalog (``publish/builders.py``): they
build what the languages' own processes would, and a builder that dies or has nothing to build
fails the build without hanging it or outliving it."""

from __future__ import annotations

import io
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from rulesite import forked
from rulesite.engine import arriving
from rulesite.errors import BuildError
from rulesite.project import Project
from rulesite.publish import build as build_module
from rulesite.publish import builders, workers
from rulesite.publish.language_build import Outcome
from rulesite.publish.progress import LanguageCounts, Progress
from rulesite.render.renderer import Renderer
from tests.helpers import tree_digest
from tests.projects import good_game_text, make_project, other_game

MARKER = ".rulesite-site"


def _project(folder: Path) -> Project:
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game("other-game")}
    return Project(make_project(folder, games))


def test_the_builders_import_the_engine_and_the_markdown_extensions_mkdocs_yml_names(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path / "p")
    text = project.mkdocs_file.read_text("utf-8")
    project.mkdocs_file.write_text(
        text.replace("markdown_extensions:\n", "markdown_extensions:\n  - pymdownx.details\n", 1),
        "utf-8",
    )
    names = builders._extension_modules(project)
    assert {"markdown.extensions.toc", "markdown.extensions.md_in_html"} <= set(names)
    assert "pymdownx.details" in names


def test_the_builders_build_every_language_as_the_languages_own_processes_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    notes = tmp_path / "built-by"
    real = builders.build_and_report

    def noted(sender: Any, build: Any) -> None:  # in a builder (forked from this process)
        with notes.open("a", encoding="utf-8") as file:
            file.write(f"{build.lang} {multiprocessing.current_process().name}\n")
        real(sender, build)

    monkeypatch.setattr(builders, "build_and_report", noted)
    by_builders = build_module.build(project, site_dir=tmp_path / "builders", clean=True)
    assert sorted(set(notes.read_text("utf-8").splitlines())) == [
        "en rulesite-build-en",
        "zh rulesite-build-zh",
    ]
    monkeypatch.setattr(builders, "WARM_GAMES", 0)  # a big catalogue's: loaded once handed
    build_module.build(project, site_dir=tmp_path / "cold", clean=True)
    monkeypatch.setattr(builders, "early", lambda *args: {})
    by_languages = build_module.build(project, site_dir=tmp_path / "languages", clean=True)
    expected = tree_digest(tmp_path / "languages")
    assert expected.pop(MARKER)  # names its folder's files
    for built in ("builders", "cold"):
        actual = tree_digest(tmp_path / built)
        assert actual.pop(MARKER)
        assert actual == expected, built
    assert by_builders.pages == by_languages.pages
    assert all(kb > 0 for kb in by_builders.memory_kb.values())
    assert not multiprocessing.active_children()


def _failed(project: Project, site: Path) -> str:
    """The error of a clean build of ``project`` into ``site``, which it must not have made,
    leaving no process of its own behind."""
    with pytest.raises(BuildError) as raised:
        build_module.build(project, site_dir=site, clean=True)
    assert not site.exists()
    assert not multiprocessing.active_children()
    return str(raised.value)


def test_a_builder_that_dies_fails_the_build_and_leaves_the_site_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")

    def dies(sender: Any, build: Any) -> None:
        if build.lang == "zh":
            os._exit(5)
        real(sender, build)  # the other language builds as ever

    real = builders.build_and_report
    monkeypatch.setattr(builders, "build_and_report", dies)
    assert "MkDocs build of 'zh' stopped (exit 5)" in _failed(project, tmp_path / "site")


def test_a_language_that_fails_to_render_stops_its_builder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    real = Renderer.pages_of_all_games

    def fails(self: Renderer, lang: str) -> Any:
        if lang == "en":
            raise BuildError("en: the home page cannot be rendered")
        return real(self, lang)

    monkeypatch.setattr(Renderer, "pages_of_all_games", fails)
    assert "en: the home page cannot be rendered" in _failed(project, tmp_path / "site")


def _rendered(sender: Any, kb: int) -> None:
    sender.send(Outcome(0.0, None, 3, kb))
    sender.close()


def _built(sender: Any) -> None:
    sender.send(Outcome(1.5, None, 3, 7))
    sender.close()


def test_a_language_has_its_builders_outcome_with_the_memory_of_both_its_processes() -> None:
    ctx = forked.context()
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_built, args=(sender,), daemon=True)
    process.start()
    sender.close()
    _, settings = ctx.Pipe(duplex=False)
    builder = builders.Builder("zh", process, settings, receiver)
    outcomes = workers.run([("zh", _rendered, (100,))], builders={"zh": builder})
    assert outcomes == {"zh": Outcome(1.5, None, 3, 107)}
    assert not process.is_alive()


def test_pages_arrive_while_the_builders_build_and_the_site_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rendering slowed down: each builder starts MkDocs before its pages are all there, waits
    for those that are not, and builds what the languages' own processes build."""
    project = _project(tmp_path / "p")
    waits = tmp_path / "waited"
    real_wait, real_pages = arriving.wait_for, Renderer.pages_of_game

    def noted_wait(path: str) -> None:  # in a builder
        if arriving.expecting() and not arriving.arrived(path):
            with waits.open("a", encoding="utf-8") as file:
                file.write(f"{multiprocessing.current_process().name} {path}\n")
        real_wait(path)

    def slow_pages(self: Renderer, game: Any, lang: str) -> Any:
        # Held until the language's builder waits for a game's page (MkDocs has started and
        # reached pages not written yet), for 10 s at most. A fixed second was too short once
        # on a loaded machine: the Chinese builder came after every page had arrived.
        waiting = f"rulesite-build-{lang} games/"
        deadline = time.monotonic() + 10.0
        while holding and time.monotonic() < deadline:
            if waits.exists() and waiting in waits.read_text("utf-8"):
                break
            time.sleep(0.05)
        return real_pages(self, game, lang)

    holding = [True]  # the build with builders only: the languages' own processes wait for none
    monkeypatch.setattr(arriving, "wait_for", noted_wait)
    monkeypatch.setattr(Renderer, "pages_of_game", slow_pages)
    by_builders = build_module.build(project, site_dir=tmp_path / "builders", clean=True)
    holding.clear()
    waited = waits.read_text("utf-8").splitlines()
    assert any(line.startswith("rulesite-build-zh games/") for line in waited), waited
    assert any(line.startswith("rulesite-build-en games/") for line in waited), waited
    monkeypatch.setattr(builders, "early", lambda *args: {})
    by_languages = build_module.build(project, site_dir=tmp_path / "languages", clean=True)
    expected, actual = tree_digest(tmp_path / "languages"), tree_digest(tmp_path / "builders")
    assert expected.pop(MARKER) and actual.pop(MARKER)
    assert actual == expected
    assert by_builders.pages == by_languages.pages
    assert not multiprocessing.active_children()


def test_a_language_that_fails_after_handing_over_its_build_stops_its_builder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    real = Renderer.pages_of_game

    def fails_last(self: Renderer, game: Any, lang: str) -> Any:
        if lang == "zh" and game.slug == "other-game":  # the builder has its build by now
            time.sleep(0.5)
            raise BuildError("zh: the last game cannot be rendered")
        return real(self, game, lang)

    monkeypatch.setattr(Renderer, "pages_of_game", fails_last)
    assert "zh: the last game cannot be rendered" in _failed(project, tmp_path / "site")


def test_content_counts_as_finished_only_once_every_page_arrived() -> None:
    """A builder of arriving pages reports its counts while its pages still render: the
    finished ``content/`` (the cache's digests) waits for the rendering processes too."""
    finished: list[str] = []
    shown = LanguageCounts(
        Progress(io.StringIO(), tty=False), ["zh", "en"], lambda: finished.append("all"), {"zh"}
    )
    shown("zh", "pages converted", 1, 10)
    shown("en", "games rendered", 2, 2)
    shown("en", "pages converted", 1, 10)
    assert finished == []  # every language builds, but zh's pages are still rendering
    shown.rendered("zh")
    shown("zh", "pages converted", 2, 10)
    assert finished == ["all"]
