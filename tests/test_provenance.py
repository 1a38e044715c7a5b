"""Provenance: sources cited by id, verification dates aged on one injectable day, warnings."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.check.provenance import Freshness, cited_verified, measuring_day
from rulesite.errors import DataError, UsageError
from rulesite.model import Citation, Game
from rulesite.project import Project
from rulesite.render.cache import ContentCache, render_cached
from rulesite.render.renderer import render_pages
from tests.projects import REAL, good_game_text, make_project

CARD_VERIFIED = dt.date(2026, 1, 15)
"""The fixture's card and rulebook verification date."""
DESIGNER_VERIFIED = dt.date(2025, 10, 1)
"""The fixture's designer ruling: the tie-breaker ruling's oldest citation."""

STALE = (
    "data/games/mini-game.yaml:{line}: {path}: last verified {date}, {days} days ago "
    "(more than 365): re-check it"
)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(make_project(tmp_path / "p"))


def game_of(project: Project, today: dt.date) -> Game:
    return load_catalog(project, today=today).games[0]


def day_after(date: dt.date, days: int) -> dt.date:
    return date + dt.timedelta(days=days)


# --- The day ages are measured on -------------------------------------------------------------


def test_the_measuring_day_is_the_given_day_else_source_date_epoch_else_today(
    monkeypatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13 UTC
    assert measuring_day(dt.date(2030, 1, 1)) == dt.date(2030, 1, 1)
    assert measuring_day() == dt.date(2023, 11, 14)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert measuring_day() == dt.date.today()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "  ")
    assert measuring_day() == dt.date.today()


@pytest.mark.parametrize("value", ["yesterday", "1.5", "99999999999999999999"])
def test_a_source_date_epoch_that_is_not_seconds_is_a_usage_error(monkeypatch, value) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(UsageError, match="SOURCE_DATE_EPOCH must be whole seconds since"):
        measuring_day()


def test_source_date_epoch_ages_the_dates_but_never_makes_them_future(
    project: Project, monkeypatch
) -> None:
    # A reproducible build dated before the data was verified: nothing is stale, and the
    # verification dates are not "in the future" (that compares with the real date).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    catalog = load_catalog(project)
    assert catalog.as_of == dt.date(2023, 11, 14) and catalog.warnings == ()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")  # 2030-03-17
    assert load_catalog(project).as_of == dt.date(2030, 3, 17)
    assert len(load_catalog(project).warnings) == 3  # the card and both rulings


# --- Dates -------------------------------------------------------------------------------------


def test_stale_means_older_than_the_limit_not_as_old() -> None:
    freshness = Freshness(dt.date(2026, 1, 1), 365)
    assert not freshness.is_stale(dt.date(2025, 1, 1))  # 365 days
    assert freshness.is_stale(dt.date(2024, 12, 31))  # 366 days
    assert not freshness.is_stale(dt.date(2026, 6, 1))  # a later date is not old
    assert not freshness.is_stale(None)


def test_a_ruling_is_as_fresh_as_its_oldest_citation(project: Project) -> None:
    game = game_of(project, CARD_VERIFIED)
    hand_limit, tie_breaker = game.faq
    assert cited_verified(game, hand_limit.cites) == CARD_VERIFIED  # the source's date
    assert cited_verified(game, tie_breaker.cites) == DESIGNER_VERIFIED  # the older one
    newer = Citation(source="designer", verified=dt.date(2026, 1, 20))
    assert cited_verified(game, [newer]) == dt.date(2026, 1, 20)  # its own date wins
    assert cited_verified(game, []) is None


# --- Warnings ------------------------------------------------------------------------------------


def test_nothing_is_stale_within_the_limit(project: Project) -> None:
    assert load_catalog(project, today=day_after(DESIGNER_VERIFIED, 365)).warnings == ()


def test_a_ruling_and_the_card_verified_too_long_ago_are_warnings(project: Project) -> None:
    ruling_day = day_after(DESIGNER_VERIFIED, 366)
    catalog = load_catalog(project, today=ruling_day)
    assert [str(w) for w in catalog.warnings] == [
        STALE.format(line=51, path="faq[1]", date="2025-10-01", days=366)
    ]
    later = load_catalog(project, today=day_after(CARD_VERIFIED, 400)).warnings
    assert [str(w) for w in later] == [
        STALE.format(line=20, path="card.verified", date="2026-01-15", days=400),
        STALE.format(line=44, path="faq[0]", date="2026-01-15", days=400),
        STALE.format(line=51, path="faq[1]", date="2025-10-01", days=506),
    ]


