"""`rulesite card refresh` (issue 20, items 6–9): the card from BoardGameGeek, written as an editor
would, with every reply from tests/data/bgg/ through a fake transport (no test goes online)."""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rulesite.catalog import load_catalog
from rulesite.cli import main
from rulesite.commands import bgg
from rulesite.commands.bgg import MAX_IDS, MIN_INTERVAL, BggClient, BggError, Reply
from rulesite.commands.card import Options, refresh_cards
from rulesite.errors import UsageError
from rulesite.project import Project

REPO = Path(__file__).resolve().parent.parent
RECORDED = REPO / "tests" / "data" / "bgg"
TOKEN = "tok-3f9a61c2-secret"
TODAY = dt.date(2026, 11, 30)


class FakeTransport:
    """Answers each request with the next recorded reply; keeps what was asked."""

    def __init__(self, *replies: Reply | Exception) -> None:
        self.replies = list(replies)
        self.requests: list[tuple[str, dict[str, str]]] = []

    def get(self, url: str, headers: dict[str, str], limit: int) -> Reply:
        self.requests.append((url, headers))
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return Reply(reply.status, reply.body[: limit + 1], reply.retry_after)


def recorded(name: str, status: int = 200) -> Reply:
    return Reply(status, (RECORDED / name).read_bytes())


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """Nations (with a comment an editor wrote in its card) and the fixture game."""
    (tmp_path / "data" / "games").mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copy(REPO / "data" / "site.yaml", tmp_path / "data" / "site.yaml")
    nations = (REPO / "data" / "games" / "nations.yaml").read_text("utf-8")
    nations = nations.replace("  bgg_rank: 276\n", "  bgg_rank: 276  # a snapshot; see verified\n")
    nations = nations.replace("card:\n", "card:\n  # Figures from BGG, checked by hand.\n", 1)
    (tmp_path / "data" / "games" / "nations.yaml").write_text(nations, "utf-8")
    shutil.copy(
        REPO / "tests" / "data" / "good" / "games" / "mini-game.yaml",
        tmp_path / "data" / "games" / "mini-game.yaml",
    )
    return Project(tmp_path)


def run(project: Project, transport: FakeTransport | None, *slugs: str, **options):
    out, err = io.StringIO(), io.StringIO()
    sleeps: list[float] = []
    environ = options.pop("environ", {"RULESITE_BGG_TOKEN": TOKEN})
    ask = options.pop("ask", None)
    code = refresh_cards(
        project,
        Options(list(slugs), **options),
        transport=transport,
        today=TODAY,
        environ=environ,
        ask=ask,
        out=out,
        err=err,
        sleep=sleeps.append,
    )
    assert TOKEN not in out.getvalue() + err.getvalue()  # never printed
    return code, out.getvalue(), err.getvalue(), sleeps


def files(project: Project) -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted(project.games_dir.glob("*"))}


def test_dry_run_prints_the_diff_and_writes_nothing(project: Project) -> None:
    before = files(project)
    transport = FakeTransport(recorded("thing-126042.xml"))
    code, out, err, _ = run(project, transport, "nations", dry_run=True)
    assert code == 0
    assert files(project) == before
    url, headers = transport.requests[0]
    assert url == "https://boardgamegeek.com/xmlapi2/thing?id=126042&stats=1"
    assert headers["Authorization"] == f"Bearer {TOKEN}"
    assert out.startswith("--- a/data/games/nations.yaml\n+++ b/data/games/nations.yaml\n")
    changed = [line for line in out.splitlines() if line[:1] in "+-" and line[:3] not in "---+++"]
    assert changed == [
        "-  bgg_rank: 276  # a snapshot; see verified",
        "+  bgg_rank: 281  # a snapshot; see verified",
        "+    - solo-solitaire-game",
        "-  verified: 2026-09-27",
        "+  verified: 2026-11-30",
    ]
    assert "dry run: 1 file(s) would change; nothing written" in err
    # What is not the card's is listed, never written.
    assert "designers (not in the card): Einar Rosén, Nina Håkansson" in err
    assert "aliases to consider for search: 国家" in err
    assert "(en), aliases to consider for search: Nacje; Nations: The Board Game" in err
    assert "Народы" not in err  # in neither of the site's languages
    # Citations take the BGG source's date: it does not move (no other date may).
    assert "source 'bgg': its verified date stays" in err


