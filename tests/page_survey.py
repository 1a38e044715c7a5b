"""Every page of the real site visited once in a run, and what the checks of every page read
from it there: the problems the page met, its tap targets at 360 px, the kinds of element it
shows.

Three checks went through every page of both languages, each with a load of its own (console
errors and failed requests: ``test_browser.py``; tap targets: ``test_onetap_browser.py``; which
pages axe checks: ``test_accessibility.py``): 216 loads a run. The survey loads each page once,
on a 360 × 740 phone (where most readers are), and writes what it saw to a JSON file that every
xdist worker reads (``helpers.built_once``); the checks assert on those facts, each with the
same message as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import PHONE, built_once, recording

TABS = 8
"""Pages loaded at once: each waits for half a second without requests (networkidle), and
those waits overlap instead of adding up."""

TARGETS = """() => [...document.querySelectorAll(
    '.md-content a[href], .md-content button, .md-content summary, .md-content select,'
    + ' .md-content input:not([type=checkbox]):not([type=radio])')]
  // Links inside data text are words in a sentence (WCAG 2.5.8's inline exception), and so is
  // a source named in the one-line citation under a ruling ("Source: <name>, p. 2 · ...").
  .filter(e => e.getClientRects().length && !e.closest('.rs-text, .rs-source'))
  .map(e => { const r = e.getBoundingClientRect();
    return [e.className || e.tagName, (e.textContent || '').trim().slice(0, 30),
            r.width, r.height]; })
"""
"""Each tap target of a page's content: ``[class or tag, text, width, height]``."""

MARKUP = """() => [...new Set([...document.body.querySelectorAll('*')].map(e => [
    e.localName,
    [...e.classList].sort().join('.'),
    e.getAttribute('role') || '',
    e.getAttribute('type') || '',
    [...e.attributes].map(a => a.name).filter(n => n.startsWith('aria-')).sort().join(','),
].join('|')))]"""
"""What kinds of element a page shows once its scripts ran (each element's tag, classes, role,
type and aria attributes)."""

TRY = ".rs-calc__try"
"""A calculator's worked example: a score page's markup is read with one filled in."""


@dataclass(frozen=True)
class PageFacts:
    """What one page showed when the survey loaded it."""

    problems: list[str]
    """Console and script errors, failed requests and HTTP errors (``helpers.recording``),
    from its load to the end of the survey's visit."""
    targets: list[list]
    """Its tap targets as the phone lays them out, before anything is tapped (``TARGETS``)."""
    markup: list[str]
    """The kinds of element it shows (``MARKUP``); a score page's with a worked example
    filled in."""


def survey(browser, base_url: str, paths: list[str]) -> dict[str, PageFacts]:
    """Load every one of ``paths`` (relative to ``base_url``) once and read its facts."""
    context = browser.new_context(viewport=PHONE)
    tabs = [recording(context.new_page()) for _ in range(TABS)]
    facts: dict[str, PageFacts] = {}
    try:
        for start in range(0, len(paths), TABS):
            batch = list(zip(tabs, paths[start : start + TABS], strict=False))
            for tab, path in batch:
                tab.goto(base_url + path, wait_until="commit")
            for tab, path in batch:
                facts[path] = _read(tab)
    finally:
        context.close()
    return facts


def _read(tab) -> PageFacts:
    """The facts of the page loading in ``tab``, once it has stopped fetching."""
    tab.wait_for_load_state("networkidle")
    targets = tab.evaluate(TARGETS)
    tries = tab.locator(TRY)
    if tries.count():
        tries.first.click()
    markup = sorted(tab.evaluate(MARKUP))
    problems = list(tab.problems)
    tab.problems.clear()
    return PageFacts(problems, targets, markup)


def surveyed(shared: Path, browser, base_url: str, paths: list[str]) -> dict[str, PageFacts]:
    """The survey of ``paths``, made once for every process of the run that asks (the first
    one's ``browser`` and ``base_url``) under ``shared``, the run's shared folder."""

    def make(folder: Path) -> None:
        folder.mkdir(parents=True)
        found = {path: vars(page) for path, page in survey(browser, base_url, paths).items()}
        (folder / "facts.json").write_text(json.dumps(found), encoding="utf-8")

    written = built_once(shared, "page-survey", make) / "facts.json"
    return {
        path: PageFacts(**page)
        for path, page in json.loads(written.read_text(encoding="utf-8")).items()
    }
