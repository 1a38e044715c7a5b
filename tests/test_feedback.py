"""The feedback address (``feedback.url`` in ``data/site.yaml``): https only, known placeholders,
and under every ruling a link with the ids URL-encoded and the address HTML-escaped. The real
site sets none (tests/test_table_details_browser.py checks that no link appears there); the
browser check of a site that sets one is tests/test_offline_browser.py. Bad cases:
``tests/data/bad/feedback-*``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.model import Feedback
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.projects import make_project

ADDRESS = "https://example.org/issues/new?title={game}%20{ruling}&labels=rule_question"


def with_feedback(tmp_path: Path, line: str) -> Project:
    project = Project(make_project(tmp_path / "p"))
    site = project.root / "data" / "site.yaml"
    text = site.read_text(encoding="utf-8")
    site.write_text(text.replace("stale_after_days: 365\n", f"stale_after_days: 365\n{line}\n"))
    return project


@pytest.mark.parametrize(
    "url, message",
    [
        ("http://example.org/new?t={game}", "is not an https address"),
        ("javascript:alert(1)//https://x", "is not an https address"),
        ("https://", "is not an https address"),
        ("https://example.org/new?t={title}", "'{title}' is not a placeholder"),
        ("https://example.org/new?t={game", "braces only surround a placeholder"),
        ('https://example.org/"><script>', "must not contain"),
        ("https://example.org/new?t={game} {ruling}", "must not contain"),
    ],
)
def test_only_https_addresses_with_known_placeholders(url: str, message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        Feedback(url=url)


def test_ids_are_url_encoded() -> None:
    feedback = Feedback(url="https://example.org/new?game={game}&ruling={ruling}")
    assert feedback.href("a b", "x/y&z") == "https://example.org/new?game=a%20b&ruling=x%2Fy%26z"


def test_a_bad_address_is_reported_where_it_is(tmp_path: Path) -> None:
    project = with_feedback(tmp_path, 'feedback: {url: "http://example.org/new"}')
    with pytest.raises(DataError) as caught:
        load_catalog(project)
    lines = caught.value.lines()
    assert len(lines) == 1 and re.fullmatch(
        r"data/site\.yaml:\d+: feedback\.url: 'http://example\.org/new' is not an https address.*",
        lines[0],
    ), lines


def test_every_ruling_links_to_the_address_escaped(tmp_path: Path) -> None:
    project = with_feedback(tmp_path, f'feedback: {{url: "{ADDRESS}"}}')
    catalog = load_catalog(project)
    pages = render_pages(project, catalog)
    game = catalog.games[0]
    for lang in catalog.site.codes:
        faq = pages[f"{lang}/games/{game.slug}/faq.md"]
        hrefs = re.findall(r'<p class="rs-feedback"><a href="([^"]*)"', faq)
        assert len(hrefs) == len(game.faq)
        for href, ruling in zip(hrefs, game.faq, strict=True):
            # Escaped for HTML and Markdown alike: & and _ are character references.
            assert "&labels" not in href and "_" not in href
            decoded = re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))), href)
            assert decoded == ADDRESS.replace("{game}", game.slug).replace("{ruling}", ruling.id)


def test_without_an_address_no_link(tmp_path: Path) -> None:
    project = Project(make_project(tmp_path / "p"))
    pages = render_pages(project, load_catalog(project))
    assert not any("rs-feedback" in text for text in pages.values())
