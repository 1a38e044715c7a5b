"""Hostile text in every kind of data field never reaches a built page as active content."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from rulesite.catalog import load_catalog
from rulesite.engine.offline import OFFLINE_PAGE
from rulesite.errors import DataError
from rulesite.markup import unsafe_links
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import GOOD, REPO, elements, serve_site
from tests.projects import good_game_text, make_project

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
    # Attribute lists: an id that shadows the theme's config, a title that Material's tooltips
    # would insert as HTML, data-* that would make a paragraph a calculator, a stolen anchor.
    "{: #__config }",
    "\n{: #__config .rs-calc data-calculator=nations }",
    "[hover me](https://example.org/){: title=\"<img src=x onerror=alert('p11')>\" }",
    "\n\n## Fake {#scoring}\n\nafter",
    # Breaking out of a link or a table row that a title is interpolated into.
    "](https://evil.example/) [",
    "cell | break | row",
]

RENDERED_PAYLOADS = [p for p in PAYLOADS if not unsafe_links(p)]
REFUSED_PAYLOADS = [p for p in PAYLOADS if unsafe_links(p)]


def test_links_that_are_not_web_addresses_are_refused_at_validation(tmp_path) -> None:
    assert len(REFUSED_PAYLOADS) == 3
    game = yaml.safe_load(good_game_text())
    fields = [game["faq"][0]["answer"], game["rules"][0]["body"], game["rules"][1]["body"]]
    for field, payload in zip(fields, REFUSED_PAYLOADS, strict=True):
        field["en"] += f" {payload}"
    root = make_project(
        tmp_path / "p",
        games={"mini-game.yaml": yaml.safe_dump(game, allow_unicode=True, sort_keys=False)},
    )
    with pytest.raises(DataError) as caught:
        load_catalog(Project(root))
    lines = caught.value.lines()
    paths = [line.split(": ")[1] for line in lines]
    assert paths == ["rules[0].body.en", "rules[1].body.en", "faq[0].answer.en"]
    assert all("texts may only link to http:// or https:// addresses" in line for line in lines)


# Markup that may only appear in a page if a payload got through.
MATERIAL_INLINE_SCRIPTS = (
    "__md_scope=",
    "var target=document.getElementById(location.hash",
    'var palette=__md_get("__palette")',  # restores the reader's light/dark choice
)
"""The theme's own inline scripts (the same on every page of every site)."""
EMBEDDED = {"iframe", "img", "svg", "details", "object", "embed", "form", "input"}
"""Elements no data text may create inside the page content (the theme has its own icons)."""


TEMPLATE_EMBEDDED = {
    ("svg", "rs-aid__diagram"),  # the player aid's drawing (_player_aid.md.j2)
    ("svg", "rs-pad__qr"),  # the score pad's QR code (render/qr.py, with a site address)
    ("details", "rs-calc__notes"),  # a calculator's notes, folded (score.md.j2)
    ("details", "rs-checklist"),  # the setup checklist (_setup_checklist.md.j2)
    ("input", "rs-checklist__tick"),  # a checklist step's tick box (_setup_checklist.md.j2)
}
"""The embedded elements our templates write into the page content, each with its exact class:
no data text can set a class (test_data_sets_no_title_class_or_data_attribute), and any other
such element in an article is a payload that got through."""


def made_by_a_template(tag: str, attrs: dict[str, str | None]) -> bool:
    """Whether an element is one our templates write (``TEMPLATE_EMBEDDED``)."""
    return (tag, attrs.get("class") or "") in TEMPLATE_EMBEDDED


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
        if self.in_article and tag in EMBEDDED and not made_by_a_template(tag, named):
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
                # Names are one line of at most 40 characters.
                player["name"] = next(payloads).replace("\n", " ").strip()[:40]
            example["winners"] = [example["players"][0]["name"]]


SHORT_PAYLOADS = ("<svg onload=x>", "</text><a href=x>", "&lt;b&gt;")
"""Markup short enough for a phase title (the aid draws titles of at most 24 characters in SVG)."""


def poison_phase_titles(game: dict) -> None:
    for number, phase in enumerate(game.get("aid", {}).get("phases", [])):
        payload = SHORT_PAYLOADS[number % len(SHORT_PAYLOADS)]
        phase["title"] = {lang: f"{lang} {payload}" for lang in ("zh", "en")}


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> tuple[Path, int]:
    # Links that are not web addresses are refused at validation (see the test below); the
    # rest must be neutralised by rendering.
    payloads = itertools.cycle(RENDERED_PAYLOADS)
    game = yaml.safe_load((GOOD / "games" / "mini-game.yaml").read_text(encoding="utf-8"))
    site = yaml.safe_load((REPO / "data" / "site.yaml").read_text(encoding="utf-8"))
    counter = itertools.count()
    counted = (p for p in payloads if next(counter) >= 0)
    game = poison(game, counted)
    poison_example_names(game, counted)
    poison_phase_titles(game)
    # Braces in labels are refused at validation (placeholders only), so labels get the rest.
    label_payloads = (p for p in counted if "{" not in p)
    site = {**poison(site, label_payloads), "languages": site["languages"]}
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
    # What the templates write passes; the same element with another class, or another
    # element with a template's class, is found.
    for tag, css in TEMPLATE_EMBEDDED:
        assert active_content(f'<article><{tag} class="{css}"></article>') == []
    assert active_content('<article><svg class="rs-aid"></svg></article>') != []
    assert active_content('<article><svg class="rs-aid__diagram x"></svg></article>') != []
    assert active_content('<article><input class="rs-checklist"></article>') != []
    assert active_content('<article><details class="rs-calc__notes2"></article>') != []
    assert active_content("<article><details open></article>") != []


