"""Scoring is a layer of its own: under validation and rendering, above the records.

The records do not parse formulas, nothing in ``rulesite/scoring/`` reaches up into validation,
rendering or the command line, and each formula text is parsed once however often it is used.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from rulesite.project import Project
from rulesite.render import render_pages
from rulesite.scoring import expr
from rulesite.validate import load_catalog
from tests.helpers import REPO

PACKAGE = REPO / "scripts" / "rulesite"
ABOVE_SCORING = {"validate", "render", "build", "serve", "cli", "score", "plugin", "publish"}
"""Modules that use scoring and so must not be used by it."""


def imported_modules(path: Path) -> set[str]:
    """Every ``rulesite.*`` module a file imports, at any depth of the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("rulesite")}


def test_records_do_not_import_the_scoring_layer() -> None:
    imports = imported_modules(PACKAGE / "model.py")
    assert not [name for name in imports if name.startswith("rulesite.scoring")]


@pytest.mark.parametrize("module", sorted(p.name for p in (PACKAGE / "scoring").glob("*.py")))
def test_scoring_does_not_import_the_layers_above_it(module: str) -> None:
    imports = imported_modules(PACKAGE / "scoring" / module)
    above = {name for name in imports if name.split(".")[1] in ABOVE_SCORING}
    assert above == set(), f"scoring/{module} imports {sorted(above)}"


def test_each_formula_is_parsed_once_from_validation_to_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: Counter[str] = Counter()
    parser = expr._Parser

    class CountingParser(parser):  # type: ignore[misc, valid-type]
        def __init__(self, text: str) -> None:
            parsed[text] += 1
            super().__init__(text)

    monkeypatch.setattr(expr, "_Parser", CountingParser)
    expr._parse_text.cache_clear()
    project = Project(REPO)
    pages = render_pages(project, load_catalog(project))
    assert any(path.endswith("/score.md") for path in pages)
    assert parsed, "no formula was parsed"
    assert {text: n for text, n in parsed.items() if n > 1} == {}
