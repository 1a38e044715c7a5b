"""What the preview tells the person running it: its own lines and MkDocs' warnings, on
standard error."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from multiprocessing.synchronize import Event

from rulesite.publish.mkdocs_run import DIRTY_BUILD_NOTICE


@contextlib.contextmanager
def logged_to_console(stopping: Event) -> Iterator[None]:
    """MkDocs' lines on standard error until ``stopping`` (an event) is set. MkDocs' own CLI
    would set up its log output; we call it as a library. The builds' progress comes from us;
    MkDocs' own lines are its warnings."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    handler.addFilter(lambda record: not record.getMessage().startswith(DIRTY_BUILD_NOTICE))
    # Stopped while it rebuilds, the preview removes its folder under the build: MkDocs'
    # complaints about the missing files (its processes' too) are not news.
    handler.addFilter(lambda record: not stopping.is_set())
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    logging.getLogger("mkdocs.commands.build").setLevel(logging.WARNING)
    try:
        yield
    finally:
        mkdocs_log.removeHandler(handler)


def say(line: str) -> None:
    """One line of the preview's news, on standard error at once."""
    print(line, file=sys.stderr, flush=True)
