"""The preview's web server: the preview's site folder over HTTP, with live reload.

A small server of our own on the standard library (``http.server``), not MkDocs' internal one:
it serves the folder as it is, answers a missing file with the site's own 404 page (as
``mkdocs serve`` does), and adds to every HTML page it sends (never to the files on disk, which
stay those of a build) a script that asks ``/.rulesite/reload`` whether the site has changed and
reloads the page when it has. The question is held open until the site changes or a minute
passes, so a saved edit shows as soon as its build is published.
"""

from __future__ import annotations

import contextlib
import errno
import http.server
import re
import socket
import threading
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from rulesite.errors import UsageError
from rulesite.serve.no_worker import UNREGISTER_SCRIPT, is_worker
from rulesite.terminal import printable

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


_ADDRESS = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.%\w]+)\]|(?P<host>[^:\[\]\s]+)):(?P<port>[0-9]{1,5})"
)
"""``HOST:PORT`` or ``[IPv6]:PORT``."""


def parse_address(dev_addr: str) -> tuple[str, int]:
    """``(host, port)`` of ``--dev-addr``; :class:`UsageError` with one line when malformed."""
    match = _ADDRESS.fullmatch(dev_addr)
    port = int(match["port"]) if match else -1
    if match is None or port > 65535:
        raise UsageError(
            f"--dev-addr {printable(dev_addr)}: write HOST:PORT, e.g. 127.0.0.1:8000 "
            "([::1]:8000 for IPv6), with a port from 0 to 65535"
        )
    return match["ipv6"] or match["host"], port


def open_server(
    dev_addr: str,
    site: Path,
    versions: Versions,
    log: Callable[[str], None],
    overlay: Callable[[], bytes] = lambda: b"",
) -> http.server.ThreadingHTTPServer:
    """The server of ``--dev-addr``, bound before anything is built: a user's mistake in the
    address (malformed, a port in use, a host that does not resolve) is one line and exit 2."""
    host, port = parse_address(dev_addr)
    shown = printable(dev_addr)
    try:
        return make_server(host, port, site, versions, log, overlay)
    except socket.gaierror as error:
        reason = f"host {printable(host)} cannot be resolved ({error.strerror})"
    except OverflowError:
        reason = "the port must be from 0 to 65535"
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            reason = f"port {port} is in use; stop what uses it or choose another port"
        elif error.errno in (errno.EACCES, errno.EPERM):
            reason = f"not allowed to listen on port {port}; choose one above 1023"
        elif error.errno == errno.EADDRNOTAVAIL:
            reason = f"{printable(host)} is not an address of this machine"
        else:
            reason = f"cannot listen there ({printable(error.strerror or str(error))})"
    raise UsageError(f"--dev-addr {shown}: {reason}")


def make_server(
    host: str,
    port: int,
    site: Path,
    versions: Versions,
    log: Callable[[str], None],
    overlay: Callable[[], bytes] = lambda: b"",
) -> http.server.ThreadingHTTPServer:
    """A server of ``site`` on ``host:port`` (not started: call ``serve_forever``); an IPv6
    address (``::1``) gets an IPv6 socket.

    ``overlay`` gives what to add to each page besides the reload script: the error overlay
    while the data has problems (``serve/overlay.py``). No page installs the offline worker
    (``serve/no_worker.py``).
    """

    class Handler(http.server.SimpleHTTPRequestHandler):
        """Files of the site; HTML with the reload script; the site's 404 page."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def do_GET(self) -> None:
            self._guarded(self._get)

        def do_HEAD(self) -> None:
            self._guarded(super().do_HEAD)

        def _guarded(self, answer: Callable[[], None]) -> None:
            # A request path no file can have (a NUL byte, a name too long for the system) is
            # a missing page, never a traceback and a 500.
            try:
                answer()
            except (ValueError, UnicodeError, OSError) as error:
                if isinstance(error, ConnectionError):
                    return  # the browser went away
                self.close_connection = True
                with contextlib.suppress(OSError, ValueError):
                    self.send_error(404)

        def _get(self) -> None:
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
            number = int(since) if since.isascii() and since.isdigit() and len(since) < 19 else -1
            version = versions.wait(number, HOLD_SECONDS)
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

    server = _Server((host, port), Handler, bind_and_activate=False)
    if ":" in host:
        server.address_family = socket.AF_INET6
        server.socket = socket.socket(socket.AF_INET6, server.socket_type)
    try:
        server.server_bind()
        server.server_activate()
    except BaseException:
        server.server_close()
        raise
    server.daemon_threads = True
    shown = f"[{host}]" if ":" in host else host
    log(f"rulesite: serving on http://{shown}:{server.server_address[1]}/")
    return server


class _Server(http.server.ThreadingHTTPServer):
    """The preview's server: a failed request is one line, never a traceback."""

    def handle_error(self, request: object, client_address: object) -> None:
        import sys

        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return
        print(
            f"rulesite: a request failed: {type(error).__name__}: {printable(str(error))}",
            file=sys.stderr,
        )
