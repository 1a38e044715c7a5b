"""Every problem in one run (issue 20, items 1 and 2): a slip in one place hides nothing else.

The project is built here from the good fixture game and the repo's ``data/site.yaml``; each
test writes the mistakes it is about, and reads back what ``rulesite validate`` reports.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.cli import main
from rulesite.errors import DataError
from rulesite.project import Project

REPO = Path(__file__).resolve().parent.parent
GOOD_GAME = (REPO / "tests" / "data" / "good" / "games" / "mini-game.yaml").read_text("utf-8")


def _project(root: Path, games: dict[str, str], site: str | None = None) -> Path:
    (root / "data" / "games").mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    if site is None:
        shutil.copy(REPO / "data" / "site.yaml", root / "data" / "site.yaml")
    else:
        (root / "data" / "site.yaml").write_text(site, encoding="utf-8")
    for slug, text in games.items():
        (root / "data" / "games" / f"{slug}.yaml").write_text(text, encoding="utf-8")
    return root


def _other(text: str) -> str:
    """The good game under another slug and calculator id (a second valid file)."""
    return text.replace("slug: mini-game", "slug: other-game").replace(
        "  - id: mini-game\n", "  - id: other-game\n"
    )


def _problems(root: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_catalog(Project(root))
    return caught.value.lines()


def _edit(text: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


THIRTEEN_A = (
    ("  verified: 2026-01-15\nintro", "  verified: 2026-13-15\nintro"),  # a bad date
    ("summary:\n", "sumary:\n"),  # a misspelt key (required)
    ("  bgg_rank: 9999", "  bgg_rnak: 9999"),  # a misspelt key in the card
    ("mechanics: [hand-management,", "mechanics: [hand-managment,"),  # a misspelt mechanic
    ("    rules: [setup]\n", "    rules: [setpu]\n"),  # a misspelt rule id
    # a duplicate key, and an unknown key beside it
    (
        "    answer: {zh: 不破平",
        "    question: {zh: 又一个, en: Again}\n    answr: x\n    answer: {zh: 不破平",
    ),
    ("    kind: rules\n    name: {zh: 测试规则书", "    kind: rulebook\n    name: {zh: 测试规则书"),
)
THIRTEEN_B = (
    ("  min_age: 8", "  min_age: eight"),  # a wrong type
    ("{source: designer, verified: 2025-10-01}", "{source: desginer, verified: 2025-10-01}"),
    ("    title: {zh: 计分, en: Scoring}", "    title: {zh: 计分}"),  # a language missing
    ("  - id: hand-limit\n", "  - id: hand-limit\n    tags: [scoring]\n"),  # duplicate key
    ("tags: [scoring, ties]", "tags: [scoring, tie]"),  # a misspelt topic
    ("    rules: [scoring]\n    module: big-hands", "    rules: [scoring]\n    module: big-hand"),
)

THIRTEEN = """\
data/games/mini-game.yaml:5: sumary: unknown key 'sumary'; did you mean 'summary'?
data/games/mini-game.yaml:10: card.bgg_rnak: unknown key 'bgg_rnak'; did you mean 'bgg_rank'?
data/games/mini-game.yaml:15: card.mechanics[0]: unknown mechanic 'hand-managment'; \
did you mean 'hand-management'?
data/games/mini-game.yaml:20: card.verified: invalid value: month must be in 1..12
data/games/mini-game.yaml:48: faq[0].rules[0]: no rule section with id 'setpu' \
(did you mean 'setup'?)
data/games/mini-game.yaml:53: faq[1].question: duplicate key 'question' (first defined on line 52)
data/games/mini-game.yaml:54: faq[1].answr: unknown key 'answr'
data/games/mini-game.yaml:69: sources[0].kind: 'rulebook' is not one of 'rules', 'faq', \
'errata', 'ruling', 'community' or 'reference'
data/games/other-game.yaml:19: card.min_age: expected a whole number, got text 'eight'
data/games/other-game.yaml:33: rules[1].title.en: missing English (en) text; every text needs \
zh and en
data/games/other-game.yaml:48: faq[0].tags: duplicate key 'tags' (first defined on line 45)
data/games/other-game.yaml:55: faq[1].tags[1]: unknown topic 'tie'; did you mean 'ties'?
data/games/other-game.yaml:57: faq[1].module: no module with id 'big-hand' \
(did you mean 'big-hands'?)
data/games/other-game.yaml:60: faq[1].cites[1].source: no source with id 'desginer' \
(did you mean 'designer'? known: designer, rulebook)
"""


def test_fourteen_mistakes_in_two_files_in_one_run(tmp_path, capsys):
    """The issue's editor: field, syntax-level (a bad date), cross-check and duplicate-key
    mistakes in two files, all reported by one `rulesite validate`, and nothing else."""
    root = _project(
        tmp_path,
        {
            "mini-game": _edit(GOOD_GAME, *THIRTEEN_A),
            "other-game": _edit(_other(GOOD_GAME), *THIRTEEN_B),
        },
    )
    assert main(["--project", str(root), "validate"]) == 1
    err = capsys.readouterr().err
    assert err == THIRTEEN, err


def test_a_bad_date_hides_nothing_in_its_own_file(tmp_path):
    """The date is refused where it stands; the rest of the file is checked, cross checks
    included, and no "expected a date, got nothing" follows it."""
    text = _edit(
        GOOD_GAME,
        ("  verified: 2026-01-15\nintro", "  verified: 2026-02-30\nintro"),
        ("mechanics: [hand-management,", "mechanics: [deck-building-galore,"),
    )
    lines = _problems(_project(tmp_path, {"mini-game": text}))
    assert lines == [
        "data/games/mini-game.yaml:15: card.mechanics[0]: unknown mechanic "
        "'deck-building-galore'; define it in data/site.yaml",
        "data/games/mini-game.yaml:20: card.verified: invalid value: day is out of range for month",
    ]


def test_a_failed_record_causes_no_follow_on_errors(tmp_path):
    """A rule section whose id is refused is skipped by the cross checks: the rulings that
    point at it are not said to point at nothing."""
    text = _edit(GOOD_GAME, ("  - id: setup\n", "  - id: Setup\n"))
    lines = _problems(_project(tmp_path, {"mini-game": text}))
    assert lines == [
        "data/games/mini-game.yaml:25: rules[0].id: 'Setup' is not a valid id: use lowercase "
        "letters, digits and hyphens"
    ]


def test_a_range_that_breaks_its_own_rule_is_not_checked_further(tmp_path):
    text = _edit(GOOD_GAME, ("  players: {min: 2, max: 4}", "  players: {min: 4, max: 2}"))
    lines = _problems(_project(tmp_path, {"mini-game": text}))
    assert len(lines) == 1 and "card.players" in lines[0], lines


def test_a_slip_in_site_yaml_still_lets_the_games_be_checked(tmp_path):
    """The site file's own problem and a game's unknown mechanic, in one run."""
    site = (REPO / "data" / "site.yaml").read_text("utf-8")
    site = site.replace("stale_after_days:", "stale_after_dayz:", 1)
    assert "stale_after_dayz" in site
    game = _edit(GOOD_GAME, ("mechanics: [hand-management,", "mechanics: [hand-managment,"))
    lines = _problems(_project(tmp_path, {"mini-game": game}, site=site))
    assert any("stale_after_dayz" in line for line in lines), lines
    assert any("unknown mechanic 'hand-managment'" in line for line in lines), lines


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("summary:\n", "sumary:\n", "sumary: unknown key 'sumary'; did you mean 'summary'?"),
        (
            "  weight: 1.5",
            "  wieght: 1.5",
            "card.wieght: unknown key 'wieght'; did you mean 'weight'?",
        ),
        ("summary:\n", "overview:\n", "overview: unknown key 'overview'"),
    ],
)
def test_a_misspelt_key_is_one_message(tmp_path, old, new, expected):
    """Not "missing summary" plus "unknown sumary": one message naming the closest key; a
    key like no other is unknown, and then the required one is missing."""
    lines = _problems(_project(tmp_path, {"mini-game": _edit(GOOD_GAME, (old, new))}))
    assert any(line.endswith(expected) for line in lines), lines
    if "did you mean" in expected:
        assert len(lines) == 1, lines
    else:
        assert any("summary: missing required key" in line for line in lines), lines


def test_an_id_like_no_other_is_to_be_defined(tmp_path):
    text = _edit(GOOD_GAME, ("    rules: [setup]\n", "    rules: [endgame]\n"))
    lines = _problems(_project(tmp_path, {"mini-game": text}))
    assert lines == [
        "data/games/mini-game.yaml:48: faq[0].rules[0]: no rule section with id 'endgame' "
        "(known: scoring, setup)"
    ]


def test_an_invalid_choice_names_what_was_given(tmp_path):
    text = _edit(GOOD_GAME, ("  chinese_edition: published", "  chinese_edition: publshed"))
    lines = _problems(_project(tmp_path, {"mini-game": text}))
    assert lines == [
        "data/games/mini-game.yaml:16: card.chinese_edition: 'publshed' is not one of "
        "'unconfirmed', 'published', 'announced' or 'none'; did you mean 'published'?"
    ]


def test_a_syntax_error_in_one_file_hides_nothing_in_the_others(tmp_path):
    broken = _edit(_other(GOOD_GAME), ("  bgg_rank: 9999", "  bgg_rank: [9999"))
    broken = broken.replace("slug: other-game", "slug: broken-game")
    game = _edit(GOOD_GAME, ("mechanics: [hand-management,", "mechanics: [hand-managment,"))
    lines = _problems(_project(tmp_path, {"broken-game": broken, "mini-game": game}))
    assert len(lines) == 2, lines
    assert lines[0].startswith("data/games/broken-game.yaml:11: YAML syntax error: ")
    assert lines[1].startswith("data/games/mini-game.yaml:15: card.mechanics[0]: unknown mechanic")
