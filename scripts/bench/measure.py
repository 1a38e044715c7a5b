"""What the benchmark times and weighs: real processes on real files, nothing simulated.

- ``rulesite_build``: ``rulesite build`` in its own process, timed from outside;
- ``bare_mkdocs``: the Markdown that build generated, built by plain MkDocs + Material + search
  with a minimal configuration, one language after the other, each in its own process;
- ``search_payloads``: what a reader's first search downloads, per language;
- ``edit_game``: the edits the benchmark makes (``bench/preview.py`` times serve showing them).
"""

from __future__ import annotations

import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from bench.corpus import game_yaml
from bench.languages import BY_CODE, LANGUAGES, site_folder
from bench.memory import TreeMemory
from rulesite.project import Project
from rulesite.publish import build_cache

SCRIPTS = Path(__file__).resolve().parents[1]
BARE_EXTENSIONS = ["attr_list", "md_in_html", "tables", "toc"]
"""The Markdown features the generated pages use."""
POLL_SECONDS = 0.05
TRASH_SECONDS = 300.0
"""How long ``settle`` waits for the last build's trash to be removed before it goes on."""
PRIME_JIEBA = (
    "import sys\n"
    "from rulesite.engine.search_terms import prepare_jieba, use_cache_root\n"
    "use_cache_root(sys.argv[1])\n"
    "prepare_jieba()\n"
)
"""What ``prime_jieba`` runs: the same two calls a build makes before its first page."""
HEARTBEAT_SECONDS = 30.0
"""A progress line this often during a long step."""

Say = Callable[[str], None]


class BenchError(Exception):
    """A step of the benchmark failed; the message says which, with the tool's own output."""


def environment() -> dict[str, str]:
    """For child processes: ``bench`` importable, no Material banner."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SCRIPTS), env.get("PYTHONPATH")]))
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    return env


def _run(
    command: list[str],
    what: str,
    say: Say,
    cwd: Path | None = None,
    memory: TreeMemory | None = None,
) -> tuple[float, str]:
    """Run ``command``; its wall time and standard output, or BenchError with its errors.

    A line every HEARTBEAT_SECONDS while it runs: a 1,000-game build takes minutes. With
    ``memory``, its process tree's memory is sampled meanwhile.
    """
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if memory is not None:
        memory.watch(process.pid)
    while True:
        try:
            # Retrying after a timeout loses no output (subprocess documents it).
            stdout, stderr = process.communicate(timeout=HEARTBEAT_SECONDS)
            break
        except subprocess.TimeoutExpired:
            say(f"  … {what}: {time.perf_counter() - started:.0f} s so far")
    seconds = time.perf_counter() - started
    if memory is not None:
        memory.stop()
    if process.returncode != 0:
        tail = "\n".join((stderr or stdout).strip().splitlines()[-20:])
        raise BenchError(f"{what} failed (exit {process.returncode}):\n{tail}")
    return seconds, stdout


@dataclass(frozen=True)
class BuildTiming:
    """One ``rulesite build``."""

    seconds: float
    """Wall time of the process, start-up and imports included."""
    pages: int
    """Markdown pages, all languages."""
    language_seconds: dict[str, float] | None
    """Each language's MkDocs build, when the build reports it."""
    peak_kb: int | None = None
    """Peak resident memory, KB: the build process's plus each language process's own peak
    (``ru_maxrss``). An upper bound: forked processes share pages, counted in each."""
    pss_kb: int | None = None
    """Peak of the process tree's proportional set size (shared pages divided among the
    processes sharing them), sampled every SAMPLE_SECONDS (Linux; None elsewhere)."""
    cpu_seconds: float | None = None
    """CPU time (user + system) of the build's process and of every process it waited for."""


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's children that have ended and been waited
    for, and of theirs: a build's CPU is the difference across it. On two busy cores a build's
    wall time follows its CPU time; the CPU time shows how much work a build did, though it too
    moves with the machine's speed (bare MkDocs' 100-game build: 24.6 to 31.5 CPU s within an
    hour on 2026-12-06)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def prime_jieba(project: Project, say: Say) -> None:
    """Before the first timed build: let jieba write its word-table cache in ``project``'s
    ``.cache/jieba/``, as any earlier build or preview of the project would have.

    rulesite keeps that cache in the project (never the shared ``/tmp/jieba.cache``, which
    anyone could plant); bare MkDocs' jieba reads ``/tmp/jieba.cache``, warm from the runs
    before. Without this, only a fresh project's first rulesite build would pay for building the
    cache, and with ``--repeat 1`` that is the build timed. (Measured, the difference was lost in
    the machine's noise: this is for both sides to start warm, not a speed-up.)
    """
    command = [sys.executable, "-c", PRIME_JIEBA, str(project.root / ".cache")]
    _run(command, "priming jieba's cache", say)


