"""Build-time benchmark: how the build scales with the number of games. Prints figures only.

    .venv/bin/python scripts/benchmark.py [COUNTS ...]     # default: 3 30 100

Also prints the scoring calculator's JS + CSS size.

Each run builds a scratch project holding copies of the real games under new slugs.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from rulesite.build import build
from rulesite.project import Project

REPO = Path(__file__).resolve().parent.parent


def make_project(root: Path, count: int) -> Project:
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "scripts" / "rulesite").mkdir(parents=True)
    shutil.copy(REPO / "scripts/rulesite/mkdocs_hooks.py", root / "scripts/rulesite/")
    games = root / "data" / "games"
    games.mkdir(parents=True)
    shutil.copy(REPO / "data" / "site.yaml", root / "data" / "site.yaml")
    sources = sorted((REPO / "data" / "games").glob("*.yaml"))
    for index in range(count):
        source = sources[index % len(sources)]
        slug = source.stem if index < len(sources) else f"{source.stem}-{index}"
        text = source.read_text(encoding="utf-8")
        text = re.sub(r"^slug: .*$", f"slug: {slug}", text, count=1, flags=re.M)
        if slug != source.stem:  # calculator ids are unique across games: rename the copies'
            head, _, scoring = text.partition("\nscoring:\n")
            scoring = re.sub(r"^  - id: (\S+)$", rf"  - id: \1-{index}", scoring, flags=re.M)
            text = f"{head}\nscoring:\n{scoring}"
        (games / f"{slug}.yaml").write_text(text, encoding="utf-8")
    return Project(root)


def calculator_size() -> None:
    """The calculator's own JS + CSS, raw and gzipped (goal: under 15 KB gzipped)."""
    import gzip

    assets = REPO / "templates" / "theme" / "assets"
    raw = b"".join((assets / name).read_bytes() for name in ("calculator.js", "calculator.css"))
    packed = gzip.compress(raw, compresslevel=9, mtime=0)
    print(f"calculator JS + CSS: {len(raw) / 1024:.1f} KB raw, {len(packed) / 1024:.1f} KB gzipped")


def main(counts: list[int]) -> None:
    calculator_size()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    print(f"{'games':>6} {'pages':>6} {'seconds':>8} {'ms/page':>8} {'site MB':>8}")
    for count in counts:
        with tempfile.TemporaryDirectory() as tmp:
            project = make_project(Path(tmp), count)
            started = time.perf_counter()
            report = build(project)
            seconds = time.perf_counter() - started
            size = sum(p.stat().st_size for p in project.site_dir.rglob("*") if p.is_file())
            print(
                f"{count:>6} {report.pages:>6} {seconds:>8.2f} "
                f"{1000 * seconds / report.pages:>8.1f} {size / 1e6:>8.1f}"
            )


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [3, 30, 100])
