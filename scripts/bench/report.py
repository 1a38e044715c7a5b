"""The benchmark's results: one table, then each goal with ✓ (met), ✗ (missed) or – (not
measured at the count the goal names; the figures are shown anyway)."""

from __future__ import annotations

from dataclasses import dataclass

from bench import measure
from bench.languages import LANGUAGES
from bench.measure import BareTiming, BuildTiming, Payload

BUILD_OVER_BARE = 1.05
"""rulesite build at most this many times bare MkDocs on the same pages, one after the other."""
BUILD_OVER_PARALLEL_BARE = 1.15
"""rulesite build at most this many times bare MkDocs building every language at once
(issue 17, item 5)."""
PEAK_MEMORY_MB = (1000, 1536.0)
"""Peak memory of rulesite build at most 1.5 GB at 1,000 games (issue 17, item 6)."""
MS_PER_PAGE_GROWTH = (100, 1000, 1.2)
"""ms/page at 1,000 games at most 1.2 times ms/page at 100 games."""
EDIT_TO_PREVIEW = (300, 2.0)
"""serve shows an edit within 2 s with 300 games."""
SEARCH_GZIP_KB = (100, 300.0)
"""First search download at most 300 KB gzipped per language with 100 games."""


@dataclass(frozen=True)
class Result:
    """Everything measured for one game count."""

    games: int
    build: BuildTiming
    bare: BareTiming
    payloads: dict[str, Payload]
    edits: list[float | None] | None
    """serve's edit-to-preview seconds per edit; None when not measured."""

    @property
    def ms_per_page(self) -> float:
        return 1000 * self.build.seconds / self.build.pages

    @property
    def bare_ms_per_page(self) -> float:
        return 1000 * self.bare.total / self.build.pages


def figure(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def per_language(seconds: dict[str, float] | None) -> str:
    if not seconds:
        return "per language: n/a"
    return ", ".join(f"{lang} {figure(seconds.get(lang))} s" for lang in LANGUAGES)


def _kb(size: measure.Size | None) -> str:
    if size is None:
        return "n/a"
    return f"{size.raw / 1024:.0f}/{size.gzipped / 1024:.0f}"


def print_table(results: list[Result]) -> None:
    headers = ["games", "pages", "build s", "bare Σ s", "bare max s", "bare ∥ s"]
    headers += ["×Σ", "×max", "×∥", "ms/page", "peak MB", "PSS MB"]
    headers += [f"{lang} s" for lang in LANGUAGES]
    headers += [f"search {lang} KB raw/gz" for lang in LANGUAGES]
    headers.append("edit→preview s")
    rows = [headers]
    for result in results:
        build, bare = result.build, result.bare
        row = [str(result.games), str(build.pages), figure(build.seconds)]
        row += [figure(bare.total), figure(bare.slowest), figure(bare.parallel)]
        row += [f"{build.seconds / bare.total:.2f}", f"{build.seconds / bare.slowest:.2f}"]
        row.append(figure(build.seconds / bare.parallel if bare.parallel else None))
        row.append(figure(result.ms_per_page, 1))
        row.append(figure(build.peak_kb / 1024 if build.peak_kb else None, 0))
        row.append(figure(build.pss_kb / 1024 if build.pss_kb else None, 0))
        row += [figure((build.language_seconds or {}).get(lang)) for lang in LANGUAGES]
        row += [_kb(result.payloads[lang].first) for lang in LANGUAGES]
        row.append(_edit_cell(result.edits))
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(headers))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    print(
        "bare Σ: both languages' bare MkDocs builds one after the other; bare max: the slower "
        "alone; bare ∥: both at once. ×: rulesite build ÷ bare. peak MB: the build process's "
        "and each language process's ru_maxrss summed (an upper bound: forked processes share "
        "pages, counted in each); PSS MB: the peak of the build's processes' summed PSS, "
        "sampled every 0.2 s (shared pages counted once)."
    )
    for result in results:
        later = [
            f"{lang} {_kb(result.payloads[lang].later)}"
            for lang in LANGUAGES
            if result.payloads[lang].later is not None
        ]
        if later:
            print(f"search loaded later, {result.games} games (KB raw/gz): {', '.join(later)}")


def _edit_cell(edits: list[float | None] | None) -> str:
    if edits is None:
        return "skipped"
    middle = measure.median(edits)
    return "did not update" if middle is None else figure(middle)


def _edit_words(edits: list[float | None]) -> str:
    middle = measure.median(edits)
    if middle is None:
        return f"did not update within {measure.EDIT_SECONDS:.0f} s"
    return f"{middle:.2f} s"