def test_ids_are_unique_and_the_theme_config_is_the_only_config(hostile_site) -> None:
    site_dir, _ = hostile_site
    for page in sorted(site_dir.rglob("*.html")):
        found = elements(page.read_text(encoding="utf-8"))
        ids = [attrs["id"] for _, attrs in found if "id" in attrs]
        duplicates = {i for i in ids if ids.count(i) > 1}
        assert duplicates == set(), page.relative_to(site_dir)
        # Every Material page has the theme's config; the offline page (offline.py) has none.
        expected = 0 if page.name == OFFLINE_PAGE else 1
        assert ids.count("__config") == expected, page.relative_to(site_dir)


def test_data_sets_no_title_class_or_data_attribute(hostile_site) -> None:
    site_dir, _ = hostile_site
    for page in sorted(site_dir.rglob("*.html")):
        found = elements(page.read_text(encoding="utf-8"))
        where = page.relative_to(site_dir)
        for tag, attrs in found:
            assert "<" not in (attrs.get("title") or ""), (where, tag, attrs)
            assert "evil.example" not in (attrs.get("href") or ""), (where, tag, attrs)
        calculators = [a for _, a in found if "rs-calc" in (a.get("class") or "").split()]
        # Only the template's calculator (mini-game has one) carries the calculator class.
        assert all(a.get("data-calculator") == "mini-game" for a in calculators), where
        assert len(calculators) <= 1, where


def test_titles_cannot_break_table_rows(hostile_site) -> None:
    site_dir, _ = hostile_site
    for lang in ("", "en/"):
        html = (site_dir / lang / "games" / "index.html").read_text(encoding="utf-8")
        body = html[html.index("<tbody>") : html.index("</tbody>")]
        rows = re.split(r"<tr[\s>]", body)[1:]  # rows carry data-* attributes (filters)
        assert len(rows) == 1  # one game
        assert rows[0].count("<td") == 4


def test_no_page_carries_active_content(hostile_site) -> None:
    site_dir, _ = hostile_site
    pages = sorted(site_dir.rglob("*.html"))
    assert len(pages) >= 12
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert active_content(html) == [], page.relative_to(site_dir)


BROWSER_CHECK = """() => ({
    configs: document.querySelectorAll('[id="__config"]').length,
    tooltips: JSON.parse(document.getElementById("__config").textContent)
        .features.includes("content.tooltips"),
    titled: [...document.querySelectorAll("article [title]")]
        .map((e) => e.getAttribute("title")).filter((t) => /[<>]/.test(t)),
})"""
"""What the browser sees: one theme config, tooltips still off, no title that holds markup."""


HOVER_EVERY_LINK = """() => {
    const links = [...document.querySelectorAll("article a")].filter((a) => a.checkVisibility());
    for (const link of links) {
        for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter",
                            "pointermove", "mousemove"]) {
            const bubbles = !type.endsWith("enter");
            const Event = type.startsWith("pointer") ? PointerEvent : MouseEvent;
            link.dispatchEvent(new Event(type, {bubbles, cancelable: bubbles, view: window}));
        }
        link.focus();
    }
    return links.length;
}"""
"""What a pointer moving onto each visible link of the article sends it (and focus), to every
link at once, a covered one too: any hover handler there would run now. (Real hovers, one link
at a time, took 7 of this test's 10 s, and could not reach a link under the sticky panel.)"""


@pytest.mark.browser
def test_no_script_runs_in_the_browser(browser, hostile_site) -> None:
    site_dir, _ = hostile_site
    fired: list[str] = []
    context = browser.new_context()
    page = context.new_page()
    page.on("dialog", lambda d: (fired.append(d.message), d.dismiss()))
    # The hovers reach a handler when there is one.
    page.set_content('<article><a href="#" onmouseenter="alert(1)">planted</a></article>')
    assert page.evaluate(HOVER_EVERY_LINK) == 1 and fired == ["1"]
    fired.clear()
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
                found = page.evaluate(BROWSER_CHECK)
                assert found == {"configs": 1, "tooltips": False, "titled": []}, path
                assert page.evaluate(HOVER_EVERY_LINK) > 0, path
                if path.endswith("score/"):
                    page.locator(".rs-calc__try").first.click()
                    page.locator("[data-action='share']").click()
    context.close()
    assert fired == []
