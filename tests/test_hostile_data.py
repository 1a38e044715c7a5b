"""Hostile text in every kind of data field never reaches a built page as active content."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from rulesite.build import build
from rulesite.project import Project
from tests.helpers import GOOD, REPO, make_project, serve_site

PAYLOADS = [
    "<script>alert('p1')</script>",
    "<img src=x onerror=alert('p2')>",
    "[click me](javascript:alert('p3'))",
    "\"><svg onload=alert('p4')>",
    "</title><script>alert('p5')</script>",
    "<a href=\"javascript:alert('p6')\">link</a>",
    "![pic](javascript:alert('p7'))",
    "<iframe src=\"javascript:alert('p8')\"></iframe>",
    "[x](JaVaScRiPt:alert('p9'))",
    "<details open ontoggle=alert('p10')>",
]

# Markup that may only appear in a page if a payload got through.
MATERIAL_INLINE_SCRIPTS = ("__md_scope=", "var target=document.getElementById(location.hash")
"""The theme's own inline scripts (the same on every page of every site)."""
EMBEDDED = {"iframe", "img", "svg", "details", "object", "embed", "form", "input"}
"""Elements no data text may create inside the page content (the theme has its own icons)."""


class ActiveContentFinder(HTMLParser):
    """Parses a page like a browser would and lists whatever could run."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_article = 0
        self.script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if (
                name in ("href", "src", "action", "formaction")
                and value
                and (re.sub(r"[\s\x00-\x1f]", "", value).lower().startswith("javascript:"))
            ):
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag == "article":
            self.in_article += 1
        if self.in_article and tag in EMBEDDED:
            self.found.append(f"<{tag}> in the page content")
        if tag == "script":
            self.script = named

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.in_article -= 1
        if tag == "script":
            self.script = None

    def handle_data(self, data: str) -> None:
        script = self.script
        if script is None or "src" in script or script.get("type") == "application/json":
            return
        if not data.strip().startswith(MATERIAL_INLINE_SCRIPTS):
            self.found.append(f"inline script {data.strip()[:40]!r}")


def active_content(html: str) -> list[str]:
    finder = ActiveContentFinder()
    finder.feed(html)
    return finder.found


def poison(data, payloads):
    """Append a payload to every text of a data tree (every {zh, en} pair and every name)."""
    if isinstance(data, dict):
        if set(data) == {"zh", "en"}:
            return {lang: f"{text} {next(payloads)}" for lang, text in data.items()}
        return {
            key: poison(value, payloads) if key != "id" else value for key, value in data.items()
        }
    if isinstance(data, list):
        return [poison(item, payloads) for item in data]
    return data


def poison_example_names(game: dict, payloads) -> None:
    for calc in game["scoring"]:
        for example in calc["examples"]:
            for player in example["players"]:
                player["name"] = next(payloads)
            example["winners"] = [example["players"][0]["name"]]


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> tuple[Path, int]:
    payloads = itertools.cycle(PAYLOADS)
    game = yaml.safe_load((GOOD / "games" / "mini-game.yaml").read_text(encoding="utf-8"))
    site = yaml.safe_load((REPO / "data" / "site.yaml").read_text(encoding="utf-8"))
    counter = itertools.count()
    counted = (p for p in payloads if next(counter) >= 0)
    game = poison(game, counted)
    poison_example_names(game, counted)
    site = {**poison(site, counted), "zh": site["zh"], "en": site["en"]}
    root = make_project(
        tmp_path_factory.mktemp("hostile") / "p",
        games={"mini-game.yaml": yaml.safe_dump(game, allow_unicode=True, sort_keys=False)},
    )
    (root / "data" / "site.yaml").write_text(
        yaml.safe_dump(site, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    project = Project(root)
    build(project)
    return project.site_dir, next(counter)


def test_payloads_were_planted_everywhere(hostile_site) -> None:
    site_dir, planted = hostile_site
    assert planted > 150  # every text of the game, the site labels and the example names
    import html

    text = " ".join(html.unescape(p.read_text("utf-8")) for p in site_dir.rglob("*.html"))
    for payload in PAYLOADS[:2] + PAYLOADS[4:6]:  # raw HTML is shown as text, not dropped
        assert payload in text, payload


def test_the_finder_finds_active_content() -> None:
    assert active_content('<a href=" JavaScript:x()">') != []
    assert active_content("<b onclick=x()>") != []
    assert active_content("<article><img src=x></article>") != []
    assert active_content("<script>alert(1)</script>") != []
    assert active_content('<meta content="&lt;svg onload=x&gt;">') == []


def test_no_page_carries_active_content(hostile_site) -> None:
    site_dir, _ = hostile_site
    pages = sorted(site_dir.rglob("*.html"))
    assert len(pages) >= 12
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert active_content(html) == [], page.relative_to(site_dir)


@pytest.mark.browser
def test_no_script_runs_in_the_browser(browser, hostile_site) -> None:
    site_dir, _ = hostile_site
    fired: list[str] = []
    context = browser.new_context()
    page = context.new_page()
    page.on("dialog", lambda d: (fired.append(d.message), d.dismiss()))
    with serve_site(site_dir) as base:
        paths = [
            "",
            "games/",
            "games/mini-game/",
            "games/mini-game/rules/",
            "games/mini-game/faq/",
            "games/mini-game/score/",
        ]
        for lang in ("", "en/"):
            for path in paths:
                page.goto(base + lang + path)
                for link in page.locator("article a:visible").all():
                    link.hover()  # hover handlers would fire now
                if path.endswith("score/"):
                    page.locator(".rs-calc__try").first.click()
                    page.locator("[data-action='share']").click()
    context.close()
    assert fired == []
