"""Live preview: MkDocs' own server plus a watcher that re-renders content/ from data/.

MkDocs reloads when content/ changes; it cannot know that content/ is generated, so this module
re-renders it whenever data/ or templates/pages change. Invalid data is reported and the last
good pages stay up, so an editor can fix the file while the preview keeps working.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from rulesite.build import SEARCH_TERMS, configure, render_content
from rulesite.errors import RulesiteError
from rulesite.project import Project

POLL_SECONDS = 0.5


def serve(project: Project, dev_addr: str) -> None:
    """Render once (errors are fatal here), then serve with live reload until interrupted."""
    import logging

    import mkdocs.commands.serve as mkdocs_serve_module

    # MkDocs' own CLI would set up its log output; we call it as a library, so do it here to
    # show "Serving on http://..." and rebuild messages.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    catalog, _ = render_content(project)
    terms = project.content_dir / SEARCH_TERMS
    stop = threading.Event()
    threading.Thread(target=_watch, args=(project, stop), daemon=True).start()

    # MkDocs' server reloads its config on every rebuild; wrap its loader so each reload gets
    # the site names and search dictionary that `rulesite build` takes from data/.
    original = mkdocs_serve_module.load_config

    def load_config(*args, **kwargs):
        config = original(*args, **kwargs)
        configure(config, catalog, terms)
        return config

    mkdocs_serve_module.load_config = load_config
    try:
        mkdocs_serve_module.serve(
            str(project.mkdocs_file), livereload=True, dev_addr=dev_addr, strict=False
        )
    finally:
        mkdocs_serve_module.load_config = original
        stop.set()


def _snapshot(folders: list[Path]) -> dict[Path, float]:
    return {
        path: path.stat().st_mtime
        for folder in folders
        if folder.exists()
        for path in folder.rglob("*")
        if path.is_file()
    }


def _watch(project: Project, stop: threading.Event) -> None:
    folders = [project.data_dir, project.templates_dir / "pages"]
    seen = _snapshot(folders)
    while not stop.wait(POLL_SECONDS):
        current = _snapshot(folders)
        if current == seen:
            continue
        seen = current
        time.sleep(0.1)  # let an editor finish writing
        try:
            _, count = render_content(project)
            print(f"rulesite: re-rendered {count} pages", file=sys.stderr)
        except RulesiteError as error:
            print(
                "rulesite: data has errors; the preview keeps the last good pages", file=sys.stderr
            )
            for line in error.lines():
                print(line, file=sys.stderr)
