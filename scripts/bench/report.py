"""The benchmark's results: one table, then each goal with ✓ (met), ✗ (missed) or – (not
measured at the count the goal names; the figures are shown anyway)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench import measure, preview
from bench.languages import LANGUAGES
from bench.measure import BareTiming, BuildTiming, Payload

BUILD_OVER_BARE = 1.05
"""rulesite build at most this many times bare MkDocs on the same pages, one after the other."""
BUILD_OVER_PARALLEL_BARE = 1.15
"""rulesite build at most this many times bare MkDocs building every language at once
(issue 17, item 5)."""
PEAK_MEMORY_MB = (1000, 1536.0)
"""Peak memory of rulesite build at most 1.5 GB at 1,000 games (issue 17, item 6): the sampled
PSS of its processes summed (the upper bound where PSS was not sampled)."""
MS_PER_PAGE_GROWTH = (100, 1000, 1.2)
"""ms/page at 1,000 games at most 1.2 times ms/page at 100 games."""
EDIT_TO_PREVIEW = ((300, 1.0), (1000, 2.0))
"""serve shows an edit to one game's FAQ, rules or card within 1 s with 300 games and 2 s with
1,000 (the median of each kind of edit; issue 17)."""
SEARCH_GZIP_KB = ((100, 150.0), (1000, 300.0))
"""Everything a phone downloads before it shows a first query's results, per language: at most
150 KB gzipped with 100 games and 300 KB with 1,000 (issue 17, item 3; ``bench/search.py``)."""
INCREMENTAL_SHARE = (1000, 0.15)
"""rulesite build after an edit to one game at most 15 % of a clean build at 1,000 games (issue
17, item 2: from the build cache)."""
SERVE_START_COUNT = 1000
"""``rulesite serve`` shows its first page at 1,000 games within a clean ``rulesite build``'s time
(issue 17, item 6)."""
SEARCH_MS = 300.0
"""A first query's results within 300 ms of the last keystroke, the CPU slowed 4 times."""
OURS = "chunks"
"""The search the site ships (``bench/search.py``'s candidate name); Pagefind is for reference."""


@dataclass(frozen=True)
class Result:
    """Everything measured for one game count."""

    games: int
    build: BuildTiming
    bare: BareTiming
    payloads: dict[str, Payload]
    edits: dict[str, list[float | None]] | None
    """serve's edit-to-preview seconds per kind of edit (``measure.EDIT_KINDS``) and edit;
    None when not measured."""
    queries: tuple[Any, ...] = ()
    """``bench/search.py``'s figures (``Figure``: candidate, lang, query, milliseconds,
    gzipped bytes) for each first query typed into the home page; empty without ``--search``."""
    incremental: float | None = None
    """``rulesite build`` after an edit to one game's FAQ, from the cache the clean build kept,
    seconds."""
    pairs: tuple[float, ...] = ()
    """Each attempt's ``rulesite build`` ÷ the bare MkDocs build at once that followed it, in
    order (the build goal is judged on their median when there are several)."""
    serve_start: float | None = None
    """Seconds from starting ``rulesite serve`` to its first page (``preview.ServeTiming``);
    None when serve was not measured."""

    def first_searches(self, lang: str) -> list[Any]:
        """The shipped search's figures for ``lang``."""
        return [f for f in self.queries if f.candidate == OURS and f.lang == lang]

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


def _first_search_cell(result: Result, lang: str) -> str:
    """The largest download and the slowest time of the first queries (``--search``)."""
    mine = result.first_searches(lang)
    if not mine:
        return "n/a"
    return f"{max(f.gzipped for f in mine) / 1024:.0f}/{max(f.milliseconds for f in mine):.0f}"


