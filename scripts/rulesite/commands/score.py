"""`rulesite score ID FILE|-`: find a calculator in the project's validated data and score JSON.

The scoring layer (``rulesite.scoring``) knows calculators, not projects; this command joins the
two: it validates the whole project first, so nobody scores with data `rulesite validate` refuses.
"""

from __future__ import annotations

from typing import Any

from rulesite.catalog import load_catalog
from rulesite.errors import UsageError
from rulesite.project import Project
from rulesite.scoring.command import score_input
from rulesite.terminal import quoted


def score_command(project: Project, calculator_id: str, raw: bytes) -> dict[str, Any]:
    """The result for the players in ``raw``; :class:`UsageError` for an unknown id or bad input,
    :class:`~rulesite.errors.DataError` when the project's data is invalid."""
    catalog = load_catalog(project)
    calculators = {calc.id: calc for game in catalog.games for calc in game.scoring}
    calculator = calculators.get(calculator_id)
    if calculator is None:
        known = ", ".join(sorted(calculators))
        raise UsageError(f"unknown calculator {quoted(calculator_id)} (known: {known})")
    return score_input(calculator, raw)