def rulesite_build(project: Project, say: Say, clean: bool = True) -> BuildTiming:
    """Build ``project`` with rulesite in a fresh process: clean (``--clean``), or from the
    build cache the last build kept."""
    import json

    command = [sys.executable, "-m", "bench.build_once", str(project.root)]
    command += ["--clean"] if clean else []
    sampled = TreeMemory()
    what = "rulesite build" if clean else "rulesite build from its cache"
    cpu = children_cpu()
    seconds, output = _run(command, what, say, memory=sampled)
    cpu = children_cpu() - cpu
    report = json.loads(output.strip().splitlines()[-1])
    memory = report.get("memory_kb")
    peak = sum(memory.values()) if memory else None
    pages, each = report["pages"], report["language_seconds"]
    return BuildTiming(seconds, pages, each, peak, sampled.peak_kb, cpu)


@dataclass(frozen=True)
class BareTiming:
    """Bare MkDocs builds of each language's Markdown, one after the other."""

    language_seconds: dict[str, float]
    parallel: float | None = None
    """Wall time of every language's bare build at once (``bare_mkdocs_parallel``)."""
    parallel_cpu: float | None = None
    """CPU time (user + system) of those builds at once, all processes."""

    @property
    def total(self) -> float:
        """All languages one after the other."""
        return sum(self.language_seconds.values())

    @property
    def slowest(self) -> float:
        """The slowest language alone: what languages built in parallel could take."""
        return max(self.language_seconds.values())


def markdown_folder(project: Project, lang: str) -> Path:
    """Where a build left ``lang``'s Markdown: ``content/<lang>/docs`` (one MkDocs project per
    language), or ``content/<lang>`` (the earlier layout: one project for all languages)."""
    folder = project.content_dir / lang
    return folder / "docs" if (folder / "docs").is_dir() else folder


def prepare_bare(project: Project, scratch: Path) -> dict[str, Path]:
    """Per language: a copy of the built Markdown and a minimal ``mkdocs.yml`` (returned).

    The same small navigation as rulesite's (home and games index only); theme, search and
    Markdown extensions left at Material's defaults apart from what the pages need.
    """
    configs = {}
    for lang in LANGUAGES:
        folder = scratch / lang
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(markdown_folder(project, lang), folder / "docs")
        config = {
            "site_name": f"bare MkDocs ({lang})",
            "docs_dir": "docs",
            "site_dir": "site",
            "theme": {"name": "material", "language": BY_CODE[lang].html_lang, "font": False},
            # The language's own search languages, as rulesite's generated config has them;
            # Material segments Chinese with jieba (installed), as rulesite's search does.
            "plugins": [{"search": {"lang": list(BY_CODE[lang].search.lang)}}],
            "markdown_extensions": BARE_EXTENSIONS,
            "nav": ["index.md", "games/index.md"],
            "not_in_nav": "/games/*/",
        }
        path = folder / "mkdocs.yml"
        path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), "utf-8")
        configs[lang] = path
    return configs


def settle(project: Project, seconds: float, say: Say) -> None:
    """Before a timed build: wait until the last build's trash is removed (the process that
    removes it runs on after ``rulesite build`` exits), then ``seconds`` more. On ext4 without a
    journal (this project's benchmark machine) the system will not reuse an inode freed shortly
    before (measured here: still 30 s after, no longer 45 s after), and every file created
    scans past each such inode: a build started just after another removed
    thousands of files pays for that removal (rulesite's clean build at 100 games measured 6 CPU
    s of system time back to back, 1.5 s after a pause; creating 1,600 small files took 0.55 CPU
    s 30 s after 13,000 were removed, 0.04 s after 45 s). Waiting lets each build pay only for
    what it removes itself, whichever ran before it."""
    cache = build_cache.BuildCache(project)
    deadline = time.monotonic() + TRASH_SECONDS
    while not cache.trash_emptied():
        if time.monotonic() > deadline:
            say(f"  the last build's trash was still there after {TRASH_SECONDS:.0f} s; going on")
            break
        time.sleep(POLL_SECONDS * 4)
    if seconds > 0:
        say(f"  letting the file system settle for {seconds:g} s…")
        time.sleep(seconds)


def bare_mkdocs(configs: dict[str, Path], say: Say) -> BareTiming:
    """``mkdocs build`` of each configuration in turn, each in a fresh process."""
    seconds = {}
    for lang, config in configs.items():
        command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)]
        seconds[lang], _ = _run(command, f"bare MkDocs ({lang})", say, cwd=config.parent)
    return BareTiming(seconds)


