"""The README documents the scoring model: every line kind, every option of a line, every tie
policy and every reserved name, so a new one cannot land undocumented."""

from __future__ import annotations

import re

from rulesite.model import TERM_KINDS, RankAward, ScoreTerm
from rulesite.scoring.check import RESERVED_NAMES
from tests.helpers import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Scoring calculators") : README.index("## Data format")]


def test_every_line_kind_has_a_row_with_an_example() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| `([^`]+)` \|", SECTION, flags=re.MULTILINE))
    assert set(rows) == set(TERM_KINDS)
    for kind, example in rows.items():
        assert example.startswith(f"{kind}: ")


def test_every_option_of_a_line_and_every_tie_policy_is_explained() -> None:
    options = set(ScoreTerm.model_fields) - {"id", "label", "rule", *TERM_KINDS}
    for option in options:
        assert f"`{option}: " in SECTION, option
    for policy in RankAward.model_fields["tie"].annotation.__args__:
        assert f"`{policy}`" in SECTION, policy
    assert "`at_least: 1`" in SECTION and "rank 1 and 1, the 3 ranks 3" in SECTION


def test_reserved_names_and_the_built_in_players_are_listed() -> None:
    for name in RESERVED_NAMES:
        assert f"`{name}`" in SECTION, name
    assert "built-in `players`" in SECTION and "`*` may multiply two names" in SECTION
