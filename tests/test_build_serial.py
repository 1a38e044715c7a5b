"""What a clean build does before the language processes start (publish/build.py)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.project import Project
from rulesite.publish import build as build_module
from tests.projects import make_project


class _Stop(Exception):
    """Ends the build once what the test looks at has happened."""


def test_the_documents_are_freed_before_the_fork_without_a_collection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line of every key is dropped before the language processes are forked, by reference
    count alone: nothing holds the catalog, so no collector pass over it is needed."""
    root = make_project(tmp_path / "p")
    documents: list[weakref.ref] = []
    alive_at_fork: list[bool] = []

    def loading(project: Project, **options: object) -> object:
        catalog = load_catalog(project, **options)
        documents.extend(weakref.ref(doc) for doc in catalog.documents.values())
        return catalog

    def forking(project: Project) -> list[Path]:  # called right before the languages start
        alive_at_fork.extend(ref() is not None for ref in documents)
        raise _Stop

    monkeypatch.setattr(build_module, "load_catalog", loading)
    monkeypatch.setattr(build_module, "static_files", forking)
    monkeypatch.setattr(gc, "collect", lambda *a: pytest.fail("no collection"))
    with pytest.raises(_Stop):
        build_module.build(Project(root), clean=True)
    assert documents and alive_at_fork == [False] * len(documents)
