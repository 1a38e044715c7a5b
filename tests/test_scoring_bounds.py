"""Exactness in the browser: the ranges validation proves hold for every input in range."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesite.model import Calculator
from rulesite.scoring.bounds import SAFE_INTEGER, Span, check_bounds, span
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import Model
from rulesite.scoring.expr import Tree, evaluate, parse

LIMIT = "±9,007,199,254,740,991, the largest whole number a browser computes exactly"


def test_safe_integer_is_javascripts() -> None:
    assert SAFE_INTEGER == 9_007_199_254_740_991 == 2**53 - 1


# Soundness: every value a formula takes, at every step, lies within what span() says.

NAMES = ("a", "b", "c")


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> Tree:
    if depth > 3 or draw(st.booleans()):
        return draw(
            st.sampled_from(NAMES).map(lambda v: {"v": v})
            | st.integers(-1000, 1000).map(lambda n: {"n": n})
        )
    op = draw(st.sampled_from(["+", "-", "*", "//", "neg", "min", "max"]))
    left, right = draw(trees(depth + 1)), draw(trees(depth + 1))
    if op == "//":
        return {"op": op, "a": [left, {"n": draw(st.integers(1, 9))}]}
    if op == "neg":
        return {"op": op, "a": [left]}
    return {"op": op, "a": [left, right]}


@st.composite
def ranges_and_values(draw: st.DrawFn) -> tuple[dict[str, Span], dict[str, int]]:
    spans, values = {}, {}
    for name in NAMES:
        low = draw(st.integers(-1_000_000, 1_000_000))
        high = draw(st.integers(low, 1_000_000))
        spans[name] = Span.of(low, high)
        values[name] = draw(st.sampled_from([low, high]) | st.integers(low, high))
    return spans, values


def farthest_step(tree: Tree, env: dict[str, int]) -> int:
    """The value farthest from zero among every step of evaluating ``tree``."""
    steps = [evaluate(tree, env)] + [farthest_step(child, env) for child in tree.get("a", [])]
    return max(steps, key=abs)


@settings(max_examples=500, deadline=None)
@given(trees(), ranges_and_values())
def test_span_contains_every_value_and_every_step(
    tree: Tree, ranges: tuple[dict[str, Span], dict[str, int]]
) -> None:
    spans, values = ranges
    bounds = span(tree, spans)
    assert bounds.low <= evaluate(tree, values) <= bounds.high
    assert abs(farthest_step(tree, values)) <= abs(bounds.peak)


def test_a_step_can_reach_further_than_the_result() -> None:
    spans = {"a": Span.of(0, 1_000_000)}
    bounds = span(parse("min(a * a * a, 5)"), spans)
    assert (bounds.low, bounds.high, bounds.peak) == (0, 5, 10**18)


@settings(max_examples=2000, deadline=None)
@given(
    st.integers(-SAFE_INTEGER, SAFE_INTEGER) | st.sampled_from([SAFE_INTEGER, -SAFE_INTEGER]),
    st.integers(1, 10**9),
)
def test_floor_division_in_the_safe_range_is_exact_in_doubles(dividend: int, divisor: int) -> None:
    # Python's float division is IEEE 754 division, as in JavaScript: Math.floor(a / b).
    assert math.floor(dividend / divisor) == dividend // divisor


# Whole calculators: where a problem is reported, and that it is reported once.


def calculator(**changes: Any) -> Model:
    data: dict[str, Any] = {
        "id": "test",
        "title": {"zh": "测试", "en": "Test"},
        "intro": {"zh": "测试。", "en": "Test."},
        "players": {"min": 2, "max": 4},
        "rule": "scoring",
        "inputs": [
            {"id": "x", "label": {"zh": "x", "en": "x"}, "help": {"zh": "x", "en": "x"}},
            {"id": "y", "label": {"zh": "y", "en": "y"}, "help": {"zh": "y", "en": "y"}},
        ],
        "terms": [{"id": "t", "label": {"zh": "t", "en": "t"}, "formula": "x"}],
        "when_tied": "shared",
        "examples": [
            {
                "id": "e",
                "note": {"zh": "e", "en": "e"},
                "players": [{}],
                "totals": [0],
                "winners": [],
            },
        ],
    }
    return compile_calculator(Calculator.model_validate({**data, **changes}))


def ranged_inputs(high: int = 1_000_000) -> list[dict[str, Any]]:
    label = {"zh": "x", "en": "x"}
    return [{"id": name, "label": label, "help": label, "min": -high, "max": high} for name in "xy"]


def term(term_id: str, **kind: Any) -> dict[str, Any]:
    return {"id": term_id, "label": {"zh": term_id, "en": term_id}, **kind}


def test_the_default_ranges_are_exact() -> None:
    assert check_bounds(calculator(), ("scoring", 0)) == []


def test_a_term_built_on_a_reported_term_is_not_reported_again() -> None:
    calc = calculator(
        inputs=ranged_inputs(),
        terms=[
            term("cube", formula="x * x * x"),
            term("more", formula="cube * 2"),
            term("square", formula="y * y"),
        ],
        tiebreakers=[{"by": "cube + 1", "prefer": "higher", "label": {"zh": "t", "en": "t"}}],
    )
    assert check_bounds(calc, ("scoring", 0)) == [
        (
            ("scoring", 0, "terms", 0, "formula"),
            "this formula can reach 1,000,000,000,000,000,000 with inputs in range; every value "
            f"must stay within {LIMIT}: narrow the input ranges or change the formula",
        )
    ]


def test_a_huge_value_is_given_as_a_power_of_ten() -> None:
    calc = calculator(inputs=ranged_inputs(), terms=[term("t", formula="x * x * x * x * x * x")])
    ((_, message),) = check_bounds(calc, ())
    assert message.startswith("this formula can reach at least 10^36 with inputs in range")


def test_rarity_points_are_bounded() -> None:
    calc = calculator(
        inputs=ranged_inputs(),
        terms=[
            term(
                "goods",
                rarity={
                    "kinds": ["x", "y"],
                    "values": [1, 5_000_000_000],
                    "rarer_on_tie": ["y", "x"],
                },
            )
        ],
    )
    assert check_bounds(calc, ()) == [
        (
            ("terms", 0, "rarity", "values"),
            "the points can reach 10,000,000,000,000,000 with inputs in range; every value "
            f"must stay within {LIMIT}: narrow the input ranges or use smaller values",
        )
    ]


@pytest.mark.parametrize("tie", ["split", "full", "none"])
def test_split_awards_are_bounded_as_they_are_added_up(tie: str) -> None:
    points = [4_000_000_000_000_000, 4_000_000_000_000_000, 4_000_000_000_000_000, 7]
    awards = [{"players": {"min": 2, "max": 4}, "points": points}]
    calc = calculator(terms=[term("most", rank={"by": "x", "awards": awards, "tie": tie})])
    problems = check_bounds(calc, ())
    if tie != "split":
        assert problems == []  # each player gets one place's points
        return
    assert problems == [
        (
            ("terms", 0, "rank", "awards"),
            "the award points can reach 12,000,000,000,000,007 when tied players add them up "
            f'("split"); every value must stay within {LIMIT}: use smaller points',
        )
    ]


def test_an_inactive_term_counts_as_zero() -> None:
    # "solo" scores about 1,000,000, but 0 with more than one player: "late" can then reach
    # (0 - 1,000,000) * 9,100,000,000.
    calc = calculator(
        players={"min": 1, "max": 4},
        inputs=ranged_inputs(99),
        terms=[
            term("solo", players={"min": 1, "max": 1}, formula="x + 1000000"),
            term("late", formula="(solo - 1000000) * 91000 * 100000"),
        ],
    )
    assert [where for where, _ in check_bounds(calc, ())] == [("terms", 1, "formula")]
