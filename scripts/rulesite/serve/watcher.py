"""What the preview watches: ``data/``, ``templates/`` and ``mkdocs.yml``; a change starts a
rebuild, and changes made while one runs start one more after it.

Watched with ``watchdog`` (installed with MkDocs): the system's own file events where it has
them (inotify on Linux, FSEvents on macOS), which cost nothing while nobody edits and arrive at
once; polled when they cannot be had (inotify's limits reached), as ``mkdocs serve`` polls. A
poll is a stat per file: at 1,000 games a tenth of a second's polling took a fifth of a core
for as long as the preview ran, and slowed every rebuild it shared the process with.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

SETTLE_SECONDS = 0.05
"""After a change, a pause for the rest of the save (an editor writes a file in steps)."""


class Watcher(FileSystemEventHandler):
    """Runs ``rebuild`` in a thread of its own after changes under the watched paths."""

    def __init__(self, paths: list[Path], rebuild: Callable[[], None], poll: float) -> None:
        """``poll``: seconds between looks when the files must be polled."""
        super().__init__()
        self._rebuild = rebuild
        self._paths = paths
        self._poll = poll
        self._files = {path.resolve() for path in paths if path.is_file()}
        self._folders = {path.resolve() for path in paths if path.is_dir()}
        self._pending = threading.Event()
        self._stopping = threading.Event()
        self._observer: BaseObserver = self._scheduled(Observer())
        self._thread = threading.Thread(target=self._run, name="rulesite-rebuild", daemon=True)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed", "closed_no_write"):
            return  # reading a file changes nothing
        if event.is_directory and event.event_type == "modified":
            return  # a folder's time moves with every file in it: the file's event says it
        paths = [event.src_path, getattr(event, "dest_path", "")]
        if any(self._watched(Path(str(path)).resolve()) for path in paths if path):
            self._pending.set()

    def _watched(self, path: Path) -> bool:
        return path in self._files or any(path.is_relative_to(f) for f in self._folders)

    def _scheduled(self, observer: BaseObserver) -> BaseObserver:
        """``observer``, watching every path of this watcher for it."""
        for path in self._paths:
            if path.is_dir():
                observer.schedule(self, str(path), recursive=True)
            elif path.is_file():  # a file: watch its folder, keep its own events
                observer.schedule(self, str(path.parent), recursive=False)
        return observer

    @property
    def polls(self) -> bool:
        """Whether the files are polled (the system's file events could not be had)."""
        return isinstance(self._observer, PollingObserver)

    def start(self) -> None:
        try:
            self._observer.start()
        except OSError:  # e.g. inotify's watch or instance limit: the preview still works
            self._observer.unschedule_all()  # stops what it had started
            self._observer = self._scheduled(PollingObserver(timeout=self._poll))
            self._observer.start()
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._pending.set()
        self._observer.stop()
        self._observer.join()

    def _run(self) -> None:
        while True:
            self._pending.wait()
            if self._stopping.is_set():
                return
            self._stopping.wait(SETTLE_SECONDS)
            self._pending.clear()
            if self._stopping.is_set():
                return
            self._rebuild()
