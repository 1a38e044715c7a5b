"""The cache of checked and rendered games: reused while their inputs stay the same, never after."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.errors import BuildError, DataError
from rulesite.pages import indexes, registry
from rulesite.project import Project
from rulesite.render.cache import ContentCache, render_cached
from rulesite.render.renderer import render_pages
from tests.projects import good_game_text, make_project, other_game

VERIFIED = dt.date(2026, 1, 15)
"""The fixture game's verification date."""


@pytest.fixture
def project(tmp_path: Path) -> Project:
    games = {"mini-game.yaml": good_game_text(), "other-game.yaml": other_game()}
    return Project(make_project(tmp_path / "p", games))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def game_file(project: Project, slug: str) -> Path:
    return project.games_dir / f"{slug}.yaml"


def test_unchanged_files_are_not_checked_again(project: Project) -> None:
    cache = ContentCache()
    first = load_catalog(project, cache=cache)
    assert (cache.hits, cache.misses) == (0, 2)
    again = load_catalog(project, cache=cache)
    assert (cache.hits, cache.misses) == (2, 2)
    assert again.games == first.games == load_catalog(project).games
    edit(game_file(project, "other-game"), "bgg_rank: 9999", "bgg_rank: 1234")
    edited = load_catalog(project, cache=cache)
    assert (cache.hits, cache.misses) == (3, 3)
    assert [game.card.bgg_rank for game in edited.games] == [9999, 1234]


def test_checks_across_files_run_on_cached_files(project: Project) -> None:
    cache = ContentCache()
    load_catalog(project, cache=cache)
    # other-game's calculator now takes mini-game's id; mini-game's file comes from the cache.
    edit(game_file(project, "other-game"), "  - id: other-game\n", "  - id: mini-game\n")
    with pytest.raises(DataError) as caught:
        load_catalog(project, cache=cache)
    assert caught.value.lines() == [
        "data/games/other-game.yaml:85: scoring[0].id: calculator id 'mini-game' is also used "
        "in data/games/mini-game.yaml"
    ]
    assert cache.hits == 1


def test_a_cached_file_reports_its_problems_again(project: Project) -> None:
    edit(game_file(project, "mini-game"), "bgg_rank: 9999", "bgg_rank: many")
    cache = ContentCache()
    with pytest.raises(DataError) as first:
        load_catalog(project, cache=cache)
    with pytest.raises(DataError) as again:
        load_catalog(project, cache=cache)
    assert again.value.lines() == first.value.lines()
    assert first.value.lines() == [
        "data/games/mini-game.yaml:10: card.bgg_rank: expected a whole number, got text 'many'"
    ]
    assert cache.hits == 2


def test_a_site_change_checks_the_games_again(project: Project) -> None:
    cache = ContentCache()
    load_catalog(project, cache=cache)
    # A game names the mechanic; without it in site.yaml, the game's own checks must fail.
    edit(project.site_file, "id: solo-solitaire-game", "id: solo-game")
    with pytest.raises(DataError) as caught:
        load_catalog(project, cache=cache)
    assert {problem.file for problem in caught.value.problems} == {
        "data/games/mini-game.yaml",
        "data/games/other-game.yaml",
    }
    assert all("unknown mechanic 'solo-solitaire-game'" in line for line in caught.value.lines())


def test_the_date_is_part_of_the_key(project: Project) -> None:
    cache = ContentCache()
    load_catalog(project, today=VERIFIED, cache=cache)
    with pytest.raises(DataError) as caught:
        load_catalog(project, today=VERIFIED - dt.timedelta(days=1), cache=cache)
    assert "card.verified: date 2026-01-15 is in the future" in caught.value.lines()[0]


def test_cached_pages_are_the_rendered_pages(project: Project) -> None:
    cache = ContentCache()
    catalog = load_catalog(project, cache=cache)
    assert render_cached(project, catalog, cache) == render_pages(project, catalog)
    misses = cache.misses
    assert render_cached(project, load_catalog(project, cache=cache), cache) == render_pages(
        project, catalog
    )
    assert cache.misses == misses  # nothing made again


