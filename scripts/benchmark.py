"""Benchmark: how the build scales with the number of games, against bare MkDocs in the same run.

    .venv/bin/python scripts/benchmark.py [--counts 100 300 1000] [--no-serve | --serve-only]
                                          [--keep DIR] [--repeat N] [--seed N]
                                          [--search [--pagefind PY]]

For each count it generates a project of distinct games (``bench/corpus.py``), then prints:
the whole ``rulesite build``; the same generated Markdown built by bare MkDocs + Material +
search with the same small navigation, one language after the other (sum), the slower
language alone (max) and every language at once (parallel, what the build goal compares with);
ms per page; peak memory (the build process's and its language processes' ``ru_maxrss`` summed:
an upper bound); each language's MkDocs time; ``rulesite build`` again after one game's FAQ
answer was edited (from the cache the clean build kept) and its ratio to the clean build; the
first search download per language (raw and gzipped); and ``rulesite serve``'s edit-to-preview
time: the median of 3 edits of each kind (a FAQ answer, a rules section, a card field), per kind.
With ``--search``, each query of ``bench/search.py`` typed into the home page's search box in a
phone-sized Chromium with its CPU slowed 4x: what it downloads and how long until results show
(with ``--pagefind``, the same for Pagefind, the candidate it was measured against).
Then each goal with ✓ or ✗ (``bench/report.py``). It starts with the calculator's JS + CSS size.
Machines are noisy: compare figures from one run, never across runs. Builds of up to 300 games
are repeated three times by default (the best of each kind kept), larger ones built once.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gzip
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench import corpus, measure, preview, search
from bench.measure import BenchError
from bench.report import (
    Result,
    figure,
    per_language,
    print_edit_goals,
    print_goals,
    print_table,
)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_COUNTS = [100, 300, 1000]
SHORT_BUILD_COUNT = 300
"""Up to this many games a build takes seconds, and one slow moment of the machine moves its
ratio by a tenth or more (at 100 games the same code printed 1.07x and 1.25x): by default such
counts are built SHORT_BUILD_REPEAT times, the best of each kept; larger ones once."""
SHORT_BUILD_REPEAT = 3


def say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    calculator_size()
    results = []
    try:
        with _scratch(args.keep) as base:
            if args.serve_only:
                edits = {
                    count: serve_only(count, base / f"{count}-games", args) for count in args.counts
                }
                print()
                print_edit_goals(edits)
                return 0
            for count in args.counts:
                results.append(run(count, base / f"{count}-games", args))
    except BenchError as error:
        print(f"benchmark: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("benchmark: interrupted", file=sys.stderr)
        return 130
    print()
    print_table(results)
    print()
    print_goals(results)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--counts", type=_positive, nargs="+", default=DEFAULT_COUNTS, help="game counts"
    )
    parser.add_argument("--no-serve", action="store_true", help="skip serve's edit-to-preview")
    parser.add_argument(
        "--serve-only",
        action="store_true",
        help="only serve's edit-to-preview (no builds, no search sizes): its goals alone",
    )
    parser.add_argument("--keep", type=Path, help="keep the projects in DIR/<count>-games/")
    parser.add_argument(
        "--repeat",
        type=_positive,
        help=f"builds per count, best kept (default {SHORT_BUILD_REPEAT} up to "
        f"{SHORT_BUILD_COUNT} games, 1 above)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=45.0,
        help="seconds to wait before each timed build, after the last one's removals (default 45)",
    )
    parser.add_argument("--seed", type=int, default=corpus.DEFAULT_SEED, help="text generator")
    parser.add_argument(
        "--search", action="store_true", help="time the first search in Chromium (bench/search.py)"
    )
    parser.add_argument("--pagefind", help="with --search: a Python with pagefind[extended]")
    return parser


def repeats(count: int, asked: int | None) -> int:
    """How many times ``count`` games are built: as asked, else by the build's length."""
    if asked is not None:
        return asked
    return SHORT_BUILD_REPEAT if count <= SHORT_BUILD_COUNT else 1


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return value


