"""Every claim traceable (issue 18): the real pages carry no date, label or definition that the
seed pages do not support.

The rendered Markdown of the real project is checked, in every language: the one check date
the seeds record (the card's) appears nowhere else; sources show a version label or an issue
date only as recorded; the background references alone are marked as such; and the phrases a
review found invented or machine-made are gone. Facts come from ``data/``; the phrases below
are the defects themselves, so a test fails if one comes back.
"""

from __future__ import annotations

import html
import re

import pytest

from rulesite.catalog import load_catalog
from rulesite.model import SourceKind
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.helpers import REPO

PROJECT = Project(REPO)
CATALOG = load_catalog(PROJECT)
PAGES = render_pages(PROJECT, CATALOG)
LANGS = [language.code for language in CATALOG.site.languages]
GAMES = {game.slug: game for game in CATALOG.games}


def page(lang: str, slug: str, name: str = "index") -> str:
    """A game page's rendered Markdown (index: the overview), character references resolved
    (data text may escape a character, e.g. the hyphen in 2026&#45;06-03-EN)."""
    return html.unescape(PAGES[f"{lang}/games/{slug}/{name}.md"])


def label(key: str, lang: str, **values: str) -> str:
    return CATALOG.site.labels[key].get(lang).format(**values)


def test_the_card_check_date_is_shown_only_on_the_card() -> None:
    for relative, text in PAGES.items():
        for game in CATALOG.games:
            date = game.card.verified.isoformat()
            # The front matter's `checked:` is for the printed footer, not text on the page.
            body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
            outside_card = re.sub(r'<p class="rs-card__note">.*?</p>', "", body, flags=re.S)
            assert date not in outside_card, (relative, game.slug)


def test_no_source_citation_or_change_inherits_a_check_date() -> None:
    # The seeds record no date for any single source: none may be given one.
    for game in CATALOG.games:
        for source in game.sources:
            assert source.verified is None and source.issued is None, (game.slug, source.id)
        for change in game.changes:
            assert change.date != game.card.verified, (game.slug, change.id)


@pytest.mark.parametrize("lang", LANGS)
def test_a_version_label_is_shown_as_a_version_not_an_issue_date(lang: str) -> None:
    versioned = [(g, s) for g in CATALOG.games for s in g.sources if s.version]
    assert versioned, "the Clans rulebook's version label 2026-06-03-EN"
    issued_word = label("source_issued", lang, date="").strip()
    for game, source in versioned:
        text = page(lang, game.slug)
        assert label("source_version", lang, version=source.version) in text
        assert issued_word not in text, (game.slug, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_an_erratum_is_its_own_kind_not_the_faq(lang: str) -> None:
    errata = [(g, s) for g in CATALOG.games for s in g.sources if s.kind is SourceKind.errata]
    assert errata, "the Port 7 erratum"
    for game, source in errata:
        line = f"{label('source_errata', lang)}{label('colon', lang)}{source.name.get(lang)}"
        assert line in page(lang, game.slug)
        assert f"{label('source_faq', lang)}{label('colon', lang)}{source.name.get(lang)}" not in (
            page(lang, game.slug)
        )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_only_background_references_are_marked_as_such(lang: str, slug: str) -> None:
    game = GAMES[slug]
    text = page(lang, slug)
    heading = f"**{label('sources_label', lang)}**"
    assert heading in text
    assert label("sources_label", lang) != label("source_background", lang)
    listed = text.split(heading, 1)[1].split("\n## ", 1)[0]
    items = [line for line in listed.splitlines() if line.startswith("- ")]
    assert len(items) == len(game.sources)
    marker = f" · {label('source_background', lang)}"
    marked = [item for item in items if marker in item]
    assert len(marked) == sum(source.background for source in game.sources)
    # The rules' basis comes first, the background references after it.
    assert items[-len(marked) :] == marked if marked else True


@pytest.mark.parametrize("lang", LANGS)
def test_nations_tells_readers_the_rulebook_was_read_from_a_mirror(lang: str) -> None:
    assert "1jour-1jeu" in page(lang, "nations")


# What the review found, per language: each must be absent from every page of its game.
DEFECTS: dict[str, dict[str, list[str]]] = {
    "clans-of-caledonia": {
        "en": [
            "come back in the next preparation, and hiring",
            "Where a completed contract goes once fulfilled, placed next to it",
            "The source of the income collected first in production",
            "Official FAQ: Port 7 erratum",
            "issued 2026-06-03",
            "are left out",
        ],
        "zh": [
            "官方 FAQ：港口 7 勘误",
            "把这份合约放在它的旁边",
            "发布于 2026-06-03",
            "不在本页范围内",
        ],
    },
    "its-a-wonderful-world": {
        "en": [
            "character bonuses count here too",
            "that only Krystallium can pay",
            "starting card",
            "stay until the card is completed",
            "playing face A of the Empire",
            "the rulings the FAQ on its product page",
            "Also playable as",
            "(promo,",
        ],
        "zh": ["人物的加成也算在这里", "只能用晶体支付", "起始卡", "推广内容", "不在本页范围内"],
    },
    "nations": {
        "en": [
            "it sets the architects",
            "refreshed in each round's maintenance",
            "public architects",
            "also reach the second place",
            "are left out",
        ],
        "zh": ["决定建筑师数量", "每轮维护时移除旧牌并补新牌", "不在本页范围内"],
    },
}


@pytest.mark.parametrize("slug", sorted(DEFECTS))
def test_the_reviewed_defects_are_gone(slug: str) -> None:
    for lang, phrases in DEFECTS[slug].items():
        for relative, text in PAGES.items():
            if relative.startswith(f"{lang}/") and f"/{slug}/" in relative:
                text = html.unescape(text)
                for phrase in phrases:
                    assert phrase not in text, (relative, phrase)


def test_kickstarter_modules_are_typed_as_the_seed_calls_them() -> None:
    for game in CATALOG.games:
        for module in game.modules:
            if "Kickstarter" in module.name.get("en"):
                assert module.kind.value == "kickstarter", (game.slug, module.id)
