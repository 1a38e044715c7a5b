"""Live preview: a watcher re-renders content/ from data/, and the preview site is rebuilt from it.

The watcher re-renders ``content/`` (one MkDocs project per language) whenever data/ or templates/
change; MkDocs' live-reload server watches ``content/``, rebuilds both languages into a preview
folder outside the project, assembles them as a real build does, and reloads the browser.
Invalid data is reported and the last good pages stay up, so an editor can fix the file while
the preview keeps working.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from rulesite.build import assemble_languages, build_languages, render_content
from rulesite.errors import RulesiteError
from rulesite.mkdocs_project import language_projects
from rulesite.project import Project
from rulesite.terminal import printable

POLL_SECONDS = 0.5
SETTLE_SECONDS = 0.1


def serve(project: Project, dev_addr: str) -> None:
    """Render and build once (errors are fatal here), then serve with live reload."""
    import logging

    from mkdocs.livereload import LiveReloadServer

    # MkDocs' own CLI would set up its log output; we call it as a library, so do it here to
    # show "Serving on http://..." and rebuild messages.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    host, _, port = dev_addr.rpartition(":")
    render_content(project)
    with tempfile.TemporaryDirectory(prefix="rulesite-preview-") as scratch:
        preview = Path(scratch) / "site"
        build_preview(project, preview)
        server = LiveReloadServer(
            builder=lambda: _rebuild(project, preview), host=host, port=int(port), root=str(preview)
        )
        server.watch(str(project.content_dir))
        stop = threading.Event()
        threading.Thread(target=_watch, args=(project, stop), daemon=True).start()
        try:
            server.serve()
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
            server.shutdown()


def build_preview(project: Project, preview: Path) -> None:
    """Build ``content/`` into ``preview`` (not strict), replacing it by rename when done."""
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=preview.parent))
    try:
        projects = language_projects(project.content_dir)
        builds = work / "languages"
        build_languages(project, projects, builds, strict=False)
        site = work / "site"
        assemble_languages({p.lang: builds / p.lang for p in projects}, site, whole=True)
        old = work / "old"
        if preview.exists():
            preview.rename(old)
        site.rename(preview)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _rebuild(project: Project, preview: Path) -> None:
    try:
        build_preview(project, preview)
    except RulesiteError as error:
        for line in error.lines():
            _say(line)


Snapshot = dict[str, tuple[int, int]]
"""Modification time (ns) and size of every file watched, by path."""


def _snapshot(folders: list[Path]) -> Snapshot:
    """The state of every file under ``folders``. Files and folders may come and go while it
    runs (an editor's temporary files, a deletion): whatever vanishes is simply left out."""
    state: Snapshot = {}
    for folder in folders:
        for parent, _, files in os.walk(folder):  # os.walk skips folders it cannot list
            for name in files:
                path = os.path.join(parent, name)
                try:
                    stat = os.stat(path)
                except OSError:  # deleted (or made unreadable) since it was listed
                    continue
                state[path] = (stat.st_mtime_ns, stat.st_size)
    return state


class _Watcher:
    """Re-renders content/ when a watched file changes; never stops over an error.

    Data errors are the editor's to fix: they are reported and the next change retries. Any
    other failure (a template bug, a file deleted halfway through a render) is reported in one
    line and retried once on its own, since a race is usually gone by the next poll.
    """

    def __init__(self, project: Project) -> None:
        self.project = project
        self.folders = [project.data_dir, project.templates_dir / "pages"]
        self.seen: Snapshot = {}
        self.retry = False
        try:
            self.seen = _snapshot(self.folders)
        except Exception as error:  # then the first poll re-renders, which does no harm
            _say(f"rulesite: watching failed: {type(error).__name__}: {printable(str(error))}")

    def poll(self) -> None:
        """One round: look for changes and re-render if there are any. Never raises."""
        try:
            current = _snapshot(self.folders)
            if current == self.seen and not self.retry:
                return
            self.seen = current
            time.sleep(SETTLE_SECONDS)  # let an editor finish writing
            retrying, self.retry = self.retry, False
            self.render(retrying)
        except Exception as error:  # the watcher must outlive any one failure
            _say(f"rulesite: watching failed: {type(error).__name__}: {printable(str(error))}")

    def render(self, retrying: bool) -> None:
        try:
            _, count = render_content(self.project)
        except RulesiteError as error:
            _say("rulesite: data has errors; the preview keeps the last good pages")
            for line in error.lines():
                _say(line)
        except Exception as error:  # reported, then retried: see the class
            self.retry = not retrying
            then = "trying again" if self.retry else "waiting for the next change"
            _say(
                f"rulesite: re-rendering failed: {type(error).__name__}: "
                f"{printable(str(error))}; the preview keeps the last good pages; {then}"
            )
        else:
            _say(f"rulesite: re-rendered {count} pages")


def _watch(project: Project, stop: threading.Event) -> None:
    watcher = _Watcher(project)
    while not stop.wait(POLL_SECONDS):
        watcher.poll()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
