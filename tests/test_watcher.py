"""The preview's watcher: the system's file events where it has them, polling where it has not;
a change under a watched path starts a rebuild, a change beside a watched file does not."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingEmitter

from rulesite.serve import watcher as watching
from rulesite.serve.watcher import Watcher

SECONDS = 10.0
"""How long a rebuild may take to start after a save (an event arrives in milliseconds; a poll
in POLL seconds)."""
POLL = 0.05


class _NoEvents(BaseObserver):
    """An observer whose events cannot be had, as when inotify's limits are reached."""

    def __init__(self) -> None:
        super().__init__(PollingEmitter)

    def start(self) -> None:
        raise OSError(28, "inotify watch limit reached")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "data" / "games").mkdir(parents=True)
    (tmp_path / "data" / "games" / "a.yaml").write_text("slug: a\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    return tmp_path


def _watching(project: Path, rebuilt: threading.Event) -> Watcher:
    watcher = Watcher([project / "data", project / "mkdocs.yml"], rebuilt.set, POLL)
    watcher.start()
    return watcher


def _saved_and_rebuilt(project: Path, watcher: Watcher, rebuilt: threading.Event) -> bool:
    """Save a game as editors do (a new file moved over the old one); whether a rebuild came."""
    try:
        scratch = project / "a.yaml.tmp"  # beside mkdocs.yml, which is watched: not a change
        scratch.write_text("slug: a\ntitle: changed\n", encoding="utf-8")
        scratch.replace(project / "data" / "games" / "a.yaml")
        return rebuilt.wait(SECONDS)
    finally:
        watcher.stop()


def test_a_save_starts_a_rebuild_from_the_systems_events(project: Path) -> None:
    rebuilt = threading.Event()
    watcher = _watching(project, rebuilt)
    assert not watcher.polls
    assert _saved_and_rebuilt(project, watcher, rebuilt)


def test_without_the_systems_events_the_files_are_polled(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watching, "Observer", _NoEvents)
    rebuilt = threading.Event()
    watcher = _watching(project, rebuilt)
    assert watcher.polls
    assert _saved_and_rebuilt(project, watcher, rebuilt)


def test_a_file_beside_a_watched_file_is_no_change(project: Path) -> None:
    rebuilt = threading.Event()
    watcher = _watching(project, rebuilt)
    try:
        (project / "notes.txt").write_text("not the site's\n", encoding="utf-8")
        assert not rebuilt.wait(1.0)
        (project / "mkdocs.yml").write_text("site_name: y\n", encoding="utf-8")
        assert rebuilt.wait(SECONDS)
    finally:
        watcher.stop()
