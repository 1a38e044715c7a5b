"""The benchmark's scratch projects stay valid (the benchmark itself is not a test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rulesite.validate import load_catalog
from tests.helpers import REPO


def test_benchmark_projects_are_valid(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("benchmark", REPO / "scripts" / "benchmark.py")
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    catalog = load_catalog(benchmark.make_project(tmp_path, 7))
    assert len(catalog.games) == 7
    # copies cycle through clans (1 calculator), its-a-wonderful-world (1), nations (2)
    assert len({calc.id for game in catalog.games for calc in game.scoring}) == 9
