"""The build's processes: a language's game pages shared between two of them, what happens when
one of them stops, and the process that writes the shared pages (``forked.in_process``)."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

from rulesite import forked
from rulesite.errors import BuildError
from rulesite.project import Project
from rulesite.publish import build as build_module
from rulesite.publish import builders, workers
from rulesite.publish.build_cache import CACHE_DIR
from rulesite.render.renderer import Renderer
from tests.projects import make_project


def _share(root: Path) -> workers.Share:
    ctx = forked.context()
    return workers.Share("zh", root, ctx.Value("i", 0), ctx.RawValue("i", -1), ctx.Event())


def _take_all(sender, share: workers.Share, games: int) -> None:
    sender.send(list(share.take(games)))
    sender.close()


def test_a_share_gives_each_game_to_exactly_one_process(tmp_path: Path) -> None:
    share = _share(tmp_path)
    ctx = forked.context()
    pipes, processes = [], []
    for _ in range(3):
        receiver, sender = ctx.Pipe(duplex=False)
        process = ctx.Process(target=_take_all, args=(sender, share, 500))
        process.start()
        sender.close()
        pipes.append(receiver)
        processes.append(process)
    taken = [index for receiver in pipes for index in receiver.recv()]
    for process in processes:
        process.join()
    assert sorted(taken) == list(range(500))  # every game once, none twice
    assert list(share.take(500)) == []  # and none is left


def _stop(sender) -> None:
    sender.close()
    os._exit(3)


def test_a_process_that_stops_without_an_outcome_is_reported_and_heard() -> None:
    heard: list[str] = []
    outcomes = workers.run([("en", _stop, ())], stopped=lambda: heard.append("stopped"))
    assert outcomes["en"].problems == ["MkDocs build of 'en' stopped (exit 3)"]
    assert heard == ["stopped"]


def _fail_once_built(sender, sent) -> None:
    sender.send(workers.Outcome(0.0, ["zh: a page cannot be rendered"]))
    sender.close()
    sent.set()


def _build_nothing(sender) -> None:
    sender.send(workers.Outcome(0.0, None))
    sender.close()


def test_a_language_that_fails_while_its_builder_ends_is_reported_once() -> None:
    """The language's failure and its builder's outcome arrive together: the builder is
    stopped for the failure, and its outcome, already there, is not read (it was a KeyError)."""
    ctx = forked.context()
    sent = ctx.Event()
    outcome, outcome_sender = ctx.Pipe(duplex=False)
    settings, _ = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_build_nothing, args=(outcome_sender,), daemon=True)
    process.start()
    outcome_sender.close()
    builder = builders.Builder("zh", process, settings, outcome)

    def both_sent() -> None:
        sent.wait(10)
        process.join(10)

    outcomes = workers.run(
        [("zh", _fail_once_built, (sent,))], meanwhile=both_sent, builders={"zh": builder}
    )
    assert outcomes["zh"].problems == ["zh: a page cannot be rendered"]
    assert not process.is_alive()


def test_the_languages_that_split_words_with_jieba_share_their_games(tmp_path: Path) -> None:
    from rulesite.catalog import load_site
    from rulesite.engine.projects import language_projects

    site = load_site(Project(make_project(tmp_path / "project")))
    projects = language_projects(tmp_path / "content", site)
    given, helps = build_module._shares(projects)
    heavy = {p.lang for p in projects if p.language.search.jieba}
    light = [p.lang for p in projects if not p.language.search.jieba]
    assert heavy and light  # the real site has both kinds
    assert set(given) == heavy
    assert set(helps) <= set(light)
    assert sorted(s.lang for shares in helps.values() for s in shares) == sorted(heavy)


def test_a_helper_that_dies_in_a_share_fails_the_build_instead_of_hanging_it(
    tmp_path: Path, monkeypatch
) -> None:
    """The process helping with the Chinese pages dies before it finished its part: the
    Chinese process, waiting for that part, gives up; the build fails with the helper's end."""
    own, every_game = Renderer.pages_of_game, Renderer.pages_of_all_games
    taken = tmp_path / "helper-took-a-game"

    def pages_of_all_games(self, lang):
        self.owns = (*getattr(self, "owns", ()), lang)
        # The language's own process leaves the helper a game to take (and die on).
        for _ in range(600):
            if taken.exists():
                break
            time.sleep(0.1)
        return every_game(self, lang)

    def pages_of_game(self, game, lang):
        if lang not in getattr(self, "owns", ()):  # only a helper renders another's game
            taken.touch()
            os._exit(3)
        return own(self, game, lang)

    monkeypatch.setattr(Renderer, "pages_of_all_games", pages_of_all_games)
    monkeypatch.setattr(Renderer, "pages_of_game", pages_of_game)
    # Shares are a big catalogue's (a small one's builders read the pages as they arrive).
    monkeypatch.setattr(builders, "WARM_GAMES", 0)
    project = Project(make_project(tmp_path / "project"))
    failed: list[BaseException] = []

    def run() -> None:
        try:
            build_module.build(project)
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=180)
    assert not thread.is_alive(), "the build waits for a share nobody will finish"
    assert len(failed) == 1 and isinstance(failed[0], BuildError), failed
    assert "MkDocs build of 'en' stopped (exit 3)" in str(failed[0])
    assert not project.site_dir.exists()


def test_the_build_writes_the_shared_pages_in_another_process_and_keeps_what_it_made(
    tmp_path: Path, monkeypatch
) -> None:
    """The rest of the projects (site-wide pages, exports) is written by a process of its own;
    the build keeps the page keys and exports that process made, for the next build."""
    from rulesite.catalog import load_catalog
    from rulesite.engine.projects import configured_site_url
    from rulesite.publish import incremental

    writers = tmp_path / "writers"
    write_content = build_module.write_content

    def recording(*args, **kwargs):
        with writers.open("a") as file:
            file.write(f"{os.getpid()}\n")
        return write_content(*args, **kwargs)

    monkeypatch.setattr(build_module, "write_content", recording)
    project = Project(make_project(tmp_path / "project"))
    build_module.build(project)
    (writer,) = writers.read_text().split()  # written once, by another process
    assert int(writer) != os.getpid()
    cache = project.root / CACHE_DIR
    catalog = load_catalog(project)
    manifest = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    made = incremental.render_keys(project, catalog, configured_site_url(project))
    assert made and manifest["render"] == made
    exported = json.loads((cache / "export.json").read_text(encoding="utf-8"))
    assert sorted(exported) == sorted(game.slug for game in catalog.games)
