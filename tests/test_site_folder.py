"""``publish/site_folder.discard``: replaced trees leave at once and are removed in the
background, or (``later``) only when the next discard runs, once a build has written its files."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rulesite.publish.site_folder import discard
from tests.helpers import poll_until


def _tree(folder: Path, files: int) -> Path:
    folder.mkdir(parents=True)
    for number in range(files):
        (folder / f"{number}.html").write_text("<p>old</p>", "utf-8")
    return folder


def _held(trash: Path) -> list[str]:
    """The files the trash still holds, by name."""
    return sorted(path.name for path in trash.rglob("*") if path.is_file())


def test_later_moves_the_trees_and_the_next_discard_removes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trash = tmp_path / "trash"
    first = _tree(tmp_path / "cache-site", 3)
    started: list[object] = []
    with monkeypatch.context() as patch:
        patch.setattr(subprocess, "Popen", lambda *args, **kwargs: started.append(args))
        discard([first], trash, later=True)
    assert not first.exists()
    assert started == []  # no process removes anything yet
    assert _held(trash) == ["0.html", "1.html", "2.html"]

    second = _tree(tmp_path / "old-site", 2)
    discard([second], trash)
    assert not second.exists()
    poll_until(lambda: not any(trash.iterdir()), "the trash was never emptied", timeout=30)
