"""Screenshot built pages in headless Chromium (every language, phone and desktop) for review.

    .venv/bin/python -m tests.screenshots [--out tests/_artifacts/screens] [--full]
        [--site site] [--project .] [--scheme light|dark] [PATH ...]

Serves ``site/`` under a sub-path (``/rulesite/``), as a publisher might, and writes one PNG per
page, language and width. The languages and their folders are those of the project's
``data/site.yaml``. Paths are relative to the language root (default: Nations' pages).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from rulesite.catalog import load_site
from rulesite.engine.projects import site_path
from rulesite.project import Project
from tests.helpers import CHROMIUM, CHROMIUM_ARGS, serve_site

WIDTHS = {"phone": (360, 780), "desktop": (1280, 900)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="tests/_artifacts/screens")
    parser.add_argument("--site", default="site")
    parser.add_argument("--full", action="store_true", help="full-page screenshots")
    parser.add_argument("--project", default=".", help="the project the site was built from")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = args.paths or ["", "games/nations/", "games/nations/rules/", "games/nations/faq/"]
    languages = load_site(Project(Path(args.project).resolve())).languages
    with serve_site(Path(args.site)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, (width, height) in WIDTHS.items():
            page = browser.new_page(
                viewport={"width": width, "height": height}, color_scheme=args.scheme
            )
            for language in languages:
                lang = language.code
                for path in paths:
                    url = base + site_path(language) + path
                    page.goto(url)
                    slug = path.strip("/").replace("/", "_").replace("#", "@") or "home"
                    file = out / f"{lang}_{name}_{args.scheme}_{slug}.png"
                    page.screenshot(path=str(file), full_page=args.full)
                    print(file)
        browser.close()


if __name__ == "__main__":
    main()