def print_table(results: list[Result]) -> None:
    headers = ["games", "pages", "build s", "bare Σ s", "bare max s", "bare ∥ s"]
    headers += ["×Σ", "×max", "×∥", "ms/page", "incr. s", "incr. %", "peak MB", "PSS MB"]
    headers += [f"{lang} s" for lang in LANGUAGES]
    headers += [f"1st search {lang} KB gz/ms" for lang in LANGUAGES]
    headers.append("edit→preview s " + "/".join(measure.EDIT_KINDS))
    rows = [headers]
    for result in results:
        build, bare = result.build, result.bare
        row = [str(result.games), str(build.pages), figure(build.seconds)]
        row += [figure(bare.total), figure(bare.slowest), figure(bare.parallel)]
        row += [f"{build.seconds / bare.total:.2f}", f"{build.seconds / bare.slowest:.2f}"]
        row.append(figure(build.seconds / bare.parallel if bare.parallel else None))
        row.append(figure(result.ms_per_page, 1))
        row.append(figure(result.incremental))
        row.append(figure(_share(result), 1))
        row.append(figure(build.peak_kb / 1024 if build.peak_kb else None, 0))
        row.append(figure(build.pss_kb / 1024 if build.pss_kb else None, 0))
        row += [figure((build.language_seconds or {}).get(lang)) for lang in LANGUAGES]
        row += [_first_search_cell(result, lang) for lang in LANGUAGES]
        row.append(_edit_cell(result.edits))
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(headers))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    print(
        "bare Σ: both languages' bare MkDocs builds one after the other; bare max: the slower "
        "alone; bare ∥: both at once. ×: rulesite build ÷ bare. incr.: rulesite build after an "
        "edit to one game's FAQ, from the build cache (s, and % of the clean build). peak MB: "
        "the build process's and each language process's ru_maxrss summed (an upper bound: "
        "forked processes share pages, counted in each); PSS MB: the peak of the build's "
        "processes' summed PSS, sampled every 0.2 s (shared pages counted once)."
    )
    for result in results:
        later = [
            f"{lang} {_kb(result.payloads[lang].later)}"
            for lang in LANGUAGES
            if result.payloads[lang].later is not None
        ]
        if later:
            print(f"search loaded later, {result.games} games (KB raw/gz): {', '.join(later)}")


def _edit_cell(edits: dict[str, list[float | None]] | None) -> str:
    if edits is None:
        return "skipped"
    return "/".join(_median_words(values, short=True) for values in edits.values())


def _median_words(values: list[float | None], short: bool = False) -> str:
    middle = measure.median(values)
    if middle is None:
        return "did not update" if short else f"did not update within {preview.EDIT_SECONDS:.0f} s"
    return figure(middle) if short else f"{middle:.2f} s"


def _edit_words(edits: dict[str, list[float | None]]) -> str:
    return ", ".join(f"{kind} {_median_words(values)}" for kind, values in edits.items())


def _edits_met(edits: dict[str, list[float | None]], limit: float) -> bool:
    medians = [measure.median(values) for values in edits.values()]
    return all(middle is not None and middle <= limit for middle in medians)


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
    _incremental_goal(results)
    _ms_per_page_goal(results, by_count)
    _edit_goal(results, by_count)
    _serve_start_goal(results)
    _search_goal(results, by_count)


def _parallel_goal(results: list[Result]) -> None:
    limit = BUILD_OVER_PARALLEL_BARE
    goal = f"rulesite build ≤ {limit} × bare MkDocs, every language at once (∥)"
    measured = [r for r in results if r.bare.parallel]
    if not measured:
        print(f"– {goal}: not measured")
        return
    ratios = ", ".join(_parallel_ratio(r) for r in measured)
    met = all(_judged_ratio(r) <= limit for r in measured)
    print(f"{_mark(met)} {goal}: {ratios}")


def _judged_ratio(result: Result) -> float:
    """The build over bare MkDocs at once the goal is judged on: with several attempts, the
    median of each attempt's pair (a build and the bare one right after it: a slow or a quick
    moment of the machine moves both, where the best of each kind taken apart could pair one
    lucky build with another's slow moment); else the one build over the one bare build."""
    if len(result.pairs) > 1:
        return statistics.median(result.pairs)
    return result.build.seconds / (result.bare.parallel or 0)


def _parallel_ratio(result: Result) -> str:
    best = (
        f"{result.build.seconds:.2f} / {result.bare.parallel:.2f} s = "
        f"{result.build.seconds / (result.bare.parallel or 0):.2f}×"
    )
    if len(result.pairs) < 2:
        return f"{result.games} games {best}"
    pairs = " / ".join(f"{ratio:.2f}" for ratio in result.pairs)
    return (
        f"{result.games} games {_judged_ratio(result):.2f}× (median of the pairs {pairs}; "
        f"best over best {best})"
    )


def _memory_goal(results: list[Result], by_count: dict[int, Result]) -> None:
    count, limit = PEAK_MEMORY_MB
    # Judged on the sampled PSS where there is one: the language processes are forks, sharing
    # pages with the build's, which the upper bound (ru_maxrss summed) counts in each.
    goal = f"peak memory of rulesite build ≤ {limit / 1024:g} GB at {count:,} games (PSS)"
    figures = ", ".join(
        f"{r.games} games {r.build.peak_kb / 1024:.0f} MB upper bound" + _pss(r.build)
        for r in results
        if r.build.peak_kb
    )
    target = by_count.get(count)
    if target is None or not target.build.peak_kb:
        print(f"– {goal}: not measured at {count:,} games; {figures or 'n/a'}")
        return
    judged = target.build.pss_kb or target.build.peak_kb
    print(f"{_mark(judged / 1024 <= limit)} {goal}: {figures}")


