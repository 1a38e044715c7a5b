"""Each formula text is parsed once however often it is used (the layers: test_layers.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from rulesite.catalog import load_catalog
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from rulesite.scoring import expr
from tests.helpers import REPO


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
