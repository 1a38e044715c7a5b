"""A built site served over HTTP on 127.0.0.1, quietly, for a headless browser to read.

The benchmark's search measurement (``bench/search.py``) reads sites through it, and so do the
tests' browsers (``tests/helpers.serve_site``, under a sub-path as a publisher might host the
site): one server for both, in ``scripts/`` because scripts never import ``tests/``.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        # A browser that navigates on closes its connections mid-file (a broken pipe): that is
        # the reader's choice, not the site's fault, and its traceback only hides real output.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args: object, max_age: int | None = None, **kwargs: object) -> None:
        # Set before the base class's __init__, which answers the request at once.
        self.max_age = max_age
        """Seconds a browser may keep each file without asking again (``Cache-Control``), or
        None for no such header (a browser then guesses from ``Last-Modified``)."""
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        if self.max_age is not None:
            self.send_header("Cache-Control", f"max-age={self.max_age}")
        super().end_headers()


@contextlib.contextmanager
def serve(folder: Path, mount: str = "", max_age: int | None = None) -> Iterator[str]:
    """Serve ``folder`` at ``http://127.0.0.1:<port>/<mount>/`` (at ``/`` without ``mount``);
    yields that base URL, and stops the server on leaving. With ``max_age``, every file may be
    kept that many seconds by a browser, as a host with caching headers would let it (only for
    a folder that does not change while it is served)."""
    with contextlib.ExitStack() as stack:
        root = folder
        if mount:
            root = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            (root / mount).symlink_to(folder.resolve(), target_is_directory=True)
        handler = functools.partial(_QuietHandler, directory=str(root), max_age=max_age)
        server = _QuietServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            prefix = f"{mount}/" if mount else ""
            yield f"http://127.0.0.1:{server.server_address[1]}/{prefix}"
        finally:
            server.shutdown()
            server.server_close()
