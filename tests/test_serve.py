"""Live preview: editing data re-renders the page; a mistake is reported and the preview stays."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

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
    assert "data/games/mini-game.yaml:10: card.bgg_rank: input should be a valid integer" in output
    assert "Traceback" not in output