def test_the_write_keeps_every_comment_and_touches_only_the_card(project: Project) -> None:
    path = project.games_dir / "nations.yaml"
    before = path.read_text("utf-8")
    code, out, _, _ = run(project, FakeTransport(recorded("thing-126042.xml")), "nations", yes=True)
    assert code == 0 and "wrote data/games/nations.yaml" in out
    after = path.read_text("utf-8")
    comments = [line for line in before.splitlines() if "#" in line]
    for comment in comments:
        if "bgg_rank" not in comment:
            assert comment in after.splitlines(), comment
    assert "  bgg_rank: 281  # a snapshot; see verified" in after
    assert "  # Figures from BGG, checked by hand." in after
    old, new = YAML(typ="safe").load(before), YAML(typ="safe").load(after)
    assert {k: v for k, v in old.items() if k != "card"} == {
        k: v for k, v in new.items() if k != "card"
    }
    assert new["card"]["verified"] == TODAY
    assert new["card"]["best_players"] == {"min": 3, "max": 4}
    assert new["card"]["weight"] == 3.54
    load_catalog(project, today=TODAY)  # still valid


def test_a_game_without_a_bgg_source_gets_one_with_the_fetch_day(project: Project) -> None:
    code, _, err, _ = run(project, FakeTransport(recorded("thing-1.xml")), "mini-game", yes=True)
    assert code == 0
    data = YAML(typ="safe").load((project.games_dir / "mini-game.yaml").read_text("utf-8"))
    assert data["sources"][-1] == {
        "id": "bgg",
        "kind": "reference",
        "name": {"zh": "BoardGameGeek", "en": "BoardGameGeek"},
        "url": "https://boardgamegeek.com/boardgame/1",
        "verified": TODAY,
    }
    card = data["card"]
    assert card["mechanics"] == ["hand-management"]  # Action Points is not invented
    assert "BGG mechanic 'Action Points' is not in data/site.yaml" in err
    assert "add `{id: action-points, label: {..., en: Action Points}}`" in err
    assert card["bgg_rank"] == 9999 and "not ranked; bgg_rank left as it was" in err
    assert card["weight"] == 1.5 and "no weight votes" in err
    assert card["best_players"] == {"min": 3, "max": 3}  # no votes: left
    assert card["play_time"] == {"min": 30, "max": 45} and card["min_age"] == 10
    assert "(zh), aliases to consider for search: 迷你游戏" in err
    assert data["title"] == {"zh": "迷你游戏", "en": "Mini Game"}  # never over a title


def test_queued_and_throttled_replies_are_asked_again_with_back_off(project: Project) -> None:
    transport = FakeTransport(
        Reply(202, b""),
        Reply(429, b"", retry_after=30),
        Reply(503, b"<html>busy</html>"),
        recorded("thing-126042.xml"),
    )
    code, _, err, sleeps = run(project, transport, "nations", dry_run=True)
    assert code == 0 and len(transport.requests) == 4
    assert sleeps == [MIN_INTERVAL, 30.0, MIN_INTERVAL * 4]  # doubled each time, or as BGG says
    assert "BGG queued the request; asking again in 5 s" in err
    assert "BGG asks us to slow down; asking again in 30 s" in err


