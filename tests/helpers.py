"""Shared test helpers: fixture projects made from the real templates and config."""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import tempfile
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium; tests never download a browser."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Flags for a sandboxed, offline CI machine (no background calls to Google's hosts)."""
AXE = REPO / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core for the accessibility checks (from npm, pinned by tests/a11y/package-lock.json)."""
GOOD = REPO / "tests" / "data" / "good"
BAD = REPO / "tests" / "data" / "bad"
EXTRA_GAME = REPO / "tests" / "fixtures" / "extra-game" / "extra-game.yaml"
"""A valid game with a calculator, whose slug and calculator id no real game uses."""
EXTRA_IMAGES = EXTRA_GAME.parent / "images"
"""The extra game's pictures: ``make_project`` copies them to ``data/images/`` with the game."""
GAME_SCHEMA_LINE = "# yaml-language-server: $schema=../schema/game.schema.json"
"""The first line of every file in ``data/games/``."""


def make_project(
    target: Path, games: dict[str, str] | None = None, real_games: bool = False
) -> Path:
    """A project at ``target`` with the repo's config, templates and site data.

    ``games`` maps file names to YAML text; by default the good fixture game is used. With
    ``real_games`` the repo's own games are copied too.
    """
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copytree(REPO / "templates", target / "templates")
    games_dir = target / "data" / "games"
    games_dir.mkdir(parents=True)
    shutil.copy(REPO / "data" / "site.yaml", target / "data" / "site.yaml")
    if real_games:
        for path in (REPO / "data" / "games").glob("*.yaml"):
            shutil.copy(path, games_dir / path.name)
    if games is None:
        games = {p.name: p.read_text(encoding="utf-8") for p in (GOOD / "games").glob("*.yaml")}
    for name, text in games.items():
        (games_dir / name).write_text(text, encoding="utf-8")
    if EXTRA_GAME.name in games:
        shutil.copytree(EXTRA_IMAGES, target / "data" / "images", dirs_exist_ok=True)
    return target


THIRD_LANGUAGE = REPO / "tests" / "fixtures" / "third-language"
"""A project whose ``data/site.yaml`` declares a third language (zh-Hant) and one small game."""
_TOGGLE_NAMES = {"切换到深色模式": "切換到深色模式", "切换到浅色模式": "切換到淺色模式"}
"""The light/dark toggle's names (in the base ``mkdocs.yml``) in Traditional Chinese."""


def make_third_language_project(target: Path) -> Path:
    """The third-language fixture at ``target``, with the repo's config and templates.

    The toggle's names in ``mkdocs.yml`` are given per language; the copy adds zh-Hant ones.
    """
    shutil.copytree(THIRD_LANGUAGE / "data", target / "data")
    shutil.copytree(REPO / "templates", target / "templates")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for simplified, traditional in _TOGGLE_NAMES.items():
        config = config.replace(
            f"{{zh: {simplified},", f"{{zh: {simplified}, zh-Hant: {traditional},"
        )
    (target / "mkdocs.yml").write_text(config, encoding="utf-8")
    return target


def good_game_text() -> str:
    """The YAML text of the good fixture game."""
    return (GOOD / "games" / "mini-game.yaml").read_text(encoding="utf-8")


def other_game(slug: str = "other-game") -> str:
    """A second valid game: the fixture game under another slug, title and calculator id."""
    return (
        good_game_text()
        .replace("slug: mini-game", f"slug: {slug}")
        .replace("  - id: mini-game\n", f"  - id: {slug}\n")
        .replace("迷你游戏", "另一游戏")
        .replace("Mini Game", "Other Game")
    )


def extra_game_text() -> str:
    """The YAML text of the extra fixture game, as it would sit in ``data/games/``."""
    _, rest = EXTRA_GAME.read_text(encoding="utf-8").split("\n", 1)
    return f"{GAME_SCHEMA_LINE}\n{rest}"


@contextlib.contextmanager
def serve_site(site_dir: Path, mount: str = "rulesite") -> Iterator[str]:
    """Serve ``site_dir`` at ``http://127.0.0.1:<port>/<mount>/``; yields that base URL."""
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / mount).symlink_to(site_dir.resolve(), target_is_directory=True)
        handler = functools.partial(_QuietHandler, directory=root)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/{mount}/"
        finally:
            server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _ElementCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


def elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """(tag, attributes) of every element of ``html``, as a browser would read them."""
    collector = _ElementCollector()
    collector.feed(html)
    return collector.found
