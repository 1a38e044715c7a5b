"""The tests' own helpers: those that choose cases (every pair still met, every language still
read) and the browser's flags."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from bench.memory import process_tree
from tests.helpers import LIGHTER_NAVIGATION, each_pair, light_in_each_dark_in_one


def values(name: str, count: int) -> list[str]:
    return [f"{name}{index}" for index in range(count)]


@pytest.mark.parametrize(
    "counts", [(3, 3, 2), (2, 3, 2), (4, 3, 3), (5, 4, 2), (1, 3, 2), (3, 1, 2)]
)
def test_each_pair_meets_every_pair_of_values(counts: tuple[int, int, int]) -> None:
    factors = [values(name, count) for name, count in zip("fst", counts, strict=True)]
    cases = each_pair(*factors)
    for x, y in itertools.combinations(range(3), 2):
        met = {(case[x], case[y]) for case in cases}
        assert met == set(itertools.product(factors[x], factors[y])), (x, y)


def test_each_pair_grows_with_the_two_largest_factors_only() -> None:
    assert len(each_pair(values("g", 3), values("k", 3), values("l", 2))) == 9
    assert len(each_pair(values("g", 30), values("k", 3), values("l", 2))) == 90


def test_with_more_thirds_than_firsts_each_pair_is_every_combination() -> None:
    cases = each_pair(["g"], ["a", "b", "c"], ["zh", "en"])
    assert sorted(cases) == sorted(itertools.product(["g"], ["a", "b", "c"], ["zh", "en"]))


def test_light_in_each_language_dark_in_the_first() -> None:
    assert light_in_each_dark_in_one(["zh", "en"]) == [
        ("zh", "light"),
        ("en", "light"),
        ("zh", "dark"),
    ]


def _arguments(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


@pytest.mark.browser
def test_our_feature_switch_keeps_playwrights(browser) -> None:
    """Chromium obeys the last --disable-features switch only: the one the tests add must name
    every feature an earlier one (Playwright's, or the Debian wrapper's) turns off."""
    launched = [_arguments(pid) for pid in process_tree(os.getpid())]
    browsers = [args for args in launched if "--remote-debugging-pipe" in args]
    assert browsers, "the session's browser was not found among this process's children"
    for args in browsers:
        switches = [
            set(arg.split("=", 1)[1].split(","))
            for arg in args
            if arg.startswith("--disable-features=")
        ]
        assert len(switches) >= 2, "Playwright's own switch or ours is gone"
        assert set().union(*switches) - switches[-1] == set()
        assert set(LIGHTER_NAVIGATION) <= switches[-1]