def test_requests_are_batched_by_twenty_and_spaced() -> None:
    ids = list(range(1, 46))
    body = b"<items>" + b"".join(b'<item type="boardgame" id="%d"/>' % i for i in ids) + b"</items>"
    transport = FakeTransport(*[Reply(200, body)] * 3)
    now = [0.0]
    sleeps: list[float] = []
    client = BggClient(TOKEN, transport, sleep=sleeps.append, clock=lambda: now[0])
    fetched = client.things(ids)
    asked = [re.search(r"id=([0-9,]+)", url).group(1).split(",") for url, _ in transport.requests]
    assert [len(batch) for batch in asked] == [MAX_IDS, MAX_IDS, 5]
    assert sleeps == [MIN_INTERVAL, MIN_INTERVAL]  # no request within seconds of another
    assert sorted(fetched.things) == ids


def test_a_missing_token_says_what_to_do(project: Project) -> None:
    with pytest.raises(BggError) as caught:
        run(project, FakeTransport(), "nations", environ={})
    message = str(caught.value)
    assert "RULESITE_BGG_TOKEN is not set" in message
    assert "https://boardgamegeek.com/applications" in message and "--ranks-csv" in message


def test_a_refused_token_is_named_never_shown(project: Project, monkeypatch, capsys) -> None:
    monkeypatch.setenv("RULESITE_BGG_TOKEN", TOKEN)
    monkeypatch.setattr(bgg, "UrllibTransport", lambda: FakeTransport(Reply(401, b"")))
    monkeypatch.setattr(bgg.time, "sleep", lambda seconds: None)
    before = files(project)
    code = main(["--project", str(project.root), "card", "refresh", "nations", "--yes"])
    captured = capsys.readouterr()
    assert code == 2
    assert "BoardGameGeek refused the token in RULESITE_BGG_TOKEN (401)" in captured.err
    assert TOKEN not in captured.out + captured.err
    assert files(project) == before


def test_a_network_error_leaves_every_file_as_it_was(project: Project) -> None:
    before = files(project)
    transport = FakeTransport(OSError(101, "Network is unreachable"))
    with pytest.raises(BggError, match=r"cannot reach BoardGameGeek .*nothing was changed"):
        run(project, transport, "nations", "mini-game", yes=True)
    assert files(project) == before


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("thing-errors.xml", "BGG says: Rate limit exceeded."),
        ("thing-empty.xml", "BGG has no game with id 126042"),
        ("thing-billion-laughs.xml", "reply refused: DTDForbidden (unsafe XML)"),
        ("thing-external-entity.xml", "reply refused: DTDForbidden (unsafe XML)"),
    ],
)
def test_bad_replies_are_reported_per_game_and_change_nothing(
    project: Project, reply: str, reason: str
) -> None:
    before = files(project)
    code, out, err, _ = run(project, FakeTransport(recorded(reply)), "nations", yes=True)
    assert code == 1 and out == ""
    assert f"data/games/nations.yaml: not refreshed: {reason}" in err
    assert files(project) == before


def test_a_reply_over_the_size_limit_is_refused(project: Project, monkeypatch) -> None:
    monkeypatch.setattr(bgg, "MAX_REPLY_BYTES", 1000)
    before = files(project)
    with pytest.raises(BggError, match="over 1,000 bytes; refused"):
        run(project, FakeTransport(recorded("thing-126042.xml")), "nations", yes=True)
    assert files(project) == before


def test_wrong_types_are_reported_per_field_and_the_rest_applied(project: Project) -> None:
    code, out, err, _ = run(
        project, FakeTransport(recorded("thing-wrong-types.xml")), "nations", dry_run=True
    )
    assert code == 0
    assert "BGG's reply: yearpublished: 'twenty-thirteen' is not a whole number" in err
    assert "BGG's reply: minage: '' is not a whole number" in err
    assert "BGG's reply: play time: 200–40 is not a range" in err
    assert "BGG's reply: averageweight: 'heavy' is not a number" in err
    assert "+  bgg_rank: 281" in out  # what was sound is applied
    assert "BGG's reply has no players" not in err  # players were there
    assert err.count("card.year") == 0 and err.count("yearpublished") == 1  # said once