def _share(result: Result) -> float | None:
    """The incremental build's time as a percentage of the clean build's."""
    if result.incremental is None:
        return None
    return 100 * result.incremental / result.build.seconds


def _incremental_goal(results: list[Result]) -> None:
    count, limit = INCREMENTAL_SHARE
    goal = (
        f"rulesite build after an edit to one game ≤ {100 * limit:g} % of a clean build "
        f"at {count:,} games"
    )
    _against_build(
        goal,
        count,
        limit,
        results,
        lambda r: r.incremental,
        lambda r: f"{r.incremental:.2f} / {r.build.seconds:.2f} s = {_share(r):.1f} %",
    )


def _against_build(
    goal: str,
    count: int,
    limit: float,
    results: list[Result],
    seconds: Callable[[Result], float | None],
    shown: Callable[[Result], str],
) -> None:
    """A goal on a time taken at each count (``seconds``: None where it was not), met when at
    ``count`` games it is at most ``limit`` × that count's clean build; every count where it was
    taken is shown (``shown``), and – where it was not taken at ``count``."""
    figures = ", ".join(f"{r.games} games {shown(r)}" for r in results if seconds(r) is not None)
    target = next((r for r in results if r.games == count), None)
    value = seconds(target) if target is not None else None
    if target is None or value is None:
        print(f"– {goal}: not measured at {count:,} games; {figures or 'n/a'}")
    else:
        print(f"{_mark(value <= limit * target.build.seconds)} {goal}: {figures}")


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
    measured = [r for r in results if r.edits is not None]
    for count, limit in EDIT_TO_PREVIEW:
        goal = f"serve edit→preview (median per kind) ≤ {limit:g} s at {count:,} games"
        if not measured:
            print(f"– {goal}: not measured (--no-serve)")
            continue
        target = by_count.get(count)
        if target is None or target.edits is None:
            figures = "; ".join(f"{r.games} games {_edit_words(r.edits or {})}" for r in measured)
            print(f"– {goal}: not measured at {count:,} games; {figures}")
            continue
        met = _edits_met(target.edits, limit)
        print(f"{_mark(met)} {goal}: {_edit_words(target.edits)}")


def _serve_start_goal(results: list[Result]) -> None:
    count = SERVE_START_COUNT
    goal = f"serve start-up ≤ a clean rulesite build at {count:,} games"
    _against_build(
        goal,
        count,
        1.0,
        results,
        lambda r: r.serve_start,
        lambda r: f"{r.serve_start:.1f} / {r.build.seconds:.2f} s",
    )


def print_edit_goals(edits: dict[int, dict[str, list[float | None]]]) -> None:
    """The edit-to-preview figures per count and their goals (``--serve-only``)."""
    for count, measured in edits.items():
        print(f"{count:,} games: edit→preview median {_edit_words(measured)}")
    print("goals:")
    for count, limit in EDIT_TO_PREVIEW:
        goal = f"serve edit→preview (median per kind) ≤ {limit:g} s at {count:,} games"
        if count not in edits:
            print(f"– {goal}: not measured at {count:,} games")
            continue
        print(f"{_mark(_edits_met(edits[count], limit))} {goal}: {_edit_words(edits[count])}")


def _search_goal(results: list[Result], by_count: dict[int, Result]) -> None:
    measured = [r for r in results if r.queries]
    for count, limit in SEARCH_GZIP_KB:
        goal = f"first search download ≤ {limit:g} KB gzipped per language at {count:,} games"
        target = by_count.get(count)
        if target is None or not target.queries:
            figures = "; ".join(_largest(r) for r in measured) or "--search not given"
            print(f"– {goal}: not measured at {count:,} games; {figures}")
            continue
        met = all(
            f.gzipped <= limit * 1024 for lang in LANGUAGES for f in target.first_searches(lang)
        )
        print(f"{_mark(met)} {goal}: {_largest(target)}")
    goal = f"first search results ≤ {SEARCH_MS:g} ms, CPU slowed 4×"
    if not measured:
        print(f"– {goal}: not measured (--search not given)")
        return
    slowest = {
        r.games: max(f.milliseconds for f in r.queries if f.candidate == OURS) for r in measured
    }
    figures = ", ".join(f"{games} games slowest {ms:.0f} ms" for games, ms in slowest.items())
    print(f"{_mark(all(ms <= SEARCH_MS for ms in slowest.values()))} {goal}: {figures}")


def _largest(result: Result) -> str:
    sizes = [
        f"{lang} {max(f.gzipped for f in result.first_searches(lang)) / 1024:.0f} KB"
        for lang in LANGUAGES
        if result.first_searches(lang)
    ]
    return f"{result.games} games largest " + ", ".join(sizes)