def test_a_ruling_that_cites_nothing_is_a_warning(tmp_path: Path) -> None:
    text = good_game_text().replace(
        "    cites:\n      - {source: rulebook, where: {zh: 第 2 页, en: p. 2}}\n  - id: tie",
        "  - id: tie",
    )
    assert text != good_game_text()
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": text}))
    warnings = load_catalog(project, today=CARD_VERIFIED).warnings
    assert [str(w) for w in warnings] == [
        "data/games/mini-game.yaml:44: faq[0]: cites no source; add `cites` naming the "
        "rulebook or FAQ it comes from"
    ]


def test_the_limit_comes_from_site_yaml(project: Project) -> None:
    site = project.site_file.read_text("utf-8")
    assert "stale_after_days: 365\n" in site
    project.site_file.write_text(site.replace("stale_after_days: 365\n", "stale_after_days: 30\n"))
    warnings = load_catalog(project, today=day_after(CARD_VERIFIED, 31)).warnings
    assert [w.path for w in warnings] == ["card.verified", "faq[0]", "faq[1]"]
    assert "(more than 30)" in warnings[0].message


@pytest.mark.parametrize("value", ["0", '"365"', "1.5", "true", "36501"])
def test_the_limit_is_a_whole_number_of_days(project: Project, value: str) -> None:
    site = project.site_file.read_text("utf-8")
    project.site_file.write_text(
        site.replace("stale_after_days: 365\n", f"stale_after_days: {value}\n")
    )
    with pytest.raises(DataError) as caught:
        load_catalog(project)
    (line,) = caught.value.lines()
    assert line.startswith("data/site.yaml:") and ": stale_after_days: " in line


def test_validate_lists_warnings_and_exits_0(project: Project) -> None:
    day = "1800000000"  # 2027-01-15: the designer's ruling (2025-10-01) is 471 days old
    result = subprocess.run(
        [sys.executable, "-m", "rulesite", "validate"],
        cwd=project.root,
        capture_output=True,
        text=True,
        env={**os.environ, "SOURCE_DATE_EPOCH": day},
    )
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        STALE.format(line=51, path="faq[1]", date="2025-10-01", days=471)
    ]
    assert result.stdout == "ok: 1 games valid; 1 warning\n"


# --- Pages -------------------------------------------------------------------------------------


def test_pages_flag_what_is_stale_on_the_measuring_day(project: Project) -> None:
    fresh = render_pages(project, load_catalog(project, today=CARD_VERIFIED))
    late = render_pages(project, load_catalog(project, today=day_after(CARD_VERIFIED, 366)))
    for lang, flag in (("zh", "超过 365 天未重新核验"), ("en", "not re-checked for over 365 days")):
        faq, overview = f"{lang}/games/mini-game/faq.md", f"{lang}/games/mini-game/index.md"
        assert flag not in fresh[faq] and flag not in fresh[overview]
        assert late[faq].count(flag) == 2 and late[overview].count(flag) == 1
        assert late[faq].count('<strong class="rs-stale">') == 2


def test_every_ruling_has_a_source_line_even_without_citations(tmp_path: Path) -> None:
    text = good_game_text().replace(
        "    cites:\n      - {source: rulebook, where: {zh: 第 2 页, en: p. 2}}\n  - id: tie",
        "  - id: tie",
    )
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": text}))
    pages = render_pages(project, load_catalog(project, today=CARD_VERIFIED))
    assert "来源：未记录\n{: .rs-source }" in pages["zh/games/mini-game/faq.md"]
    assert "Source: not recorded\n{: .rs-source }" in pages["en/games/mini-game/faq.md"]


def test_cached_pages_are_rendered_again_on_another_day(project: Project) -> None:
    cache = ContentCache()
    render_cached(project, load_catalog(project, today=CARD_VERIFIED), cache)
    late = load_catalog(project, today=day_after(CARD_VERIFIED, 366))
    pages = render_cached(project, late, cache)
    assert pages == render_pages(project, late)
    assert "rs-stale" in pages["en/games/mini-game/faq.md"]


def test_source_names_and_places_are_escaped(tmp_path: Path) -> None:
    text = good_game_text().replace(
        "where: {zh: 第 2 页, en: p. 2}}\n  - id: scoring",
        'where: {zh: 第 2 页, en: "<img src=x onerror=alert(1)> {: #x }"}}\n  - id: scoring',
    )
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": text}))
    rules = render_pages(project, load_catalog(project, today=CARD_VERIFIED))
    page = rules["en/games/mini-game/rules.md"]
    assert "<img" not in page and "&#60;img src=x onerror=alert(1)&#62; &#123;: #x &#125;" in page


def test_the_real_data_cites_a_source_for_every_ruling() -> None:
    # No date is required: the seeds record one check date, the card's (tests/test_claims.py).
    catalog = load_catalog(Project(REAL))
    for game in catalog.games:
        for ruling in game.faq:
            assert ruling.cites, (game.slug, ruling.id)