def test_missing_fields_are_named(project: Project) -> None:
    body = b'<items><item type="boardgame" id="126042"><minage value="12"/></item></items>'
    code, out, err, _ = run(project, FakeTransport(Reply(200, body)), "nations", dry_run=True)
    assert code == 0
    for words, key in (
        ("players", "players"),
        ("play time", "play_time"),
        ("yearpublished", "year"),
    ):
        assert f"BGG's reply has no {words}; card.{key} left as it was" in err
    assert "-  min_age: 14" in out and "+  min_age: 12" in out


def test_ranks_from_the_dump_need_no_token(project: Project) -> None:
    code, out, err, _ = run(
        project,
        None,
        "nations",
        "mini-game",
        yes=True,
        environ={},
        ranks_csv=RECORDED / "ranks.csv",
    )
    assert code == 1  # the fixture game is not ranked in the dump
    assert "+  bgg_rank: 279" in out
    assert "mini-game.yaml: not refreshed: the ranks dump has no ranked game with id 1" in err
    data = YAML(typ="safe").load((project.games_dir / "nations.yaml").read_text("utf-8"))
    assert data["card"]["bgg_rank"] == 279
    assert data["card"]["verified"] == dt.date(2026, 9, 27)  # only the rank was checked


def test_a_file_that_is_not_the_dump_is_refused(project: Project, tmp_path: Path) -> None:
    wrong = tmp_path / "other.csv"
    wrong.write_text("game,score\n1,2\n", "utf-8")
    with pytest.raises(UsageError, match="not BGG's ranks dump"):
        run(project, None, "nations", ranks_csv=wrong, environ={})


@pytest.mark.parametrize(("answer", "written"), [("y", True), ("", False), ("no", False)])
def test_the_prompt_decides(project: Project, answer: str, written: bool) -> None:
    before = files(project)
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return answer

    run(project, FakeTransport(recorded("thing-126042.xml")), "nations", ask=ask)
    assert asked == ["Write these changes to 1 file(s)? [y/N] "]
    assert (files(project) != before) is written


def test_a_game_needs_its_bgg_id_first(project: Project) -> None:
    path = project.games_dir / "mini-game.yaml"
    path.write_text(path.read_text("utf-8").replace("bgg_id: 1", "bgg_id: 'TODO: id'"), "utf-8")
    with pytest.raises(UsageError) as caught:
        run(project, FakeTransport(), "mini-game")
    assert caught.value.lines() == [
        "data/games/mini-game.yaml:9: card.bgg_id: write the game's BoardGameGeek id first "
        "(the number in its address, boardgamegeek.com/boardgame/<id>/...)"
    ]


def test_choosing_games(project: Project) -> None:
    with pytest.raises(UsageError, match="name the games"):
        run(project, FakeTransport(), dry_run=True)
    with pytest.raises(UsageError, match="no game 'nope'"):
        run(project, FakeTransport(), "nope")
    both = b"<items>" + (RECORDED / "thing-126042.xml").read_bytes().split(b"<items", 1)[1]
    transport = FakeTransport(Reply(200, both.replace(b"</items>", b"") + b"</items>"))
    code, _, err, _ = run(project, transport, every=True, dry_run=True)
    assert (
        "id=1,126042&stats=1" in transport.requests[0][0]
        or "id=126042,1" in (transport.requests[0][0])
    )
    assert "data/games/mini-game.yaml: not refreshed: BGG has no game with id 1" in err
    assert "BGG: request 1 of 1 (2 games)" in err  # the progress line of --all
    assert code == 1


def test_the_command_line_dry_run_prints_the_diff(project: Project, monkeypatch, capsys) -> None:
    """`rulesite card refresh nations --dry-run`, its one request answered by the recording."""
    monkeypatch.setenv("RULESITE_BGG_TOKEN", TOKEN)
    monkeypatch.setattr(bgg, "UrllibTransport", lambda: FakeTransport(recorded("thing-126042.xml")))
    before = files(project)
    code = main(["--project", str(project.root), "card", "refresh", "nations", "--dry-run"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "+  bgg_rank: 281  # a snapshot; see verified" in captured.out
    assert "+  verified: " in captured.out
    assert files(project) == before
