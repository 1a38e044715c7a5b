"""`rulesite score`: JSON in, JSON out; one clear line per problem, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import REPO


def score(calculator: str, payload: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesite", "score", calculator, "-"],
        input=payload,
        cwd=REPO,
        capture_output=True,
        text=True,
    )


def test_scores_the_seed_contract_tie() -> None:
    players = [
        {"name": "Ann", "contracts": 5, "settlements": 4},
        {"name": "Bo", "contracts": 5, "settlements": 2},
        {"name": "Cy", "contracts": 3, "settlements": 1},
    ]
    result = score("clans-of-caledonia", json.dumps({"players": players}))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert [p["name"] for p in out["players"]] == ["Ann", "Bo", "Cy"]
    assert [p["breakdown"]["contract_award"] for p in out["players"]] == [9, 9, 0]
    assert [p["total"] for p in out["players"]] == [27, 21, 6]
    assert out["winners"] == ["Ann"]


def test_undecided_tie_lists_every_tied_player() -> None:
    players = [{"name": "Ann", "honor": 20, "money": 15}, {"name": "Bo", "honor": 20, "money": 15}]
    out = json.loads(score("clans-of-caledonia", json.dumps({"players": players})).stdout)
    assert out["winners"] == ["Ann", "Bo"] and out["outcome"] == "undecided"


def test_tie_broken_by_money_names_the_tiebreaker() -> None:
    players = [{"name": "Ann", "money": 19}, {"name": "Bo", "money": 12}]
    out = json.loads(score("clans-of-caledonia", json.dumps({"players": players})).stdout)
    assert out["winners"] == ["Ann"] and out["decided_by"] == ["money"]


def test_solo_side_a_is_a_setting() -> None:
    payload = {"side": "a", "players": [{"name": "Solo", "card_vp": 40, "combo_vp": 20}]}
    out = json.loads(score("its-a-wonderful-world", json.dumps(payload)).stdout)
    assert out["players"][0]["total"] == 45
    payload["side"] = "b"
    out = json.loads(score("its-a-wonderful-world", json.dumps(payload)).stdout)
    assert out["players"][0]["total"] == 60


def test_bad_input_gets_one_line_per_problem() -> None:
    payload = {"players": [{"name": "Ann", "gold": "lots", "order": 9, "wood": 1}]}
    result = score("nations", json.dumps(payload))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "players: 1 players; nations takes 2–5",
        "players[0].gold: expected a whole number, got 'lots'",
        "players[0].order: 9 is outside 1–5",
        "players[0].wood: unknown input (known: books, colonies, food, gold, military, order, "
        "stability, stone, vp, wonders, workers)",
    ]
    assert result.stdout == ""


def test_unknown_calculator_and_broken_json() -> None:
    result = score("chess", "{}")
    assert result.returncode == 2 and result.stderr.startswith("unknown calculator 'chess'")
    result = score("nations", "{players: [")
    assert result.returncode == 2
    assert result.stderr.startswith("input is not JSON: Expecting property name")
    assert "Traceback" not in result.stderr
