"""The scoring gallery's calculators on a real page: v2 features as a player meets them.

Tables, `when` lines switched by yes/no settings, qualifying minimums, shown helpers and
one-holder inputs, in headless Chromium, on the gallery built with the site's own templates.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import serve_site
from tests.projects import make_project
from tests.scoring_vectors import GALLERY
from tests.test_accessibility import serious_violations
from tests.test_calculator_browser import cell, total
from tests.test_scoring_gallery import CALCULATORS

pytestmark = pytest.mark.browser


@pytest.fixture
def page(shared_page):
    """Every test here takes the worker's one desktop page, storage cleared for each test
    (tests/conftest.py), instead of a new context's."""
    return shared_page


PAGE = "en/games/scoring-gallery/score/"


@pytest.fixture(scope="module")
def gallery_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    game = GALLERY / "data" / "games" / "scoring-gallery.yaml"
    root = make_project(
        tmp_path_factory.mktemp("gallery") / "p",
        games={game.name: game.read_text(encoding="utf-8")},
    )
    project = Project(root)
    build(project)
    with serve_site(project.site_dir) as url:
        yield url


def row(page, calc_id: str, term: str):
    return page.locator(f".rs-calc[data-calculator='{calc_id}'] [data-term-row='{term}']")


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_every_gallery_example_through_the_page(page, gallery_url, calc_id: str) -> None:
    page.goto(gallery_url + PAGE)
    buttons = page.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button")
    for index, example in enumerate(CALCULATORS[calc_id].examples):
        buttons.nth(index).click()
        totals = [total(page, calc_id, i) for i in range(len(example.players))]
        assert totals == [str(t) for t in example.totals], example.id
    assert page.problems == []


def test_a_yes_no_setting_switches_its_award_line(page, gallery_url) -> None:
    page.goto(gallery_url + PAGE)
    calc = "terraforming-mars"
    funded = page.locator("#rs-setting-terraforming-mars-award1_funded")
    assert funded.is_visible() and not funded.is_checked()
    cell(page, calc, "tr", 0).fill("40")
    cell(page, calc, "award1", 0).fill("5")
    cell(page, calc, "tr", 1).fill("44")
    cell(page, calc, "award1", 1).fill("3")
    assert not row(page, calc, "award1_vp").is_visible()
    assert [total(page, calc, 0), total(page, calc, 1)] == ["40", "44"]
    funded.check()
    assert row(page, calc, "award1_vp").is_visible()
    assert [total(page, calc, 0), total(page, calc, 1)] == ["45", "44"]
    page.reload()  # the setting is part of the saved state
    assert page.locator("#rs-setting-terraforming-mars-award1_funded").is_checked()
    assert total(page, calc, 0) == "45"


def test_two_holders_of_longest_road_are_marked(page, gallery_url) -> None:
    page.goto(gallery_url + PAGE)
    calc = "catan"
    page.select_option("#rs-count-catan", "3")
    cell(page, calc, "longest_road", 0).fill("1")
    cell(page, calc, "longest_road", 2).fill("1")
    marked = [cell(page, calc, "longest_road", i).get_attribute("aria-invalid") for i in range(3)]
    assert marked == ["true", "false", "true"]
    errors = page.locator(".rs-calc[data-calculator='catan'] .rs-calc__errors").inner_text()
    assert errors == "Longest Road: at most one player can have this."
    assert total(page, calc, 0) == "—"
    cell(page, calc, "longest_road", 2).fill("")
    assert cell(page, calc, "longest_road", 0).get_attribute("aria-invalid") == "false"
    assert total(page, calc, 0) == "2"


def test_shown_helpers_are_set_apart_and_tables_fill_their_line(page, gallery_url) -> None:
    page.goto(gallery_url + PAGE)
    page.locator(".rs-calc__examples[data-calculator='seven-wonders'] button").first.click()
    helpers = page.locator(".rs-calc[data-calculator='seven-wonders'] .rs-calc__helpers")
    assert helpers.locator("th").first.inner_text() == "Helper values (not added to the total)"
    sets = [
        page.locator(f"[data-calculator='seven-wonders'] [data-term='sets'][data-player='{i}']")
        for i in range(3)
    ]
    assert [s.inner_text() for s in sets] == ["2", "0", "0"]
    page.locator(".rs-calc__examples[data-calculator='agricola'] button").first.click()
    fields = page.locator("[data-calculator='agricola'] [data-term='fields_vp'][data-player='1']")
    assert fields.inner_text() == "-1"
    assert page.problems == []


def test_a_goal_with_nobody_at_it_scores_nothing(page, gallery_url) -> None:
    page.goto(gallery_url + PAGE)
    calc = "wingspan"
    cell(page, calc, "goal1", 0).fill("0")
    cell(page, calc, "goal1", 1).fill("2")
    goal = "[data-calculator='wingspan'] [data-term='round1']"
    assert page.locator(f"{goal}[data-player='0']").inner_text() == "0"
    assert page.locator(f"{goal}[data-player='1']").inner_text() == "4"


@pytest.mark.parametrize("lang", ["", "en/"])
def test_the_gallery_page_has_no_serious_accessibility_violations(
    page, gallery_url, axe_script, lang: str
) -> None:
    page.goto(gallery_url + lang + "games/scoring-gallery/score/")
    for calc_id in ("seven-wonders", "terraforming-mars"):  # helpers; yes/no settings
        page.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    page.select_option("#rs-count-catan", "3")
    page.locator("[data-calculator='catan'] [data-field='longest_road'][data-player='0']").fill("1")
    page.locator("[data-calculator='catan'] [data-field='longest_road'][data-player='1']").fill("1")
    assert serious_violations(page, axe_script) == []