def print_goals(results: list[Result]) -> None:
    print("goals:")
    by_count = {result.games: result for result in results}
    ratios = ", ".join(f"{r.games} games {r.build.seconds / r.bare.total:.2f}×" for r in results)
    met = all(r.build.seconds <= BUILD_OVER_BARE * r.bare.total for r in results)
    print(f"{_mark(met)} rulesite build ≤ {BUILD_OVER_BARE} × bare MkDocs (Σ): {ratios}")
    # For reference, not a goal: against bare MkDocs building only the slower language, which is
    # what a perfectly parallel build could approach on two cores.
    ratios = ", ".join(f"{r.games} games {r.build.seconds / r.bare.slowest:.2f}×" for r in results)
    print(f"  (for reference: rulesite build ÷ the slower language's bare MkDocs alone: {ratios})")
    _parallel_goal(results)
    _memory_goal(results, by_count)
    _ms_per_page_goal(results, by_count)
    _edit_goal(results, by_count)
    _search_goal(results, by_count)


def _parallel_goal(results: list[Result]) -> None:
    limit = BUILD_OVER_PARALLEL_BARE
    goal = f"rulesite build ≤ {limit} × bare MkDocs, every language at once (∥)"
    measured = [r for r in results if r.bare.parallel]
    if not measured:
        print(f"– {goal}: not measured")
        return
    ratios = ", ".join(
        f"{r.games} games {r.build.seconds:.2f} / {r.bare.parallel:.2f} s = "
        f"{r.build.seconds / r.bare.parallel:.2f}×"
        for r in measured
    )
    met = all(r.build.seconds <= limit * (r.bare.parallel or 0) for r in measured)
    print(f"{_mark(met)} {goal}: {ratios}")


def _memory_goal(results: list[Result], by_count: dict[int, Result]) -> None:
    count, limit = PEAK_MEMORY_MB
    goal = f"peak memory of rulesite build ≤ {limit / 1024:g} GB at {count:,} games (upper bound)"
    figures = ", ".join(
        f"{r.games} games {r.build.peak_kb / 1024:.0f} MB" + _pss(r.build)
        for r in results
        if r.build.peak_kb
    )
    target = by_count.get(count)
    if target is None or not target.build.peak_kb:
        print(f"– {goal}: not measured at {count:,} games; {figures or 'n/a'}")
        return
    print(f"{_mark(target.build.peak_kb / 1024 <= limit)} {goal}: {figures}")


def _pss(build: BuildTiming) -> str:
    return f" (sampled PSS {build.pss_kb / 1024:.0f} MB)" if build.pss_kb else ""


def _mark(met: bool | None) -> str:
    """✓ met, ✗ missed, – not measured at the count the goal names (figures are shown)."""
    return "–" if met is None else "✓" if met else "✗"


def _ms_per_page_goal(results: list[Result], by_count: dict[int, Result]) -> None:
    small, large, limit = MS_PER_PAGE_GROWTH
    goal = f"ms/page at {large:,} games ≤ {limit} × ms/page at {small:,} games"
    exact = small in by_count and large in by_count
    if not exact and len(by_count) < 2:
        print(f"– {goal}: needs two counts")
        return
    low = by_count[small] if exact else min(results, key=lambda r: r.games)
    high = by_count[large] if exact else max(results, key=lambda r: r.games)
    growth = high.ms_per_page / low.ms_per_page
    bare = high.bare_ms_per_page / low.bare_ms_per_page
    figures = (
        f"{high.ms_per_page:.1f} / {low.ms_per_page:.1f} = {growth:.2f}× (bare MkDocs: {bare:.2f}×)"
    )
    if not exact:
        figures += f"; measured {low.games:,} → {high.games:,} games"
    print(f"{_mark(growth <= limit if exact else None)} {goal}: {figures}")


def _edit_goal(results: list[Result], by_count: dict[int, Result]) -> None:
    count, limit = EDIT_TO_PREVIEW
    goal = f"serve edit→preview ≤ {limit:g} s at {count:,} games"
    measured = [r for r in results if r.edits is not None]
    if not measured:
        print(f"– {goal}: not measured (--no-serve)")
        return
    figures = ", ".join(f"{r.games} games {_edit_words(r.edits)}" for r in measured)
    target = by_count.get(count)
    if target is None or target.edits is None:
        print(f"– {goal}: not measured at {count:,} games; {figures}")
        return
    middle = measure.median(target.edits)
    print(f"{_mark(middle is not None and middle <= limit)} {goal}: {figures}")


def _search_goal(results: list[Result], by_count: dict[int, Result]) -> None:
    count, limit = SEARCH_GZIP_KB
    goal = f"first search download ≤ {limit:g} KB gzipped per language at {count:,} games"
    target = by_count.get(count)
    shown = [target] if target is not None else results

    def gzipped(result: Result) -> str:
        sizes = [
            f"{lang} {figure(p.first.gzipped / 1024 if p.first else None, 0)} KB"
            for lang, p in result.payloads.items()
        ]
        return f"{result.games} games " + ", ".join(sizes)

    figures = "; ".join(gzipped(result) for result in shown)
    if target is None:
        print(f"– {goal}: not measured at {count:,} games; {figures}")
        return
    met = all(
        p.first is not None and p.first.gzipped <= limit * 1024 for p in target.payloads.values()
    )
    print(f"{_mark(met)} {goal}: {figures}")
