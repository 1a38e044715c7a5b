"""Compiled templates kept between builds (engine/bytecode.py): only in a private folder of
this user's, and never stale."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from rulesite.engine import bytecode


@pytest.fixture
def cache_root(tmp_path: Path):
    root = tmp_path / ".cache"
    root.mkdir(mode=0o700)
    bytecode.use(root)
    yield root
    bytecode.use(None)


def render(folder: Path, cache: jinja2.BytecodeCache | None) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), bytecode_cache=cache)
    return env.get_template("page.j2").render(n=2)


def test_an_edited_template_is_compiled_again(cache_root: Path, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "page.j2").write_text("{{ n * 2 }}", "utf-8")
    assert render(templates, bytecode.cache("pages")) == "4"
    assert len(list((cache_root / "jinja" / "pages").iterdir())) == 1  # kept
    (templates / "page.j2").write_text("{{ n * 3 }}", "utf-8")
    assert render(templates, bytecode.cache("pages")) == "6"
    # keyed by name: the edit replaced the entry instead of adding one
    assert len(list((cache_root / "jinja" / "pages").iterdir())) == 1


def test_a_folder_others_may_write_is_never_used(cache_root: Path) -> None:
    os.chmod(cache_root, 0o777)
    assert bytecode.cache("pages") is None
    os.chmod(cache_root, 0o700)
    (cache_root / "jinja").mkdir(exist_ok=True)
    (cache_root / "jinja" / "theme").symlink_to(cache_root.parent)
    assert bytecode.cache("theme") is None
    assert bytecode.cache("pages") is not None


def test_no_cache_unless_a_build_names_one() -> None:
    bytecode.use(None)
    assert bytecode.cache("theme") is None
