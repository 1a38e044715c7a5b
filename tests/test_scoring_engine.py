"""The scoring engine: rank awards, rarity, tie-breakers, every worked example, properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesite.catalog import load_catalog
from rulesite.model.lines import LINE_KINDS
from rulesite.model.lines.rank import rank_awards
from rulesite.project import Project
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import score
from rulesite.scoring.inputs import check
from tests.helpers import REPO

CATALOG = load_catalog(Project(REPO))
CALCULATORS = {calc.id: calc for game in CATALOG.games for calc in game.scoring}
MODELS = {calc_id: compile_calculator(calc) for calc_id, calc in CALCULATORS.items()}
EXAMPLES = [(calc.id, example) for calc in CALCULATORS.values() for example in calc.examples]


SEED_INPUTS = {  # the seed games' calculators and their input ids, in order
    "nations": [
        "vp",
        "colonies",
        "wonders",
        "workers",
        "gold",
        "food",
        "stone",
        "books",
        "military",
        "stability",
        "order",
    ],
    "nations-books": ["books"],
    "clans-of-caledonia": [
        "honor",
        "wool",
        "milk",
        "grain",
        "cheese",
        "bread",
        "whisky",
        "money",
        "hops",
        "cotton",
        "tobacco",
        "sugarcane",
        "contracts",
        "settlements",
    ],
    "its-a-wonderful-world": ["card_vp", "combo_vp", "generals", "financiers", "built"],
}
"""Games added later bring their own calculators, checked by the tests over CALCULATORS."""


def test_the_issue_calculators_exist_with_their_input_ids() -> None:
    inputs = {calc_id: [i.id for i in calc.inputs] for calc_id, calc in CALCULATORS.items()}
    assert {calc_id: inputs.get(calc_id) for calc_id in SEED_INPUTS} == SEED_INPUTS


@pytest.mark.parametrize(("calc_id", "example"), EXAMPLES, ids=lambda v: getattr(v, "id", v))
def test_worked_example(calc_id: str, example) -> None:
    model = MODELS[calc_id]
    assert check(model, example.players, example.settings) == []
    result = score(model, example.players, example.settings)
    assert [p.total for p in result.players] == example.totals
    assert result.winners == example.winners
    for player, expected in zip(result.players, example.breakdown or [], strict=False):
        assert {k: player.breakdown[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("amounts", "points", "tie", "expected"),
    [
        ([5, 5, 3], [12, 6], "split", [9, 9, 0]),  # the seed's example: (12+6)÷2 = 9
        ([5, 5, 3], [12, 6], "none", [0, 0, 0]),  # the two tied take places 1-2
        ([5, 5, 3], [12, 6], "full", [12, 12, 0]),
        ([4, 2, 2, 1], [18, 12, 6], "split", [18, 9, 9, 0]),
        ([1, 1, 1], [18, 12, 6], "split", [12, 12, 12]),
        ([2, 2, 2, 2], [12, 6], "split", [4, 4, 4, 4]),  # 18 ÷ 4 = 4.5, rounded down
        ([3, 1], [8], "split", [8, 0]),
    ],
)
def test_rank_awards(amounts, points, tie, expected) -> None:
    assert rank_awards(amounts, points, tie) == expected


def test_rarity_orders_equal_totals_cotton_rarest() -> None:
    term = MODELS["clans-of-caledonia"]["terms"][5]
    assert term["kind"] == "rarity"
    envs = [{"cotton": 1, "tobacco": 1, "sugarcane": 1}]
    # all equal: sugar cane most common (3), tobacco next (4), cotton rarest (5)
    rarity_points = LINE_KINDS["rarity"].points
    assert rarity_points(term, None, envs) == [3 + 4 + 5]
    envs = [
        {"cotton": 2, "tobacco": 0, "sugarcane": 0},
        {"cotton": 0, "tobacco": 0, "sugarcane": 1},
    ]
    # cotton 2 is most common (3 each); tobacco 0 and sugar cane 1: sugar cane next (4), tobacco 5
    assert rarity_points(term, None, envs) == [6, 4]


def test_resources_are_added_before_dividing() -> None:
    players = [
        {"name": "A", "gold": 9, "food": 9, "stone": 2, "order": 1},
        {"name": "B", "order": 2},
    ]
    result = score(MODELS["nations"], players)
    assert result.players[0].breakdown["resources"] == 2  # 20 // 10, not 0 + 0 + 0


def test_total_floor_is_shown_in_the_breakdown() -> None:
    model = {**MODELS["nations"], "total_min": 5}
    result = score(model, [{"name": "A", "vp": 1, "order": 1}, {"name": "B", "order": 2}])
    assert result.players[1].total == 5 and result.players[1].breakdown["floor"] == 5


def random_players(calc_id: str, rng: random.Random, count: int | None = None) -> list[dict]:
    calc = CALCULATORS[calc_id]
    count = count or rng.randint(calc.players.min, calc.players.max)
    players = []
    for index in range(count):
        player = {"name": f"P{index}"}
        for spec in calc.inputs:
            if spec.unique:
                player[spec.id] = index + spec.min
            else:
                player[spec.id] = rng.randint(spec.min, min(spec.max, spec.min + 40))
        players.append(player)
    return players


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(CALCULATORS)), st.randoms(use_true_random=False))
def test_totals_are_the_sum_of_their_breakdown(calc_id: str, rng: random.Random) -> None:
    result = score(MODELS[calc_id], random_players(calc_id, rng))
    for player in result.players:
        assert player.total == sum(player.breakdown.values())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(CALCULATORS)), st.randoms(use_true_random=False))
def test_reordering_players_changes_nobodys_total(calc_id: str, rng: random.Random) -> None:
    players = random_players(calc_id, rng)
    shuffled = players[:]
    rng.shuffle(shuffled)
    before = {p.name: (p.total, p.rank) for p in score(MODELS[calc_id], players).players}
    after = {p.name: (p.total, p.rank) for p in score(MODELS[calc_id], shuffled).players}
    assert before == after
    assert set(score(MODELS[calc_id], players).winners) == set(
        score(MODELS[calc_id], shuffled).winners
    )


def test_input_problems_are_listed_one_per_line() -> None:
    model = MODELS["nations"]
    players = [
        {"name": "A", "military": -100, "gold": 1.5, "order": 1},
        {"name": "B", "wood": 1, "order": 1},
        {"name": True, "books": "4"},
    ]
    assert check(model, players, {"side": "a"}) == [
        "players[0].military: -100 is outside -99–999",
        "players[0].gold: expected a whole number, got 1.5",
        "players[1].wood: unknown input (known: books, colonies, food, gold, military, order, "
        "stability, stone, vp, wonders, workers)",
        "players[2].name: expected text of at most 40 characters",
        "players[2].books: expected a whole number, got '4'",
        "players: each player needs a different order",
        "side: unknown setting",
    ]
    assert check(model, [{"name": "solo"}], {}) == ["players: 1 players; nations takes 2–5"]