def bare_mkdocs_parallel(configs: dict[str, Path]) -> tuple[float, float]:
    """Wall time and CPU time of ``mkdocs build`` of every configuration at once, each in a
    fresh process: what rulesite, which builds its languages in parallel, is measured against."""
    cpu = children_cpu()
    started = time.perf_counter()
    running = []
    for lang, config in configs.items():
        command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)]
        process = subprocess.Popen(
            command,
            cwd=config.parent,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        running.append((lang, process))
    for lang, process in running:
        _, stderr = process.communicate()
        if process.returncode != 0:
            tail = "\n".join((stderr or "").strip().splitlines()[-20:])
            raise BenchError(f"bare MkDocs ({lang}, parallel) failed:\n{tail}")
    return time.perf_counter() - started, children_cpu() - cpu


@dataclass(frozen=True)
class Size:
    """Bytes as stored and as served compressed (gzip -9)."""

    raw: int
    gzipped: int

    def __add__(self, other: Size) -> Size:
        return Size(self.raw + other.raw, self.gzipped + other.gzipped)


@dataclass(frozen=True)
class Payload:
    """One language's search files."""

    first: Size | None
    """``search/search_index.json``: what the first search downloads (None: no such file)."""
    later: Size | None
    """``search/manifest.json`` and ``search/shards/``, when the index is split: loaded later."""


def size_of(paths: list[Path]) -> Size:
    """Sizes of files, each compressed on its own as a server would."""
    total = Size(0, 0)
    for path in paths:
        data = path.read_bytes()
        total += Size(len(data), len(gzip.compress(data, compresslevel=9, mtime=0)))
    return total


def language_root(site_dir: Path, lang: str) -> Path:
    """The first language is the site root; the others are under their prefix."""
    folder = site_folder(lang)
    return site_dir / folder if folder else site_dir


def search_payloads(site_dir: Path) -> dict[str, Payload]:
    """Search download sizes per language of a built site."""
    payloads = {}
    for lang in LANGUAGES:
        search = language_root(site_dir, lang) / "search"
        index = search / "search_index.json"
        later = [search / "manifest.json"] if (search / "manifest.json").is_file() else []
        if (search / "shards").is_dir():
            later += sorted(p for p in (search / "shards").rglob("*") if p.is_file())
        payloads[lang] = Payload(
            size_of([index]) if index.is_file() else None, size_of(later) if later else None
        )
    return payloads


EDIT_KINDS = ("faq", "rules", "card")
"""What the benchmark edits in one game: a FAQ answer, a rules section's body, a card field
(the BGG rank: on the overview, and in the pages across games that list every card)."""


def incremental_build(project: Project, slug: str, say: Say) -> BuildTiming:
    """After a clean build: edit ``slug``'s first FAQ answer, then ``rulesite build`` again
    (from the cache the clean build kept)."""
    edit_game(project, slug, "faq", f"incremental-{time.time_ns()}")
    return rulesite_build(project, say, clean=False)


def edit_game(project: Project, slug: str, kind: str, token: str) -> tuple[str, float]:
    """Edit ``slug``'s file so that the page returned (relative to the root language's root)
    shows ``token``, and when it was saved (``time.perf_counter()``); the file is replaced
    whole, as editors save, so the watcher never reads half a file. Text edits put the token in
    front of the root language's text."""
    path = project.games_dir / f"{slug}.yaml"
    game = yaml.safe_load(path.read_text(encoding="utf-8"))
    lang = LANGUAGES[0]
    if kind == "card":
        game["card"]["bgg_rank"] = int(token.removeprefix("#"))
        page = f"games/{slug}/"
    else:
        texts, field, page = {
            "faq": (game["faq"][0], "answer", f"games/{slug}/faq/"),
            "rules": (game["rules"][0], "body", f"games/{slug}/rules/"),
        }[kind]
        text = texts[field][lang]
        if text.startswith("benchedit"):  # the previous edit's token
            text = text.split(" ", 1)[1]
        texts[field][lang] = f"{token} {text}"
    # Written beside the project's files, not in data/, which the watcher and loader read.
    scratch = project.root / f".bench-edit-{os.getpid()}.tmp"
    scratch.write_text(game_yaml(game), encoding="utf-8", newline="\n")
    os.replace(scratch, path)
    return page, time.perf_counter()


def median(values: list[float | None]) -> float | None:
    """Median of the edits that showed; None when any did not (that is the headline)."""
    if not values or any(value is None for value in values):
        return None
    return statistics.median(value for value in values if value is not None)
