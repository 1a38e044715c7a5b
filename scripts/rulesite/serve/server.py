"""The preview's web server: the preview's site folder over HTTP, with live reload.

A small server of our own on the standard library (``http.server``), not MkDocs' internal one:
it serves the folder as it is, answers a missing file with the site's own 404 page (as
``mkdocs serve`` does), and adds to every HTML page it sends (never to the files on disk, which
stay those of a build) a script that asks ``/.rulesite/reload`` whether the site has changed and
reloads the page when it has. The question is held open until the site changes or a minute
passes, so a saved edit shows as soon as its build is published.
"""

from __future__ import annotations

import http.server
import threading
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from rulesite.serve.no_worker import UNREGISTER_SCRIPT, is_worker

RELOAD_PATH = "/.rulesite/reload"
"""Where a page asks whether the site changed since its version (``?since=N``)."""
HOLD_SECONDS = 60.0
"""How long the server holds that question open before answering "no change"."""
_RELOAD_SCRIPT = """<script>
(function () {
  var since = %d;
  function ask() {
    fetch("%s?since=" + since, {cache: "no-store"})
      .then(function (r) { return r.text(); })
      .then(function (v) { if (v !== String(since)) { location.reload(); } else { ask(); } })
      .catch(function () { setTimeout(ask, 1000); });
  }
  ask();
})();
</script>"""


class Versions:
    """The site's version: raised after each published rebuild; readers wait for a change."""

    def __init__(self) -> None:
        self._version = 0
        self._changed = threading.Condition()

    @property
    def current(self) -> int:
        return self._version

    def bump(self) -> None:
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def wait(self, since: int, timeout: float) -> int:
        """The version once it differs from ``since``, or after ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != since, timeout)
            return self._version


def make_server(
    host: str,
    port: int,
    site: Path,
    versions: Versions,
    log: Callable[[str], None],
    overlay: Callable[[], bytes] = lambda: b"",
) -> http.server.ThreadingHTTPServer:
    """A server of ``site`` on ``host:port`` (not started: call ``serve_forever``).

    ``overlay`` gives what to add to each page besides the reload script: the error overlay
    while the data has problems (``serve/overlay.py``). No page installs the offline worker
    (``serve/no_worker.py``).
    """

    class Handler(http.server.SimpleHTTPRequestHandler):
        """Files of the site; HTML with the reload script; the site's 404 page."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def do_GET(self) -> None:
            url = urllib.parse.urlsplit(self.path)
            if url.path == RELOAD_PATH:
                return self._answer_reload(url.query)
            if is_worker(url.path):
                return self.send_error(404)
            path = Path(self.translate_path(self.path))
            if path.is_dir() and url.path.endswith("/"):
                path = path / "index.html"
            if path.suffix == ".html" and path.is_file():
                return self._send_page(path)
            return super().do_GET()

        def _answer_reload(self, query: str) -> None:
            since = urllib.parse.parse_qs(query).get("since", ["0"])[0]
            version = versions.wait(int(since) if since.isdigit() else -1, HOLD_SECONDS)
            self._send(200, "text/plain; charset=utf-8", str(version).encode())

        def _send_page(self, path: Path, status: int = 200) -> None:
            try:
                html = path.read_bytes()
            except OSError:
                return self.send_error(404)
            script = (_RELOAD_SCRIPT % (versions.current, RELOAD_PATH)).encode()
            script += UNREGISTER_SCRIPT + overlay()
            at = html.rfind(b"</body>")
            html = html[:at] + script + html[at:] if at >= 0 else html + script
            self._send(status, "text/html; charset=utf-8", html)

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def send_error(self, code: int, message: str | None = None, explain=None) -> None:
            page = site / "404.html"
            if code == 404 and page.is_file():
                return self._send_page(page, status=404)
            return super().send_error(code, message, explain)

        def end_headers(self) -> None:
            # Always the current build: no browser cache between two edits.
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass  # one line per request would drown the builds' reports

    server = http.server.ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    log(f"rulesite: serving on http://{host}:{server.server_address[1]}/")
    return server
