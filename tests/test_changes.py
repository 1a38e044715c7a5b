"""A game's "What changed" list on its overview: every language, permanent anchors, links to
the rule sections, rulings and sources it names (MkDocs checks the links in the site tests)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rulesite.catalog import load_catalog
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.projects import good_game_text, make_project

CHANGES = """changes:
  - id: tie-ruling
    date: 2026-01-12
    kind: clarification
    text: {zh: 补充了平手的裁定。, en: Added the ruling on ties.}
    faq: [tie-breaker]
    cites:
      - {source: designer}
  - id: setup-fixed
    date: 2026-01-12
    kind: corrected
    text: {zh: 更正了准备阶段的牌数。, en: Corrected the number of cards dealt at setup.}
    rules: [setup]
    cites:
      - {source: rulebook, where: {zh: 第 2 页, en: p. 2}}
"""


def _overviews(tmp_path: Path, extra: str) -> dict[str, str]:
    root = make_project(tmp_path / "p", games={"mini-game.yaml": good_game_text() + extra})
    project = Project(root)
    catalog = load_catalog(project, today=dt.date(2026, 6, 1))
    pages = render_pages(project, catalog)
    return {
        language.code: pages[f"{language.code}/games/mini-game/index.md"]
        for language in catalog.site.languages
    }


def test_overview_lists_changes_in_every_language(tmp_path: Path) -> None:
    pages = _overviews(tmp_path, CHANGES)
    for lang, page in pages.items():
        assert "{#changes}" in page, lang
        section = page[page.index("{#changes}") :]
        # As listed (newest first), each with its permanent anchor.
        assert section.index("#change-tie-ruling") < section.index("#change-setup-fixed"), lang
        assert "**2026-01-12**" in section
        assert "](faq.md#tie-breaker)" in section and "](rules.md#setup)" in section
        assert 'href="https://example.org/rules"' in section, "a cited source with its link"
        assert "](../../feed.xml)" in section, "the feed is offered"
    zh, en = pages["zh"], pages["en"]
    assert "Test rulebook</a> (p. 2)" in en and "测试规则书</a>（第 2 页）" in zh


def test_overview_without_changes_has_no_section(tmp_path: Path) -> None:
    for page in _overviews(tmp_path, "").values():
        assert "{#changes}" not in page and "feed.xml" not in page
