"""A long build shows what it is doing (issue 17, item 6): its stages on standard error, and
each language's counts on one rewritten line on a terminal, else a line every tenth or 30 s."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from rulesite.engine import progress as page_progress
from rulesite.publish.progress import Progress
from tests.projects import make_project


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def progress(tty: bool) -> tuple[io.StringIO, Clock, Progress]:
    """A build's progress written into a string, on a clock the test moves."""
    out, clock = io.StringIO(), Clock()
    return out, clock, Progress(out, tty=tty, clock=clock)


def test_off_a_terminal_a_line_at_every_tenth_or_every_30_seconds() -> None:
    out, clock, shown = progress(tty=False)
    shown.stage("building zh, en")
    for done in range(1, 101):
        clock.now += 0.01
        shown.count("zh", "pages", done, 100)
    lines = out.getvalue().splitlines()
    assert lines[0] == "rulesite: building zh, en…"
    # one line per tenth, never one per page
    assert len(lines) == 11 and lines[-1] == "  zh 100/100 pages"
    out.truncate(0), out.seek(0)
    shown.stage("building en")
    shown.count("en", "pages", 1, 1000)
    clock.now += 31  # a slow stretch: a line after 30 s even without a tenth done
    shown.count("en", "pages", 2, 1000)
    shown.count("en", "pages", 3, 1000)
    assert out.getvalue().splitlines() == ["rulesite: building en…", "  en 2/1,000 pages"]


def test_on_a_terminal_one_line_is_rewritten_and_ended_by_the_next_stage() -> None:
    out, clock, shown = progress(tty=True)
    shown.stage("rendering zh, en")
    for done in range(1, 5):
        clock.now += 1
        shown.count("zh", "games", done, 4)
        shown.count("en", "games", done - 1, 4)
    shown.stage("publishing")
    shown.done()
    text = out.getvalue()
    assert text.startswith("rulesite: rendering zh, en…\n\r  zh 1/4 games\x1b[K\r")
    assert "\r  zh 4/4 games, en 3/4 games\x1b[K\nrulesite: publishing…\n" in text
    assert text.endswith("publishing…\n")


def test_the_plugin_counts_pages_for_a_listener_and_is_silent_without_one() -> None:
    heard: list[tuple[str, int, int]] = []
    page_progress.listen(lambda unit, done, total: heard.append((unit, done, total)))
    try:
        page_progress.pages_started(1, page_progress.CONVERTED)
        page_progress.page_done()
        page_progress.pages_started(1, page_progress.WRITTEN)
        page_progress.page_done()
    finally:
        page_progress.listen(None)
    page_progress.pages_started(5)
    page_progress.page_done()
    converted, written = page_progress.CONVERTED, page_progress.WRITTEN
    assert heard == [(converted, 0, 1), (converted, 1, 1), (written, 0, 1), (written, 1, 1)]


def test_build_names_its_stages_and_counts_on_standard_error(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    result = subprocess.run(
        [sys.executable, "-m", "rulesite", "build"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "RULESITE_SITE_URL": "https://example.org/"},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    stages = [line for line in lines if line.startswith("rulesite: ")]
    assert stages == [
        "rulesite: checking 1 game…",
        "rulesite: rendering zh, en…",
        "rulesite: building zh, en…",
        "rulesite: publishing…",
    ]
    # Each language's pages, counted to the end (a log gets the last tenth as a line).
    built = lines[
        lines.index("rulesite: building zh, en…") + 1 : lines.index("rulesite: publishing…")
    ]
    assert built and all(line.startswith("  ") for line in built)
    for lang in ("zh", "en"):
        pages = len(list((project / "content" / lang / "docs").rglob("*.md")))
        assert any(f"{lang} {pages}/{pages} pages written" in line for line in built), built
    rendered = lines[lines.index("rulesite: rendering zh, en…") + 1 : lines.index(built[0]) - 1]
    # the last count line has every language's count, complete
    assert "zh 1/1 games rendered" in rendered[-1] and "en 1/1 games rendered" in rendered[-1]
    assert result.stdout.startswith("built site: 1 games, 28 pages")