@contextlib.contextmanager
def _scratch(keep: Path | None) -> Iterator[Path]:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep.resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="rulesite-bench-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(count: int, folder: Path, args: argparse.Namespace) -> Result:
    """Generate, build with rulesite and with bare MkDocs, weigh search, time serve."""
    if folder.exists():
        raise BenchError(f"{folder} exists; give --keep a folder without it")
    say(f"generating {count} games…")
    started = time.perf_counter()
    project = corpus.write_project(folder / "project", count, args.seed)
    say(f"  written in {time.perf_counter() - started:.1f} s to {project.root}")
    measure.prime_jieba(project, say)  # untimed: the project's first build would pay it alone
    builds, bares = [], []
    repeat = repeats(count, args.repeat)
    for attempt in range(repeat):
        of = f" ({attempt + 1}/{repeat})" if repeat > 1 else ""
        measure.settle(project, args.settle, say)
        say(f"building {count} games with rulesite{of}…")
        builds.append(measure.rulesite_build(project, say))
        build = builds[-1]
        each = per_language(build.language_seconds)
        used = f"{build.cpu_seconds:.1f} CPU s"
        say(f"  {build.seconds:.2f} s ({used}), {build.pages} pages ({each})")
        if attempt == 0:
            configs = measure.prepare_bare(project, folder / "bare")
        measure.settle(project, args.settle, say)
        say(f"building the same Markdown with bare MkDocs + Material + search{of}…")
        one_by_one = measure.bare_mkdocs(configs, say)
        say(f"  {figure(one_by_one.total)} s ({per_language(one_by_one.language_seconds)})")
        measure.settle(project, args.settle, say)
        say(f"building it again with bare MkDocs, every language at once{of}…")
        parallel, cpu = measure.bare_mkdocs_parallel(configs)
        bares.append(dataclasses.replace(one_by_one, parallel=parallel, parallel_cpu=cpu))
        say(f"  {figure(parallel)} s ({cpu:.1f} CPU s)")
    say(f"  CPU time, rulesite over bare MkDocs at once: {cpu_pairs(builds, bares)}")
    slug = sorted(project.games_dir.glob("*.yaml"))[0].stem
    measure.settle(project, args.settle, say)
    say(f"building {count} games again after an edit to {slug}'s FAQ (from the build cache)…")
    again = measure.incremental_build(project, slug, say)
    clean = min(build.seconds for build in builds)
    say(f"  {again.seconds:.2f} s, {100 * again.seconds / clean:.1f} % of the clean build")
    queries: list[search.Figure] = []
    if args.search:
        say(f"first search of {count} games in a phone-sized Chromium, CPU slowed 4x…")
        queries = search.report(project.site_dir, say, pagefind=args.pagefind)
    served = None
    if not args.no_serve:
        kinds = ", ".join(measure.EDIT_KINDS)
        say(f"timing serve's edit-to-preview on /games/{slug}/ (3 edits each: {kinds})…")
        served = preview.serve_edit_to_preview(project, slug, folder / "serve.log", say)
    return Result(
        count,
        min(builds, key=lambda build: build.seconds),
        _best_bare(bares),
        measure.search_payloads(project.site_dir),
        served.edits if served else None,
        tuple(queries),
        again.seconds,
        _pairs(builds, bares),
        served.start if served else None,
    )


def serve_only(count: int, folder: Path, args: argparse.Namespace) -> dict[str, list[float | None]]:
    """Generate, then time serve's edits (``--serve-only``)."""
    if folder.exists():
        raise BenchError(f"{folder} exists; give --keep a folder without it")
    say(f"generating {count} games…")
    project = corpus.write_project(folder / "project", count, args.seed)
    slug = sorted(project.games_dir.glob("*.yaml"))[0].stem
    kinds = ", ".join(measure.EDIT_KINDS)
    say(f"timing serve's edit-to-preview on /games/{slug}/ (3 edits each: {kinds})…")
    return preview.serve_edit_to_preview(project, slug, folder / "serve.log", say).edits


def _pairs(builds: list[measure.BuildTiming], bares: list[measure.BareTiming]) -> tuple[float, ...]:
    """Each attempt's rulesite build over the bare MkDocs build at once of the same attempt."""
    pairs = zip(builds, bares, strict=True)
    return tuple(build.seconds / bare.parallel for build, bare in pairs if bare.parallel)


def cpu_pairs(builds: list[measure.BuildTiming], bares: list[measure.BareTiming]) -> str:
    """Each attempt's CPU time, rulesite's build against bare MkDocs' at once, and the median
    ratio: printed beside the wall times (a figure, not a goal), to see whether a change cut the
    work rulesite does; read it as the wall ratio is read, pair by pair (both move with the
    machine's speed)."""
    pairs = [
        (build.cpu_seconds, bare.parallel_cpu)
        for build, bare in zip(builds, bares, strict=True)
        if build.cpu_seconds is not None and bare.parallel_cpu
    ]
    if not pairs:
        return "not measured"
    each = ", ".join(f"{ours:.1f} / {theirs:.1f} s" for ours, theirs in pairs)
    median = statistics.median(ours / theirs for ours, theirs in pairs)
    return f"{each} ({median:.2f}×, the median of the pairs)"


def _best_bare(bares: list[measure.BareTiming]) -> measure.BareTiming:
    """The fastest one-by-one builds and the fastest parallel one (each kept on its own)."""
    best = min(bares, key=lambda bare: bare.total)
    parallel = min(bare.parallel for bare in bares if bare.parallel is not None)
    return dataclasses.replace(best, parallel=parallel)


def calculator_size() -> None:
    """The calculator's own JS + CSS, raw and gzipped (goal: under 15 KB gzipped)."""
    assets = REPO / "templates" / "theme" / "assets"
    names = ("scoring-lines", "scoring-engine", "calculator-state", "calculator", "calculator-page")
    files = [assets / f"{name}.js" for name in names] + [assets / "calculator.css"]
    if not all(path.is_file() for path in files):
        say(f"calculator JS + CSS: not found in {assets}")
        return
    raw = b"".join(path.read_bytes() for path in files)
    packed = gzip.compress(raw, compresslevel=9, mtime=0)
    say(f"calculator JS + CSS: {len(raw) / 1024:.1f} KB raw, {len(packed) / 1024:.1f} KB gzipped")


if __name__ == "__main__":
    raise SystemExit(main())
