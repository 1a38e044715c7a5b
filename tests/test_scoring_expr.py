"""The formula language: parsing, evaluation, and clean failure on anything else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesite.scoring.expr import FormulaError, evaluate, names, parse


@pytest.mark.parametrize(
    ("text", "env", "value"),
    [
        ("1 + 2 * 3", {}, 7),
        ("(1 + 2) * 3", {}, 9),
        ("10 - 4 - 3", {}, 3),
        ("-7 // 2", {}, -4),  # floor division rounds towards minus infinity
        ("7 // 2", {}, 3),
        ("max(0, (gold + food) // 10)", {"gold": 7, "food": 6}, 1),
        ("max(0, (gold + food) // 10)", {"gold": -30, "food": 6}, 0),
        ("min(a, b, c)", {"a": 3, "b": -1, "c": 2}, -1),
        ("-15 * side_a", {"side_a": 1}, -15),
        ("2 * (cheese + bread + whisky)", {"cheese": 1, "bread": 2, "whisky": 3}, 12),
    ],
)
def test_evaluates(text: str, env: dict[str, int], value: int) -> None:
    assert evaluate(parse(text), env) == value


def test_names() -> None:
    assert names(parse("max(0, gold + food // 10) - x")) == {"gold", "food", "x"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a // 0", "division by zero at column 3"),
        ("a // b", "divisor of // at column 3 must be a whole number, not a formula"),
        ("a // -2", "divisor of // at column 3 must be positive"),
        ("(a + 1", "'(' at column 1 is never closed"),
        ("a +", "formula ends too early"),
        ("a b", "unexpected 'b' at column 3"),
        ("a ** 2", "unexpected '*' at column 4"),
        ("a / 2", "unexpected character '/' at column 3"),
        ("eval(1, 2)", "unknown function 'eval' at column 1 (use min or max)"),
        ("max(1)", "max at column 1 needs at least two arguments"),
        ("max + 1", "max at column 1 needs arguments: max(a, b)"),
        ("__import__", None),
        ("1234567890", "number 1234567890 at column 1 is too large"),
        ("(" * 200 + "1" + ")" * 200, "formula is nested too deeply"),
    ],
)
def test_refuses_with_a_clear_message(text: str, message: str | None) -> None:
    if message is None:  # a plain name is fine: whether it exists is checked against the model
        assert parse(text) == {"v": "__import__"}
        return
    with pytest.raises(FormulaError) as caught:
        parse(text)
    assert str(caught.value) == message


ALPHABET = "ab01 +-*/(),mxin_"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_random_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        tree = parse(text)
    except FormulaError:
        return
    env = {name: 3 for name in names(tree)}
    assert isinstance(evaluate(tree, env), int)


@st.composite
def formulas(draw, depth: int = 0) -> str:
    if depth > 3 or draw(st.booleans()):
        return draw(st.sampled_from(["a", "b", "c"]) | st.integers(0, 50).map(str))
    kind = draw(st.sampled_from(["+", "-", "*", "//", "neg", "min", "max", "paren"]))
    left, right = draw(formulas(depth + 1)), draw(formulas(depth + 1))
    if kind == "//":
        return f"{left} // {draw(st.integers(1, 9))}"
    if kind == "neg":
        return f"-{left}"
    if kind in ("min", "max"):
        return f"{kind}({left}, {right})"
    if kind == "paren":
        return f"({left})"
    return f"{left} {kind} {right}"


@settings(max_examples=300, deadline=None)
@given(formulas(), st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50))
def test_generated_formulas_match_python_arithmetic(text: str, a: int, b: int, c: int) -> None:
    # The grammar is a subset of Python's with the same precedence and floor division, so
    # Python's own arithmetic (on this trusted, generated text) is the reference.
    expected = _python_reference(text, a, b, c)
    assert evaluate(parse(text), {"a": a, "b": b, "c": c}) == expected


def _python_reference(text: str, a: int, b: int, c: int) -> int:
    import ast
    import operator

    ops = {
        ast.Add: operator.add,
        ast.Sub: operator.sub,
        ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv,
    }
    env = {"a": a, "b": b, "c": c}

    def walk(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp):
            return ops[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp):
            return -walk(node.operand)
        if isinstance(node, ast.Call):
            return {"min": min, "max": max}[node.func.id](*[walk(arg) for arg in node.args])
        if isinstance(node, ast.Name):
            return env[node.id]
        return node.value

    return walk(ast.parse(text, mode="eval"))
