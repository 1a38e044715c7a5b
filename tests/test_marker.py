"""The site marker's listing of a site folder (``publish/marker.py``: ``site_files``), which
decides whether a build may replace the folder: every regular file is listed, and everything a
build never writes (a link to a file or a folder, a broken link, a special file) is a stray."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulesite.publish.marker import site_files


def test_files_at_any_depth_are_listed_sorted_and_empty_folders_are_nothing(
    tmp_path: Path,
) -> None:
    for name in ("z.html", "a/index.html", "a/b/c/deep.json", "a/b/c/.hidden"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / "empty" / "inner").mkdir(parents=True)
    assert site_files(tmp_path) == (
        ["a/b/c/.hidden", "a/b/c/deep.json", "a/index.html", "z.html"],
        [],
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_links_and_special_files_are_strays_and_never_followed(tmp_path: Path) -> None:
    site, outside = tmp_path / "site", tmp_path / "outside"
    (site / "a").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.html").write_text("x", encoding="utf-8")
    (site / "a" / "page.html").write_text("x", encoding="utf-8")
    (site / "a" / "to-file").symlink_to(site / "a" / "page.html")
    (site / "a" / "to-folder").symlink_to(outside, target_is_directory=True)
    (site / "broken").symlink_to(tmp_path / "nowhere")
    os.mkfifo(site / "a" / "pipe")
    files, strays = site_files(site)
    assert files == ["a/page.html"]
    assert strays == ["a/pipe", "a/to-file", "a/to-folder", "broken"]


def test_a_missing_folder_holds_nothing(tmp_path: Path) -> None:
    assert site_files(tmp_path / "missing") == ([], [])
