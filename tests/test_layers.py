"""The package reads as the pipeline, and imports only go down it.

``LAYERS`` lists the stages from the bottom up; a module may import its own folder and the layers
below its own, never a layer above or a sibling stage on the same level. ``ARCHITECTURE.md``
draws the same picture.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO

PACKAGE = REPO / "scripts" / "rulesite"
LAYERS: list[set[str]] = [
    {"errors", "terminal", "project", "markup", "collate"},
    {"forked"},
    {"model"},
    {"scoring"},
    {"load"},
    {"check"},
    {"catalog"},
    {"pages"},
    {"render"},
    {"engine"},
    {"publish"},
    {"serve", "commands"},
    {"cli"},
    {"__main__", "__init__"},
]
"""The stages from the bottom up: a folder or a module directly under ``scripts/rulesite/``."""
MAX_LINES = 500
"""No module grows past this: past it, a module holds more than one job."""


def stage(module: str) -> str:
    """``rulesite.check.game`` → ``check``; ``rulesite`` → ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def level(name: str) -> int:
    return next(index for index, names in enumerate(LAYERS) if name in names)


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every ``rulesite`` module the file imports, at any depth (imports inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if node.module == "rulesite":
                found.update(f"rulesite.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == "rulesite" or name.startswith("rulesite.")}


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_stage_has_a_layer() -> None:
    stages = {stage(module_name(path)) for path in MODULES}
    known = set().union(*LAYERS)
    assert stages - known == set(), "add the new folder to LAYERS (and to ARCHITECTURE.md)"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_only_down_the_pipeline(path: Path) -> None:
    own = stage(module_name(path))
    wrong = sorted(
        name
        for name in imports(path) - {"rulesite"}
        if stage(name) != own and level(stage(name)) >= level(own)
    )
    assert wrong == [], f"{own} (layer {level(own)}) imports {wrong}: a layer above or beside it"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_the_line_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{lines} lines: split it by job"


CALCULATOR_SCRIPTS = sorted((REPO / "templates" / "theme" / "assets").glob("calculator*.js"))
MAX_CALCULATOR_LINES = 400
"""The calculator's scripts stay small enough to read whole (issue 16: state apart from view)."""


def test_the_calculator_is_split_into_scripts() -> None:
    assert len(CALCULATOR_SCRIPTS) > 1


@pytest.mark.parametrize("path", CALCULATOR_SCRIPTS, ids=lambda p: p.name)
def test_no_calculator_script_is_over_its_line_limit(path: Path) -> None:
    lines = len(path.read_text("utf-8").splitlines())
    assert lines <= MAX_CALCULATOR_LINES, f"{path.name}: {lines} lines"


ELEMENT_HELPERS = "calculator-state.js"
"""The one script that makes HTML elements for the calculator's views (window.RulesiteSheet.el)."""


@pytest.mark.parametrize("path", CALCULATOR_SCRIPTS, ids=lambda p: p.name)
def test_calculator_scripts_make_elements_through_one_helper(path: Path) -> None:
    # One el(): attributes and textContent set in one place, not copied into each view.
    text = path.read_text("utf-8")
    if path.name != ELEMENT_HELPERS:
        assert "createElement(" not in text, f"{path.name}: use window.RulesiteSheet.el"
        assert "function el(" not in text, f"{path.name}: use window.RulesiteSheet.el"


def test_the_layer_test_sees_an_upward_import() -> None:
    # The check itself must be able to fail: a record that imported the catalog would be caught.
    assert level(stage("rulesite.catalog")) > level(stage("rulesite.model.game"))
    assert imports(PACKAGE / "catalog.py") >= {"rulesite.check.fields"}
