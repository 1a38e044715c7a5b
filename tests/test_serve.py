"""Live preview: editing data re-renders the page; a mistake is reported and the preview stays."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import make_project


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, needle: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                last = response.read().decode("utf-8")
            if needle in last:
                return last
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{needle!r} never appeared at {url}")


def test_serve_rerenders_on_data_change_and_survives_mistakes(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesite", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/en/games/mini-game/"
    game = root / "data" / "games" / "mini-game.yaml"
    try:
        wait_for(url, "#9999")
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 9999", "bgg_rank: 4321"), "utf-8"
        )
        wait_for(url, "#4321")
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 4321", "bgg_rank: 5555"), "utf-8"
        )
        wait_for(url, "#5555")  # a second edit is picked up too
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 5555", "bgg_rank: many"), "utf-8"
        )
        deadline = time.monotonic() + 30
        while "card.bgg_rank" not in (tmp_path / "serve.log").read_text("utf-8"):
            assert time.monotonic() < deadline, "the mistake was never reported"
            time.sleep(0.3)
        assert "#5555" in wait_for(url, "#5555")  # the last good page is still served
        assert process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
    output = (tmp_path / "serve.log").read_text("utf-8")
    assert (
        "data/games/mini-game.yaml:10: card.bgg_rank: expected a whole number, got text 'many'"
        in output
    )
    assert "Traceback" not in output


# The watcher on its own, without a server: it must outlive every failure and pick up the fix.


def test_snapshot_leaves_out_a_file_deleted_during_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesite import serve

    (tmp_path / "kept.yaml").write_text("a: 1\n", "utf-8")

    def walk_that_lists_a_deleted_file(folder: Path) -> Iterator[tuple[str, list[str], list[str]]]:
        yield str(folder), [], ["deleted.yaml", "kept.yaml"]

    monkeypatch.setattr(serve.os, "walk", walk_that_lists_a_deleted_file)
    assert list(serve._snapshot([tmp_path])) == [str(tmp_path / "kept.yaml")]


def test_watcher_reports_a_failed_render_keeps_watching_and_shows_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesite import serve
    from rulesite.project import Project

    project = Project(make_project(tmp_path / "p"))
    game = project.data_dir / "games" / "mini-game.yaml"
    overview = project.content_dir / "en" / "docs" / "games" / "mini-game" / "index.md"
    failures = [RuntimeError("bad label \x1b[31m"), FileNotFoundError("mini-game.yaml")]
    real_render = serve.render_content

    def render_failing_twice(project: Project) -> tuple[object, int]:
        if failures:
            raise failures.pop(0)
        return real_render(project)

    said: list[str] = []
    monkeypatch.setattr(serve, "render_content", render_failing_twice)
    monkeypatch.setattr(serve, "_say", said.append)
    monkeypatch.setattr(serve, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(serve, "SETTLE_SECONDS", 0.0)
    stop = threading.Event()
    watcher = threading.Thread(target=serve._watch, args=(project, stop))
    watcher.start()
    try:
        time.sleep(0.3)  # the watcher has taken its first snapshot
        replace_in(game, "bgg_rank: 9999", "bgg_rank: 4321")
        wait_until(lambda: len(said) == 2)  # the change, then the retry: both failed
        time.sleep(0.3)
        assert len(said) == 2 and not overview.exists()  # no retry without a change
        replace_in(game, "bgg_rank: 4321", "bgg_rank: 5555")  # the fix
        wait_until(lambda: overview.exists() and "5555" in overview.read_text("utf-8"))
        assert watcher.is_alive()
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert said[:2] == [
        "rulesite: re-rendering failed: RuntimeError: bad label \\x1b[31m; the preview keeps "
        "the last good pages; trying again",
        "rulesite: re-rendering failed: FileNotFoundError: mini-game.yaml; the preview keeps the "
        "last good pages; waiting for the next change",
    ]
    assert re.fullmatch(r"rulesite: re-rendered \d+ pages", said[2])
    assert len(said) == 3


def test_watcher_survives_a_failing_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulesite import serve
    from rulesite.project import Project

    project = Project(make_project(tmp_path / "p"))
    watcher = serve._Watcher(project)
    said: list[str] = []
    monkeypatch.setattr(serve, "_say", said.append)
    real_snapshot = serve._snapshot

    def snapshot_failing_once(folders: list[Path]) -> serve.Snapshot:
        monkeypatch.setattr(serve, "_snapshot", real_snapshot)
        raise PermissionError("data/games")

    monkeypatch.setattr(serve, "_snapshot", snapshot_failing_once)
    watcher.poll()
    assert said == ["rulesite: watching failed: PermissionError: data/games"]
    watcher.poll()  # scans again; nothing changed
    assert said == ["rulesite: watching failed: PermissionError: data/games"]


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


def wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
