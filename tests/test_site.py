"""The built site (a real strict MkDocs build of the real data): pages, languages, links, hosts.

The checks live in tests/site_checks.py and take their expectations from data/, so they run
unchanged on the real site and on a copy of the project with one more game.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import SITE_URL, tree_digest
from tests.projects import REAL, copy_built, extra_game_text, good_game_text, make_project
from tests.site_checks import (
    LANGS,
    card_values,
    check_calculators,
    check_game_page,
    check_home,
    check_language_switch,
    check_no_other_host,
    check_overview_card,
    check_ruling_anchors,
    check_ruling_sources,
    check_search_indexes,
    check_site,
    html_of,
    page_kinds,
    search_docs,
)

CATALOG = load_catalog(Project(REAL))
"""The repo's own data: every real-site check below is parametrised from it."""
GAMES = {game.slug: game for game in CATALOG.games}
GAME_PAGES = [(slug, kind) for slug, game in GAMES.items() for kind in page_kinds(game)]

# Facts of the three seed games as their seed pages give them (../shared/seeds), card order:
# rank, weight, best players, players, minutes, year, age. They check that the data says what
# the seeds say: they only change when one of these games is changed or removed.
SEED_CARDS = {
    "nations": ["#276", "3.54 / 5", "3–4", "1–5", "40–200", "2013", "14+"],
    "clans-of-caledonia": ["#78", "3.47 / 5", "4", "1–4", "30–120", "2017", "12+"],
    "its-a-wonderful-world": ["#188", "2.32 / 5", "4", "1–5", "45", "2019", "14+"],
}
SEED_MECHANICS = {
    "nations": "Contracts · End Game Bonuses · Events · Hidden Victory Points · Income · Open "
    "Drafting · Tags · Turn Order: Stat-Based · Variable Player Powers · Variable Set-up · "
    "Worker Placement",
    "clans-of-caledonia": "Commodity Speculation · Contracts · Hexagon Grid · Income · Market · "
    "Modular Board · Network and Route Building · Solo / Solitaire Game · Turn Order: Pass Order "
    "· Variable Player Powers",
    "its-a-wonderful-world": "Closed Drafting · End Game Bonuses · Hand Management · Income · Set "
    "Collection · Simultaneous Action Selection · Solo / Solitaire Game · Variable Player Powers",
}
SEED_STATUS = {
    "zh": ["未确认", "暂未确认 WANGO 试玩"],
    "en": ["Not confirmed", "Not confirmed on WANGO"],
}
SEED_TITLES = {
    "nations": {"zh": "Nations", "en": "Nations"},
    "clans-of-caledonia": {"zh": "加勒多尼亞", "en": "Clans of Caledonia"},
    "its-a-wonderful-world": {"zh": "美丽新世界", "en": "It's a Wonderful World"},
}
SEED_GAME = "nations"
"""A seed game whose pages the few single-page checks (canonical links, site URL) look at."""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("slug", "kind"), GAME_PAGES)
def test_every_game_page_exists_with_lang_and_title(site_dir, slug, kind, lang) -> None:
    check_game_page(site_dir, GAMES[slug], kind, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_overview_card_shows_the_datas_card(site_dir, slug, lang) -> None:
    check_overview_card(site_dir, CATALOG.site, GAMES[slug], lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", sorted(SEED_CARDS))
def test_seed_games_card_carries_every_seed_parameter(site_dir, slug, lang) -> None:
    values, text = card_values(site_dir, GAMES[slug], lang)
    assert values[:7] == SEED_CARDS[slug]
    assert values[7:9] == SEED_STATUS[lang]
    for mechanic in SEED_MECHANICS[slug].split(" · "):
        assert mechanic in text, mechanic
    assert "2026-09-27" in text
    assert ("快照" if lang == "zh" else "snapshot") in text
    assert GAMES[slug].title.get(lang) == SEED_TITLES[slug][lang]


@pytest.mark.parametrize("lang", LANGS)
def test_home_lists_every_game_as_a_card(site_dir, lang) -> None:
    check_home(site_dir, CATALOG.games, lang)


@pytest.mark.parametrize("slug", GAMES)
def test_rulings_keep_their_anchors_in_both_languages(site_dir, slug) -> None:
    check_ruling_anchors(site_dir, GAMES[slug])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_every_ruling_shows_its_sources_and_verified_date(site_dir, slug, lang) -> None:
    check_ruling_sources(site_dir, CATALOG, GAMES[slug], lang)


@pytest.mark.parametrize("slug", [slug for slug, game in GAMES.items() if game.scoring])
def test_score_page_carries_every_calculator_model(site_dir, slug) -> None:
    check_calculators(site_dir, GAMES[slug])


def test_every_language_switch_target_exists(site_dir) -> None:
    check_language_switch(site_dir, CATALOG.games)


def test_nothing_is_loaded_from_another_host(site_dir) -> None:
    check_no_other_host(site_dir)


def test_each_language_has_its_own_search_index(site_dir) -> None:
    check_search_indexes(site_dir, CATALOG.games)
    # A seed ruling's words, kept whole by jieba, are a word of the Chinese index and show.
    zh = search_docs(site_dir, "zh")
    assert any("战争强度" in d["text"] for d in zh)
    from tests.test_search import chunked_postings

    _, found = chunked_postings(site_dir / "search")
    assert "战争强度" in found


def test_an_added_game_passes_every_site_check(tmp_path) -> None:
    """A copy of the project with one more valid game (and calculator): the same checks pass."""
    root = make_project(
        tmp_path / "p", games={"extra-game.yaml": extra_game_text()}, real_games=True
    )
    project = Project(root)
    build(project)
    catalog = load_catalog(project)
    assert {game.slug for game in catalog.games} == set(GAMES) | {"extra-game"}
    assert "extra-game" in {calc.id for game in catalog.games for calc in game.scoring}
    check_site(project.site_dir, catalog)


def test_works_under_any_site_url(addressed_site: Path) -> None:
    out = addressed_site  # the real project built with RULESITE_SITE_URL=SITE_URL (a sub-path)
    html = html_of(out, "en", f"games/{SEED_GAME}/faq/")
    assert f'rel="canonical" href="{SITE_URL}en/games/{SEED_GAME}/faq/"' in html
    assert 'href="../../../assets/' in html  # pages link to their language's assets relatively
    # Canonical links resolve like the pages' own (without a site URL there are none:
    # tests/test_offline.py).
    rules = html_of(out, "en", f"games/{SEED_GAME}/rules/")
    canonical = re.search(r'rel="canonical" href="([^"]+)"', rules).group(1)
    assert urljoin(canonical, "../faq/").endswith(f"/en/games/{SEED_GAME}/faq/")


def test_bad_data_leaves_the_previous_site_untouched(built_fixture: Path, tmp_path) -> None:
    # The run's one build of the fixture project (a copy: a build writes no absolute path).
    project = Project(copy_built(built_fixture / "project", tmp_path / "p"))
    before = tree_digest(project.site_dir)
    content_before = tree_digest(project.content_dir)
    broken = good_game_text().replace("bgg_rank: 9999", "bgg_rank: lots")
    (project.games_dir / "mini-game.yaml").write_text(broken, encoding="utf-8")
    with pytest.raises(DataError):
        build(project)
    assert tree_digest(project.site_dir) == before
    assert tree_digest(project.content_dir) == content_before
    assert not list(project.root.glob(".rulesite-*"))


def test_relative_link_in_data_is_refused_naming_file_and_line(tmp_path) -> None:
    # A link from data text is raw HTML to MkDocs, so MkDocs could neither check nor rewrite it:
    # validation refuses it instead, before anything is built.
    text = good_game_text().replace(
        "en: Each player takes 5 cards.",
        "en: Each player takes 5 cards (see [tie](faq.md#no-such-ruling)).",
        1,  # the rule's body, not the player aid's summary of it
    )
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": text}))
    with pytest.raises(DataError) as caught:
        build(project)
    line = text.splitlines().index("    body:") + 3  # the en line of the first rule body (1-based)
    assert caught.value.lines() == [
        f"data/games/mini-game.yaml:{line}: rules[0].body.en: link or image "
        "'faq.md#no-such-ruling': texts may only link to http:// or https:// addresses and "
        "show no images (link rule sections with a ruling's `rules:`)"
    ]
    assert not project.site_dir.exists()
