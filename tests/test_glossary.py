"""Game glossaries: what search takes from them, and the pages that show them.

Their validation messages are bad-data cases (``tests/data/bad/glossary-*``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesite.collate import reading_key
from rulesite.engine import search_words as glossary
from rulesite.model import Game
from tests.site_checks import LANGS
from tests.test_site import CATALOG

GAMES: dict[str, Game] = {game.slug: game for game in CATALOG.games}


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("General", ["Generals"]),
        ("Financiers", ["Financier"]),
        ("supremacy", ["supremacies"]),
        ("Supremacies", ["Supremacy"]),
        ("war strength", ["war strengths"]),
        ("box", ["boxes"]),
        ("boxes", ["box"]),
        ("day", ["days"]),
        ("tied", []),
        ("slaughtering", []),
        ("bonus", []),
        ("VP", []),
        ("平手", []),
    ],
)
def test_english_plurals_and_singulars(word: str, forms: list[str]) -> None:
    assert glossary.inflections(word) == forms


def test_a_game_gives_synonym_groups_titles_and_the_sections_that_define_terms() -> None:
    clans = GAMES.get("clans-of-caledonia")
    if clans is None:
        pytest.skip("the Clans of Caledonia data is not in data/games/")
    zh = glossary.game_words(clans, "zh")
    assert ["平手", "平局", "并列"] in zh.groups
    # The term named like the game gives its titles, its aliases included, not a group.
    assert set(zh.titles) == {"Clans of Caledonia", "加勒多尼亞", "加勒多尼亚"}
    assert all("加勒多尼亚" not in group for group in zh.groups)
    assert {"平手", "平局", "并列"} <= set(zh.defined["rankings-and-ties"])
    en = glossary.game_words(clans, "en")
    assert ["tie", "ties", "tied"] in en.groups
    assert ["settlement", "settlements"] in en.groups
    words = glossary.search_words(CATALOG.games, "en")
    assert glossary.SearchWords.from_json(words.to_json()) == words


def test_the_dictionary_has_every_chinese_name_alias_and_title(tmp_path: Path) -> None:
    words = set(glossary.dictionary_words(CATALOG.games))
    for game in CATALOG.games:
        assert game.title.get("zh").replace(" ", "") in words or not re.search(
            r"[\u4e00-\u9fff]", game.title.get("zh")
        )
        for term in game.glossary:
            assert term.name.get("zh").replace(" ", "") in words
            assert set(term.aliases.get("zh", [])) <= words
    assert not [w for w in words if not re.search(r"[\u4e00-\u9fff]", w)]  # Chinese only


def test_a_title_with_a_line_break_is_one_dictionary_word() -> None:
    game = CATALOG.games[0]
    title = type(game.title)({**game.title.root, "zh": "加勒多\n尼亚 二"})
    words = glossary.dictionary_words([game.model_copy(update={"title": title, "glossary": []})])
    assert "加勒多尼亚二" in words and all(not re.search(r"\s", w) for w in words)


def test_synonyms_file_round_trips(tmp_path: Path) -> None:
    path = glossary.write_synonyms(CATALOG.games, "zh", tmp_path / "synonyms.json")
    assert glossary.read_synonyms(path) == glossary.search_words(CATALOG.games, "zh")
    assert path.read_bytes() == glossary.write_synonyms(CATALOG.games, "zh", path).read_bytes()


# --- the pages ------------------------------------------------------------------------------


def page(site_dir: Path, lang: str, path: str) -> str:
    return (site_dir / LANGS[lang] / path / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_rules_pages_end_with_the_glossary_one_anchor_per_term(site_dir: Path, lang: str) -> None:
    for game in CATALOG.games:
        html = page(site_dir, lang, f"games/{game.slug}/rules")
        if not game.glossary:
            assert 'id="glossary"' not in html
            continue
        section = html[html.index('id="glossary"') :]
        ids = re.findall(r'<div class="rs-term" id="term-([a-z0-9-]+)"', section)
        assert ids == [term.id for term in game.glossary], game.slug
        for term in game.glossary:
            # Each term links the rule sections that explain it, on the same page.
            for rule in term.rules:
                assert f'href="#{rule}"' in section, (game.slug, term.id, rule)


def jump_links(html: str) -> list[str]:
    """The links of a page's jump list (``_jump_list.md.j2``), in order."""
    found = re.search(r'<nav [^>]*class="rs-jump".*?</nav>', html, re.S)
    assert found, "no jump list"
    return re.findall(r'href="([^"]+)"', found.group(0))


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_index_lists_each_game_with_a_link_to_its_page(
    site_dir: Path, lang: str
) -> None:
    html = page(site_dir, lang, "glossary")
    with_terms = sorted(
        (g for g in CATALOG.games if g.glossary), key=lambda g: reading_key(g.title.get(lang), lang)
    )
    listed = re.findall(r'<a data-rs-key="([a-z0-9-]+)" href="([^"]+)"', html)
    # By game (sorted by title in the page's language), each linking to the game's page.
    assert listed == [(g.slug, f"{g.slug}/") for g in with_terms]
    for game in with_terms:
        assert f"{len(game.glossary)} " in html or str(len(game.glossary)) in html
    # One line per game: the terms are on the games' pages, not here.
    assert 'class="rs-term"' not in html
    assert "assets/index-forward.js" in html


