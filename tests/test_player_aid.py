"""The player aid and the setup checklist of a rules page (issue 19, items 8 and 9), as rendered:
the phases in order, each linked to a section of the page, in every language; the end-game
scoring lines linked; no aid for a game without phases; the checklist's steps per player count.
Bad data is in tests/data/bad/aid-references; the browser side in
tests/test_setup_checklist_browser.py."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.model import Game
from rulesite.pages.aid import ROW_MAX, phase_diagram
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.projects import REAL, good_game_text, make_project

CATALOG = load_catalog(Project(REAL))
LANGS = [language.code for language in CATALOG.site.languages]
AID_GAMES = [game for game in CATALOG.games if game.aid and game.aid.phases]
CHECKLIST_GAMES = [
    game for game in CATALOG.games if game.setup or (game.aid and game.aid.setup_steps)
]


@functools.cache
def real_pages() -> dict[str, str]:
    return render_pages(Project(REAL), CATALOG)


def rules_page(game: Game, lang: str) -> str:
    return real_pages()[f"{lang}/games/{game.slug}/rules.md"]


def block(page: str, start: str, end: str) -> str:
    """The part of ``page`` from ``start`` to the first ``end`` after it."""
    begin = page.index(start)
    return page[begin : page.index(end, begin) + len(end)]


def anchors(page: str) -> set[str]:
    """Every heading anchor of a rendered page (``{#id}``)."""
    return set(re.findall(r"\{#([a-z0-9-]+)\}", page))


def test_the_real_games_have_an_aid() -> None:
    assert AID_GAMES, "no game writes aid.phases: the checks below would check nothing"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", AID_GAMES, ids=lambda game: game.slug)
def test_phases_are_listed_in_order_each_linked_to_a_section(game: Game, lang: str) -> None:
    page = rules_page(game, lang)
    listed = block(page, '<ol class="rs-aid__phases">', "</ol>")
    links = re.findall(r'<li><a href="#([a-z0-9-]+)">(.*?)</a>', listed)
    assert [rule for rule, _ in links] == [phase.rule for phase in game.aid.phases]
    assert [re.sub(r"<[^>]+>", "", title) for _, title in links] == [
        phase.title.get(lang) for phase in game.aid.phases
    ]
    assert {rule for rule, _ in links} <= anchors(page)
    for phase in game.aid.phases:
        assert phase.summary.get(lang) in listed


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", AID_GAMES, ids=lambda game: game.slug)
def test_the_diagram_draws_each_phase_with_its_number_and_is_named(game: Game, lang: str) -> None:
    page = rules_page(game, lang)
    svg = block(page, "<svg", "</svg>")
    assert 'role="img"' in svg
    names = [phase.title.get(lang) for phase in game.aid.phases]
    assert re.search(r"<title>[^<]*" + re.escape(" → ".join(names)) + "</title>", svg)
    assert re.findall(r'class="rs-aid__name"[^>]*>([^<]*)<', svg) == names
    assert re.findall(r'class="rs-aid__number"[^>]*>(\d+)<', svg) == [
        str(number) for number in range(1, len(names) + 1)
    ]
    if game.aid.rounds:
        assert re.search(rf'class="rs-aid__repeat"[^>]*>[^<]*\b{game.aid.rounds}\b', svg)
    # The aid comes first: right under the game's tabs, before the page's other text.
    assert page.index('<section class="rs-aid"') < page.index("rs-jump")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [g for g in AID_GAMES if g.scoring], ids=lambda g: g.slug)
def test_the_end_game_scoring_lines_are_linked_to_their_rules(game: Game, lang: str) -> None:
    page = rules_page(game, lang)
    line = block(page, '<p class="rs-aid__scoring">', "</p>")
    calc = game.scoring[0]
    terms = [term for term in calc.terms if not term.module]
    links = re.findall(r'<a href="#([a-z0-9-]+)">(.*?)</a>', line)[1:]  # after "Final scoring"
    assert [re.sub(r"<[^>]+>", "", text) for _, text in links] == [
        re.sub(r"[*`]", "", term.label.get(lang)) for term in terms
    ]
    assert [rule for rule, _ in links] == [term.rule or calc.rule for term in terms]
    assert {rule for rule, _ in links} <= anchors(page)


def test_a_game_without_phases_shows_no_aid(tmp_path: Path) -> None:
    text = good_game_text()
    assert "\naid:\n" in text  # the fixture game has one: taken away here
    bare = text.split("\naid:\n", 1)[0] + "\n"
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": bare}))
    pages = render_pages(project, load_catalog(project))
    for lang in LANGS:
        page = pages[f"{lang}/games/mini-game/rules.md"]
        assert "rs-aid" not in page
        assert "<svg" not in page
        # No setup tables and no steps: no checklist either.
        assert "rs-checklist" not in page and "setup-checklist.js" not in page


def with_titles(game: Game, titles: list[str]) -> Game:
    """``game`` with phases of these titles (the same in every language)."""
    phase = game.aid.phases[0]
    phases = [
        phase.model_copy(update={"title": type(phase.title)({lang: t for lang in LANGS})})
        for t in titles
    ]
    return game.model_copy(update={"aid": game.aid.model_copy(update={"phases": phases})})


def test_phases_go_in_a_row_when_it_fits_a_phone_else_in_a_column() -> None:
    game = AID_GAMES[0]
    row = phase_diagram(with_titles(game, ["Draw", "Play", "Score"]), LANGS[0])
    assert row is not None and len({box.y for box in row.boxes}) == 1
    assert row.width <= ROW_MAX
    column = phase_diagram(with_titles(game, ["Preparation", "Production", "Scoring"]), LANGS[0])
    assert column is not None and len({box.x for box in column.boxes}) == 1
    assert len({box.y for box in column.boxes}) == 3
    for diagram in (row, column):  # everything inside the drawing
        assert all(box.x + box.width < diagram.width for box in diagram.boxes)
        assert all(box.y + box.height < diagram.height for box in diagram.boxes)


def steps_of(page: str) -> list[tuple[str, str]]:
    """(data-players, data-step) of every step of a page's checklist, in order."""
    return re.findall(r'<li data-players="([0-9 ]+)" data-step="([a-z0-9.-]+)">', page)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", CHECKLIST_GAMES, ids=lambda game: game.slug)
def test_the_checklist_lists_every_step_with_its_player_counts(game: Game, lang: str) -> None:
    page = rules_page(game, lang)
    every = " ".join(str(n) for n in range(game.card.players.min, game.card.players.max + 1))
    expected = []
    for step in game.aid.setup_steps if game.aid else []:
        counts = step.players or game.card.players
        expected.append((" ".join(str(n) for n in range(counts.min, counts.max + 1)), step.id))
    for table in game.setup:
        for row in table.rows:
            expected += [(str(row.players), f"{table.id}.{column.id}") for column in table.columns]
    assert steps_of(page) == expected
    checklist = block(page, '<details class="rs-checklist"', "</details>")
    assert (
        re.findall(
            r'<button type="button" class="rs-checklist__count" data-players="(\d+)"', checklist
        )
        == every.split()
    )
    assert " hidden>" in checklist.split("\n", 1)[0]  # shown by the script only
    for target in re.findall(r'href="#([a-z0-9-]+)"', checklist):
        assert target in anchors(page)
    # A table's number is the row's, as the page's table shows it.
    for table in game.setup:
        for row in table.rows:
            for column in (c for c in table.columns if c.type == "integer"):
                start = f'data-players="{row.players}" data-step="{table.id}.{column.id}"'
                item = block(checklist, start, "</li>")
                assert f"{row.cells[column.id]}</label>" in item
