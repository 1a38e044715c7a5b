"""Screenshot built pages in headless Chromium (zh and en, phone and desktop) for review.

    .venv/bin/python scripts/dev/screenshots.py [--out tests/_artifacts/screens] [PATH ...]

Serves ``site/`` under a sub-path (``/rulesite/``), as a publisher might, and writes one PNG per
page, language and width. Paths are relative to the language root (default: every game page).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
WIDTHS = {"phone": (360, 780), "desktop": (1280, 900)}


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="tests/_artifacts/screens")
    parser.add_argument("--site", default="site")
    parser.add_argument("--full", action="store_true", help="full-page screenshots")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = args.paths or ["", "games/nations/", "games/nations/rules/", "games/nations/faq/"]
    with serve_site(Path(args.site)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for lang in ("zh", "en"):
                for path in paths:
                    url = base + ("" if lang == "zh" else "en/") + path
                    page.goto(url)
                    slug = (path.strip("/").replace("/", "_") or "home")
                    file = out / f"{lang}_{name}_{slug}.png"
                    page.screenshot(path=str(file), full_page=args.full)
                    print(file)
        browser.close()


if __name__ == "__main__":
    main()
