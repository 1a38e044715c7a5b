"""One contract, two engines: the shared vectors, the compiled-model schema, random calculators.

The same vectors run in Node (``tests/js/scoring-engine.test.js``); here they run through the
Python engine, and random calculators of every kind of line go through both engines at once.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesite.model.lines import LINE_KINDS
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import conflicts, score
from rulesite.scoring.schema import model_schema
from tests.helpers import REPO
from tests.json_schema import errors
from tests.scoring_vectors import (
    VECTORS,
    random_calculator,
    random_players,
    random_settings,
    vectors_text,
)

DATA = json.loads(VECTORS.read_text(encoding="utf-8"))
SCHEMA = model_schema()
NODE = shutil.which("node")


def test_the_vectors_file_is_current() -> None:
    assert VECTORS.read_text(encoding="utf-8") == vectors_text(), (
        "tests/data/scoring-vectors.json is stale: run `.venv/bin/python -m tests.scoring_vectors"
        " --write` and review the diff"
    )


@pytest.mark.parametrize("item", DATA["cases"], ids=lambda item: item["name"])
def test_python_gives_the_vector_result(item: dict[str, Any]) -> None:
    model = DATA["models"][item["model"]]
    assert score(model, item["players"], item["settings"]).as_json() == item["result"]
    assert conflicts(model, item["players"]) == item["conflicts"]


@pytest.mark.parametrize("model_id", sorted(DATA["models"]))
def test_every_model_fits_the_schema(model_id: str) -> None:
    assert errors(DATA["models"][model_id], SCHEMA) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda m: m["terms"][0].update(kind="dice"), "fits 0 of the oneOf choices"),
        (lambda m: m["inputs"][0].update(missing="sometimes"), "fits 0 of the oneOf choices"),
        (lambda m: m.pop("order"), "missing 'order'"),
        (lambda m: m.update(extra=1), "unexpected key 'extra'"),
        (lambda m: m["inputs"][0].update(id="Gold"), "does not match"),
        (lambda m: m["tiebreakers"].append({"by": {"n": 1}, "prefer": "more"}), "expected one of"),
    ],
    ids=["kind", "missing", "order", "extra-key", "name", "prefer"],
)
def test_the_schema_refuses_what_it_forbids(change, expected: str) -> None:
    model = json.loads(json.dumps(DATA["models"]["nations"]))
    change(model)
    assert any(expected in message for message in errors(model, SCHEMA))


def test_the_vectors_carry_the_schema_the_kinds_make() -> None:
    assert DATA["schema"] == SCHEMA
    assert [
        choice["properties"]["kind"]["const"] for choice in SCHEMA["$defs"]["term"]["oneOf"]
    ] == [*LINE_KINDS]


def test_every_kind_has_hand_worked_vectors_or_is_one_of_the_first_five() -> None:
    # The kinds written before the table carry their worked cases elsewhere in the file (the
    # seed games, the gallery, the random calculators); a new kind brings its own.
    first = {"formula", "fewer", "rank", "rarity", "table"}
    for kind in LINE_KINDS.values():
        assert kind.name in first or kind.vectors, f"{kind.name}: declare vectors"


def test_vectors_cover_every_kind_of_line_and_model_feature() -> None:
    terms = [t for m in DATA["models"].values() for t in m["terms"]]
    assert {t["kind"] for t in terms} == set(LINE_KINDS) == set(DATA["kinds"])
    assert {"when", "helper", "at_least", "players"} <= {k for t in terms for k in t}
    settings_ = [s["kind"] for m in DATA["models"].values() for s in m["settings"]]
    assert {"choice", "yes_no"} <= set(settings_)
    inputs = [i for m in DATA["models"].values() for i in m["inputs"]]
    assert any(i["unique"] for i in inputs) and any(i["at_most_one"] for i in inputs)
    assert {c["result"]["outcome"] for c in DATA["cases"]} == {
        "single",
        "tiebreak",
        "shared",
        "undecided",
    }


# Properties over random calculators built from every kind of line.


def random_game(rng: random.Random) -> tuple[dict[str, Any], list[dict], dict[str, Any]]:
    calc = None
    while calc is None:
        calc = random_calculator(rng, "random")
    model = compile_calculator(calc)
    return model, random_players(rng, model), random_settings(rng, model)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_totals_are_the_sum_of_the_breakdown(rng: random.Random) -> None:
    model, players, chosen = random_game(rng)
    assert errors(model, SCHEMA) == []
    for player in score(model, players, chosen).players:
        assert player.total == sum(player.breakdown.values())
        assert not set(player.helpers) & set(player.breakdown)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_player_order_changes_nothing(rng: random.Random) -> None:
    # Unique inputs (turn order) are given: a missing one means the player's position.
    model, players, chosen = random_game(rng)
    shuffled = players[:]
    rng.shuffle(shuffled)
    before, after = score(model, players, chosen), score(model, shuffled, chosen)
    by_name = {p.name: (p.total, p.rank, p.breakdown, p.helpers) for p in before.players}
    assert by_name == {p.name: (p.total, p.rank, p.breakdown, p.helpers) for p in after.players}
    assert set(before.winners) == set(after.winners) and before.outcome == after.outcome


def node_results(batch: dict[str, Any], tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "batch.json"
    path.write_text(json.dumps(batch), encoding="utf-8")
    script = REPO / "tests" / "js" / "score-batch.js"
    done = subprocess.run(
        [NODE or "node", str(script), str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_python_and_node_agree_on_random_calculators(
    tmp_path_factory: pytest.TempPathFactory, seed: int
) -> None:
    if NODE is None:
        pytest.skip("node not found (.ci/run installs it)")
    rng = random.Random(seed)
    models, cases = {}, []
    for index in range(40):
        model, players, chosen = random_game(rng)
        models[str(index)] = model
        cases.append({"model": str(index), "players": players, "settings": chosen})
    results = node_results({"models": models, "cases": cases}, tmp_path_factory.mktemp("node"))
    for item, from_node in zip(cases, results, strict=True):
        model = models[item["model"]]
        expected = score(model, item["players"], item["settings"]).as_json()
        assert from_node == {"result": expected, "conflicts": conflicts(model, item["players"])}
