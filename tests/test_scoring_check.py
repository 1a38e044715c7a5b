"""Scoring checks that the bad-data corpus cannot show: what they accept, and their edges."""

from __future__ import annotations

from typing import Any

import pytest

from rulesite.scoring.check import RESERVED_NAMES, calculator_problems
from tests.scoring_vectors import make_calculator, rank_line

AWARDS_3_4 = [{"players": {"min": 3, "max": 4}, "points": [5, 2]}]


def problems(**fields: Any) -> list[tuple[tuple, str]]:
    fields.setdefault("inputs", [{"id": "x"}])
    fields.setdefault("players", {"min": 2, "max": 4})
    calc = make_calculator("test", **fields)
    return [p for p in calculator_problems(calc) if p[0][0] != "examples"]


def award_line(**more: Any) -> dict[str, Any]:
    return {"id": "award", "rank": {"by": "x", "awards": AWARDS_3_4, "tie": "full"}, **more}


def test_award_tables_are_needed_only_where_their_line_applies() -> None:
    assert problems(terms=[award_line()]) == [
        (("terms", 0, "rank", "awards"), "no award table for 2 players")
    ]
    assert problems(terms=[award_line(players={"min": 3, "max": 4})]) == []
    # A `when` that is 0 with two players, whatever the settings: no table needed for 2.
    assert problems(terms=[award_line(when="max(0, players - 2)")]) == []
    # A `when` on a setting can be 1 with two players: the table is needed.
    settings = [{"id": "funded", "default": False}]
    assert problems(settings=settings, terms=[award_line(when="funded")]) == [
        (("terms", 0, "rank", "awards"), "no award table for 2 players")
    ]


@pytest.mark.parametrize("name", RESERVED_NAMES)
def test_reserved_names_are_refused_for_inputs_lines_and_settings(name: str) -> None:
    message = f"{name!r} is a reserved name ({', '.join(RESERVED_NAMES)}); choose another"
    found = problems(
        inputs=[{"id": name}],
        terms=[{"id": name, "formula": "1"}],
        settings=[{"id": name, "default": True}],
    )
    assert (("inputs", 0, "id"), message) in found
    assert (("terms", 0, "id"), message) in found
    assert (("settings", 0, "id"), message) in found


def test_javascripts_own_names_cannot_be_written() -> None:
    from pydantic import ValidationError

    for name in ("__proto__", "hasOwnProperty", "toString", "valueOf", "_x"):
        with pytest.raises(ValidationError):
            make_calculator("test", inputs=[{"id": name}], terms=[{"id": "t", "formula": "1"}])


def test_a_yes_no_setting_is_a_name_and_a_choice_is_its_flags() -> None:
    settings = [
        {"id": "funded", "default": False},
        {"id": "side", "options": ["a", "b"], "default": "a"},
    ]
    terms = [{"id": "t", "formula": "funded + side_a + side_b"}]
    assert problems(settings=settings, terms=terms) == []
    terms = [{"id": "t", "formula": "side"}]
    assert problems(settings=settings, terms=terms) == [
        (("terms", 0, "formula"), "unknown name 'side' in formula 'side'")
    ]
    clash = [{"id": "side_a"}]
    assert problems(settings=settings, inputs=clash, terms=[{"id": "t", "formula": "1"}]) == [
        (("inputs", 0, "id"), "name 'side_a' is used more than once")
    ]


def test_a_qualifying_minimum_is_any_whole_number() -> None:
    line = {"id": "goal", **rank_line("x", [4, 1, 0], "split", at_least=-3)}
    line["rank"]["awards"][0]["players"] = {"min": 2, "max": 4}
    assert problems(terms=[line]) == []


def test_a_table_may_start_below_every_value() -> None:
    rows = [{"at_least": -1_000_000, "points": 0}, {"at_least": 3, "points": 2}]
    table = {"id": "chart", "table": {"by": "x - 5", "rows": rows}}
    assert problems(terms=[table]) == []


def test_a_shown_helper_need_not_be_used() -> None:
    terms = [{"id": "h", "formula": "x", "helper": "shown"}, {"id": "t", "formula": "1"}]
    assert problems(terms=terms) == []
