"""`rulesite score`: JSON in, JSON out; one clear line per problem, never a traceback."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

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


# Hostile input: each refusal is one exact line and exit 2, never a traceback.


def score_in_process(
    raw: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str], str]:
    """Exit code, stderr lines and stdout of `rulesite score clans-of-caledonia -`."""
    from rulesite.cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    code = main(["--project", str(REPO), "score", "clans-of-caledonia", "-"])
    out, err = capsys.readouterr()
    return code, err.splitlines(), out


def two_players(first: str = '"name": "Ann"', second: str = '"name": "Bo"') -> bytes:
    return ('{"players": [{' + first + "}, {" + second + "}]}").encode("utf-8")


HOSTILE = {
    "duplicate-key": (
        two_players('"name": "Ann", "money": 1, "money": 90'),
        ["input has the key 'money' twice in one object"],
    ),
    "5000-digit-number": (
        two_players('"money": ' + "9" * 5000),
        ["input has a number longer than 16 digits"],
    ),
    "17-digit-number": (
        two_players('"money": -' + "9" * 17),
        ["input has a number longer than 16 digits"],
    ),
    "beyond-the-input-range": (
        two_players('"money": 1000', '"money": 9999999999999999'),
        [
            "players[0].money: 1000 is outside 0–999",
            "players[1].money: 9999999999999999 is outside 0–999",
        ],
    ),
    "nested-too-deep": (
        b'{"players": ' + b"[" * 21 + b"]" * 21 + b"}",
        ["input is nested more than 20 levels deep"],
    ),
    "not-utf-8": (
        b'{"players": [{"name": "A\xffnn"}, {"name": "Bo"}]}',
        ["input is not UTF-8 text: byte 0xff at offset 24"],
    ),
    "lone-surrogate-in-name": (
        two_players('"name": "Ann\\ud800"'),
        ["players[0].name: '\\ud800' is half of a character (a lone surrogate)"],
    ),
    "control-characters": (
        b'{"players": [{"name": "Ann\\u001b[2J"}, {"name": "Bo", "\\u001b]0;owned\\u0007": 1}],'
        b' "side\\u202e": "a", "\\r": "x"}',
        [
            "players[0].name: contains the control character '\\x1b'",
            "players[1]['\\x1b]0;owned\\x07']: unknown input (known: bread, cheese, "
            "contracts, cotton, grain, honor, hops, milk, money, settlements, sugarcane, "
            "tobacco, whisky, wool)",
            "'side\\u202e': unknown setting",
            "'\\r': unknown setting",
        ],
    ),
    "bidi-override-in-name": (
        two_players('"name": "\\u202eAnn"'),
        ["players[0].name: contains the control character '\\u202e'"],
    ),
    "true-is-not-a-number": (
        two_players('"money": true', '"money": [1, "\\u001b"]'),
        [
            "players[0].money: expected a whole number, got true",
            'players[1].money: expected a whole number, got [1, "\\u001b"]',
        ],
    ),
    "nan": (two_players('"money": NaN'), ["input is not JSON: NaN is not a number JSON allows"]),
    "too-large": (
        b'{"players": [], "x": "' + b"a" * 100_000 + b'"}',
        ["standard input: input is larger than 100 kB"],
    ),
    "thousands-of-players": (
        json.dumps({"players": [{"money": -1}] * 3000}).encode(),
        ["players: 3000 players; clans-of-caledonia takes 2–4"],
    ),
}


@pytest.mark.parametrize(("raw", "expected"), HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_input_gets_one_exact_line_per_problem(
    raw: bytes,
    expected: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, err, out = score_in_process(raw, monkeypatch, capsys)
    assert (code, err, out) == (2, expected, "")


def test_many_problems_are_cut_to_twenty_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    player = {"name": "Ann", **{f"k{i}": 1 for i in range(30)}}
    raw = json.dumps({"players": [player, player]}).encode()
    code, err, _ = score_in_process(raw, monkeypatch, capsys)
    assert code == 2 and len(err) == 21 and err[-1] == "... and 40 more problems"


def test_brackets_inside_strings_do_not_count_as_nesting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = '\\"' + "[{" * 15  # an escaped quote does not end the string
    code, _, out = score_in_process(two_players(f'"name": "{name}"'), monkeypatch, capsys)
    assert code == 0 and json.loads(out)["players"][0]["name"] == '"' + "[{" * 15


def test_a_byte_order_mark_is_allowed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, out = score_in_process(b"\xef\xbb\xbf" + two_players(), monkeypatch, capsys)
    assert code == 0 and json.loads(out)["winners"] == ["Ann", "Bo"]


def test_names_print_on_a_terminal_that_cannot_show_them() -> None:
    payload = {"players": [{"name": "甲", "money": 10}, {"name": "乙"}]}
    result = subprocess.run(
        [sys.executable, "-m", "rulesite", "score", "clans-of-caledonia", "-"],
        input=json.dumps(payload, ensure_ascii=False).encode("utf-8"),
        cwd=REPO,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert result.returncode == 0, result.stderr
    assert b'"name": "\\u7532"' in result.stdout
    assert json.loads(result.stdout)["winners"] == ["甲"]


def test_raw_control_characters_never_reach_the_terminal() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rulesite", "score", "\x1b[2Jchess", "/nowhere/\x1b]0;x\x07"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr == "/nowhere/\\x1b]0;x\\x07: cannot read: No such file or directory\n"
    result = subprocess.run(
        [sys.executable, "-m", "rulesite", "score", "\x1b[2Jchess", "-"],
        input="{}",
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("unknown calculator '\\x1b[2Jchess' (known: ")


def test_a_folder_or_an_endless_file_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulesite.cli import main

    assert main(["--project", str(REPO), "score", "nations", str(REPO)]) == 2
    assert capsys.readouterr().err == f"{REPO}: cannot read: Is a directory\n"
    assert main(["--project", str(REPO), "score", "nations", "/dev/zero"]) == 2
    assert capsys.readouterr().err == "/dev/zero: input is larger than 100 kB\n"
