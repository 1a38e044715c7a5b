"""The scoring gallery (``tests/fixtures/scoring-gallery/``): six calculators from well-known games.

Each worked example is scored by `rulesite score` run in the gallery's folder, as an editor would
run it; the same examples run through the page's engine in Node (they are in the shared vectors).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from rulesite.catalog import load_catalog
from rulesite.cli import main
from rulesite.project import Project
from tests.helpers import REPO
from tests.scoring_vectors import GALLERY, VECTORS

CATALOG = load_catalog(Project(GALLERY))
CALCULATORS = {calc.id: calc for game in CATALOG.games for calc in game.scoring}
EXAMPLES = [(calc.id, example) for calc in CALCULATORS.values() for example in calc.examples]

ISSUE_INPUTS = {
    "seven-wonders": [
        "military", "coins", "wonders", "civilian", "commercial", "guilds", "compass", "gear",
        "tablet", "debt",
    ],
    "ticket-to-ride": [
        "r1", "r2", "r3", "r4", "r5", "r6", "tickets_done_points", "tickets_failed_points",
        "tickets_done", "longest_path",
    ],
    "agricola": [
        "fields", "pastures", "grain", "vegetables", "sheep", "boar", "cattle", "unused_spaces",
        "fenced_stables", "clay_rooms", "stone_rooms", "family", "begging", "card_points",
    ],
    "wingspan": [
        "birds", "bonus_cards", "eggs", "cached_food", "tucked_cards", "unused_food", "goal1",
        "goal2", "goal3", "goal4",
    ],
    "terraforming-mars": [
        "tr", "milestones", "award1", "award2", "award3", "greenery", "city_points", "card_vp",
        "megacredits",
    ],
    "catan": ["settlements", "cities", "vp_cards", "longest_road", "largest_army"],
}  # fmt: skip


def test_the_six_calculators_have_the_issue_ids_and_input_ids() -> None:
    assert {calc_id: [i.id for i in c.inputs] for calc_id, c in CALCULATORS.items()} == (
        ISSUE_INPUTS
    )
    players = {calc_id: (c.players.min, c.players.max) for calc_id, c in CALCULATORS.items()}
    assert players == {
        "seven-wonders": (3, 7),
        "ticket-to-ride": (2, 5),
        "agricola": (1, 5),
        "wingspan": (2, 5),
        "terraforming-mars": (2, 5),
        "catan": (3, 4),
    }
    funded = [(s.id, s.yes_no) for s in CALCULATORS["terraforming-mars"].settings]
    assert funded == [(f"award{n}_funded", True) for n in (1, 2, 3)]


def test_every_calculator_has_worked_examples_in_the_shared_vectors() -> None:
    names = {item["name"] for item in json.loads(VECTORS.read_text("utf-8"))["cases"]}
    for calc_id, example in EXAMPLES:
        assert f"{calc_id}/{example.id}" in names
    assert all(len(calc.examples) >= 2 for calc in CALCULATORS.values())


def test_the_gallery_uses_the_sites_own_labels() -> None:
    gallery = (GALLERY / "data" / "site.yaml").read_text(encoding="utf-8")
    assert gallery == (REPO / "data" / "site.yaml").read_text(encoding="utf-8"), (
        "copy data/site.yaml to tests/fixtures/scoring-gallery/data/site.yaml"
    )


def score_here(
    calc_id: str,
    payload: dict,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    """`cd tests/fixtures/scoring-gallery && rulesite score ID -`, in this process."""
    monkeypatch.chdir(GALLERY)
    raw = json.dumps(payload).encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    code = main(["score", calc_id, "-"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("calc_id", "example"), EXAMPLES, ids=lambda v: getattr(v, "id", v))
def test_rulesite_score_gives_each_worked_example(
    calc_id: str, example, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = {**example.settings, "players": example.players}
    code, out, err = score_here(calc_id, payload, monkeypatch, capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert [p["total"] for p in result["players"]] == example.totals
    assert result["winners"] == example.winners
    for player, expected in zip(result["players"], example.breakdown or [], strict=False):
        shown = {**player["breakdown"], **player["helpers"]}
        assert {key: shown[key] for key in expected} == expected


def test_the_command_runs_in_the_gallery_folder() -> None:
    payload = {"players": [{"name": "Ann", "settlements": 4}, {"name": "Bo"}, {"name": "Cy"}]}
    done = subprocess.run(
        [sys.executable, "-m", "rulesite", "score", "catan", "-"],
        input=json.dumps(payload),
        cwd=GALLERY,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winners"] == ["Ann"]


def test_yes_no_settings_are_json_booleans(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = [{"name": "Ann", "award1": 5}, {"name": "Bo", "award1": 3}]
    _, out, _ = score_here("terraforming-mars", {"players": players}, monkeypatch, capsys)
    assert "award1_vp" not in json.loads(out)["players"][0]["breakdown"]  # unfunded: left out
    payload = {"award1_funded": True, "players": players}
    _, out, _ = score_here("terraforming-mars", payload, monkeypatch, capsys)
    assert [p["breakdown"]["award1_vp"] for p in json.loads(out)["players"]] == [5, 0]
    payload = {"award1_funded": "yes", "award2_funded": 1, "players": players}
    code, out, err = score_here("terraforming-mars", payload, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "award1_funded: expected true or false, got 'yes'",
        "award2_funded: expected true or false, got 1",
    ]


def test_two_holders_of_a_one_player_card_are_located(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = [
        {"name": "Ann", "longest_road": 1, "largest_army": 1},
        {"name": "Bo", "largest_army": 0},
        {"name": "Cy", "longest_road": 1},
    ]
    code, out, err = score_here("catan", {"players": players}, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "players[2].longest_road: at most one player may have longest_road; players[0] has it too"
    ]


def test_shown_helpers_are_listed_apart_from_the_points(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ann = {"name": "Ann", "compass": 2, "gear": 2, "tablet": 2}
    players = [ann, {"name": "Bo"}, {"name": "Cy"}]
    _, out, _ = score_here("seven-wonders", {"players": players}, monkeypatch, capsys)
    ann = json.loads(out)["players"][0]
    assert ann["helpers"] == {"sets": 2} and "sets" not in ann["breakdown"]
    assert ann["breakdown"]["science_vp"] == 4 + 4 + 4 + 14 == ann["total"]