def test_only_the_edited_game_is_rendered_again(project: Project) -> None:
    cache = ContentCache()
    before = render_cached(project, load_catalog(project, cache=cache), cache)
    edit(game_file(project, "other-game"), "bgg_rank: 9999", "bgg_rank: 1234")
    misses = cache.misses
    catalog = load_catalog(project, cache=cache)
    after = render_cached(project, catalog, cache)
    # The file's checks, its pages, and the pages across games built from every game's card.
    across = [k for k in registry.rendered_kinds(registry.Scope.SITE) if registry.CARDS in k.inputs]
    assert across, "some page across games lists every game's card"
    assert cache.misses == misses + 2 + len(across) * len(catalog.site.codes)
    assert after == render_pages(project, catalog)
    changed = sorted(path for path in after if after[path] != before[path])
    assert "en/games/other-game/index.md" in changed
    assert not [path for path in changed if "mini-game" in path]


def test_a_template_change_renders_every_game_again(project: Project) -> None:
    cache = ContentCache()
    render_cached(project, load_catalog(project, cache=cache), cache)
    template = project.templates_dir / "pages" / "overview.md.j2"
    template.write_text(template.read_text("utf-8") + "\ntemplate-marker\n", "utf-8")
    pages = render_cached(project, load_catalog(project, cache=cache), cache)
    assert "template-marker" in pages["zh/games/mini-game/index.md"]
    assert "template-marker" in pages["en/games/other-game/index.md"]


def test_a_site_change_renders_every_game_again(project: Project) -> None:
    cache = ContentCache()
    render_cached(project, load_catalog(project, cache=cache), cache)
    edit(project.site_file, "faq_see_rules: {zh: ", "faq_see_rules: {zh: 站点改动")
    pages = render_cached(project, load_catalog(project, cache=cache), cache)
    assert "站点改动" in pages["zh/games/mini-game/faq.md"]
    assert "站点改动" in pages["zh/games/other-game/faq.md"]


def test_a_game_page_cannot_see_the_other_games(project: Project) -> None:
    # What keeps a game's cached pages right when another game changes.
    template = project.templates_dir / "pages" / "rules.md.j2"
    template.write_text("{{ games | length }}\n" + template.read_text("utf-8"), "utf-8")
    with pytest.raises(BuildError, match=r"templates/pages/rules\.md\.j2:1: 'games' is undefined"):
        render_pages(project, load_catalog(project))


def test_entries_of_deleted_files_are_dropped(project: Project) -> None:
    cache = ContentCache()
    render_cached(project, load_catalog(project, cache=cache), cache)
    entries = len(cache)
    game_file(project, "other-game").unlink()
    render_cached(project, load_catalog(project, cache=cache), cache)
    assert len(cache) == entries - 1  # its pages; its checks are dropped by the preview


def test_a_page_across_games_is_rendered_again_only_when_its_inputs_change(
    project: Project,
) -> None:
    cache = ContentCache()
    before = render_cached(project, load_catalog(project, cache=cache), cache)
    edit(game_file(project, "other-game"), 'en: "Is there a hand limit?"', 'en: "Any hand limit?"')
    misses = cache.misses
    catalog = load_catalog(project, cache=cache)
    after = render_cached(project, catalog, cache)
    assert after == render_pages(project, catalog)
    reading = [
        k for k in registry.rendered_kinds(registry.Scope.SITE) if registry.RULINGS in k.inputs
    ]
    topic_pages = len(registry.topic_kinds()) * len(indexes.topic_ids(catalog))
    # The file's checks, its pages, and only the pages across games that read rulings (the
    # topic index and each topic's page).
    assert cache.misses == misses + 2 + (len(reading) + topic_pages) * len(catalog.site.codes)
    changed = {path for path in after if after[path] != before[path]}
    for kind in registry.rendered_kinds(registry.Scope.SITE):
        for lang in catalog.site.codes:
            path = f"{lang}/{kind.source_path()}"
            # Only a page that reads rulings may change; the topic index shows the question.
            assert path not in changed or registry.RULINGS in kind.inputs, path
    assert f"en/{registry.kind('topic').source_path('setup')}" in changed  # the question
