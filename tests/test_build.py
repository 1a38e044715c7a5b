"""Publishing is all or nothing: failures and interrupts leave site/ and content/ untouched."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import interruptible, tree_digest
from tests.projects import copy_built, copy_project, make_project


def _interrupted_build(root: Path) -> subprocess.CompletedProcess[str]:
    """``rulesite build --clean`` in ``root``, sent SIGINT once a language's MkDocs build has
    begun (its theme files are being written beside the site)."""
    # --clean: the path that writes every page beside the site (an edit built from the cache is
    # too quick to interrupt; tests/test_build_cache.py kills that one).
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesite", "build", "--clean"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    deadline = time.monotonic() + 60
    while not list(root.glob(".rulesite-new-*.site/.rulesite-languages/*/assets")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def test_interrupt_mid_build_leaves_the_previous_site(built_fixture: Path, tmp_path: Path) -> None:
    # On a busy machine this test can be descheduled between seeing the build under way and
    # signalling it, long enough for the small build to finish first (exit 0, the new site
    # published, as it should be): that attempt proves nothing, and another is made.
    for attempt in range(3):
        # The run's one build of the fixture project (a copy: a build writes no absolute path).
        project = Project(copy_built(built_fixture / "project", tmp_path / f"p{attempt}"))
        site_before = tree_digest(project.site_dir)
        content_before = tree_digest(project.content_dir)
        game = project.games_dir / "mini-game.yaml"
        game.write_text(game.read_text("utf-8").replace("9999", "9998"), "utf-8")
        result = _interrupted_build(project.root)
        if result.returncode != 0:
            break
        assert tree_digest(project.site_dir) != site_before  # finished first: published
    assert result.returncode == 130, result.stderr
    assert "interrupted" in result.stderr and "Traceback" not in result.stderr
    assert tree_digest(project.site_dir) == site_before
    assert tree_digest(project.content_dir) == content_before
    assert list(project.root.glob(".rulesite-*")) == []


def test_builds_in_different_folders_are_byte_identical(
    real_project: Project, tmp_path: Path
) -> None:
    # The first build is the run's shared one of the real project (built in another folder,
    # tests/conftest.py); the second, of a copy of its sources deeper down, into a site folder of
    # another name.
    second = Project(copy_project(real_project.root, tmp_path / "elsewhere" / "deeper" / "copy"))
    build(second, site_dir=second.root / "www")
    assert tree_digest(real_project.site_dir) == tree_digest(second.root / "www")


def test_source_date_epoch_sets_the_sitemap_date(tmp_path: Path, monkeypatch) -> None:
    project = Project(make_project(tmp_path / "p"))
    monkeypatch.setenv("RULESITE_SITE_URL", "https://example.org/")  # no address, no sitemap
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14
    build(project)
    sitemap = (project.site_dir / "sitemap.xml").read_text("utf-8")
    assert "<lastmod>2023-11-14</lastmod>" in sitemap
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    build(project)  # without it: the newest verification date in the data (2026-01-15)
    assert "<lastmod>2026-01-15</lastmod>" in (project.site_dir / "sitemap.xml").read_text("utf-8")


def test_the_build_process_lets_go_of_the_catalog_while_the_languages_build(
    tmp_path: Path, monkeypatch
) -> None:
    """Each language's process has its own copy of the catalog: the build's own is released
    once the rest of content/ is written (a third of the memory at 1,000 games)."""
    import gc
    import weakref

    from rulesite.publish import build as build_module
    from rulesite.publish import workers

    loaded: list[weakref.ref] = []
    alive: list[bool] = []
    real_records, real_problems = build_module._records_only, workers.problems_of

    def records(catalog):
        lean = real_records(catalog)
        loaded.append(weakref.ref(lean))
        return lean

    def problems(outcomes):  # called once every language process has finished
        gc.collect()
        alive.append(loaded[0]() is not None)
        return real_problems(outcomes)

    monkeypatch.setattr(build_module, "_records_only", records)
    monkeypatch.setattr(workers, "problems_of", problems)
    report = build(Project(make_project(tmp_path / "p")))
    assert alive == [False]
    assert report.games == 1 and report.pages > 0
