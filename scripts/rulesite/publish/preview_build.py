"""The live preview's builds: each language's MkDocs run in a forked process of its own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulesite.publish import workers


@dataclass(frozen=True)
class PreviewBuild:
    """One language's MkDocs build for a live preview (never strict)."""

    lang: str
    """Language code."""
    config_file: Path
    """The language project's generated ``mkdocs.yml``."""
    site_dir: Path
    """Where its site is built, and kept between builds."""
    dirty: bool
    """Build only the pages whose HTML in ``site_dir`` is missing or older than their Markdown
    (MkDocs' ``--dirty`` mode), keeping the rest of ``site_dir``; else a whole, clean build."""


SERVE = "serve"
"""What a preview's builds tell the plugins' ``on_startup`` (they keep what dirty builds need)."""


def build_previews(builds: list[PreviewBuild]) -> dict[str, float]:
    """Run each build in a forked process of its own, all at once; each language's time.

    Always in processes, even for one language: a preview builds hundreds of times from one
    server process, whose state (MkDocs', Material's and jieba's globals) stays as it was.
    Raises BuildError with every language's problems.
    """
    for item in builds:
        item.site_dir.mkdir(parents=True, exist_ok=True)
    jobs = [
        (b.lang, workers.mkdocs_only, (str(b.config_file), str(b.site_dir), False, b.dirty, SERVE))
        for b in builds
    ]
    outcomes = workers.run(jobs)
    workers.problems_of(outcomes)
    return {lang: outcome.seconds for lang, outcome in outcomes.items()}