@pytest.mark.parametrize("lang", LANGS)
def test_each_games_glossary_page_has_a_jump_list_by_term_and_every_entry(
    site_dir: Path, lang: str
) -> None:
    reordered = 0
    for game in CATALOG.games:
        folder = site_dir / LANGS[lang] / "glossary" / game.slug
        if not game.glossary:
            assert not folder.exists(), game.slug
            continue
        html = page(site_dir, lang, f"glossary/{game.slug}")
        # By name in the page's language (Chinese by pinyin), as the glossary's index sorts
        # games by title.
        terms = sorted(game.glossary, key=lambda term: reading_key(term.name.get(lang), lang))
        reordered += terms != game.glossary
        assert jump_links(html) == [f"#term-{term.id}" for term in terms], game.slug
        ids = re.findall(r'<div class="rs-term" id="term-([a-z0-9-]+)"', html)
        assert ids == [term.id for term in terms], game.slug
        for term in game.glossary:
            link = f'href="../../games/{game.slug}/rules/#term-{term.id}"'
            assert link in html, (game.slug, term.id)
        # Names in the other languages are marked with their language.
        assert re.search(r'<span class="rs-term__other" lang="[a-zA-Z-]+">', html)
        assert game.title.get(lang).split()[0] in html
    assert reordered  # some game's data order is not the sorted one: the test can fail


@pytest.mark.parametrize("lang", LANGS)
def test_overview_pages_have_a_jump_list_of_their_sections(site_dir: Path, lang: str) -> None:
    for game in CATALOG.games:
        html = page(site_dir, lang, f"games/{game.slug}")
        links = jump_links(html)
        expected = ["parameter-card", "background", "decisions", "sources"]
        assert links == [f"#{a}" for a in expected + (["changes"] if game.changes else [])]
        for anchor in links:
            assert f'id="{anchor[1:]}"' in html, (game.slug, anchor)


def test_the_glossary_index_counts_one_game_as_one_game(tmp_path: Path) -> None:
    """Many terms from one game: the intro says "from 1 game", not "from 1 games" (its two
    counts are two labels, each with its own singular)."""
    from rulesite.catalog import load_catalog
    from rulesite.project import Project
    from rulesite.render.renderer import render_pages
    from tests.helpers import REPO
    from tests.projects import make_project

    many = next(g for g in CATALOG.games if len(g.glossary) > 1)
    source = REPO / "data" / "games" / f"{many.slug}.yaml"
    project = Project(make_project(tmp_path / "p", games={source.name: source.read_text("utf-8")}))
    pages = render_pages(project, load_catalog(project))
    english = next(text for path, text in pages.items() if path.endswith("en/glossary/index.md"))
    assert f"{len(many.glossary)} terms from 1 game," in english
