"""`rulesite score`: look up a calculator, check the JSON input, return the result as JSON."""

from __future__ import annotations

import json
from typing import Any

from rulesite.errors import UsageError
from rulesite.project import Project
from rulesite.scoring.engine import compile_calculator, score
from rulesite.scoring.inputs import check
from rulesite.validate import load_catalog

MAX_INPUT_BYTES = 100_000


def score_command(project: Project, calculator_id: str, text: str) -> dict[str, Any]:
    """Score the players in ``text`` (JSON); raise :class:`UsageError` listing every problem."""
    catalog = load_catalog(project)
    calculators = {calc.id: calc for game in catalog.games for calc in game.scoring}
    calculator = calculators.get(calculator_id)
    if calculator is None:
        known = ", ".join(sorted(calculators))
        raise UsageError(f"unknown calculator {calculator_id!r} (known: {known})")
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise UsageError(f"input is larger than {MAX_INPUT_BYTES // 1000} kB")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"input is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    if not isinstance(data, dict) or "players" not in data:
        raise UsageError('input must be a JSON object with "players": [...]')
    model = compile_calculator(calculator)
    settings = {key: value for key, value in data.items() if key != "players"}
    problems = check(model, data["players"], settings)
    if problems:
        raise UsageError(problems)
    result = score(model, data["players"], settings).as_json()
    # Name the tie-breakers that decided, as written in the data ("money", "built").
    result["decided_by"] = [calculator.tiebreakers[i].by for i in result["decided_by"]]
    return result
