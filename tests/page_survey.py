"""Every page of the real site visited once in a run, and what the checks of every page read
from it there: the problems the page met, its tap targets, headings' permalinks and number
ranges at 360 px, its links between rulings and topics, the kinds of element it shows.

Three checks went through every page of both languages, each with a load of its own (console
errors and failed requests: ``test_browser.py``; tap targets: ``test_onetap_browser.py``; which
pages axe checks: ``test_accessibility.py``): 216 loads a run. Three more loaded pages to read
them (permalinks and number ranges of the game pages, 22 loads; the topic tags and the topic
pages, 42: ``test_onetap_browser.py``); they now read them from here. The survey loads each
page once, on a 360 × 740 phone (where most readers are), and writes what it saw to JSON files
that every xdist worker reads (``projects.built_once``); the checks assert on those facts, each
with the same message as before.

The survey is made in pieces, one per page kind and language, each when a test first asks for
one of its pages: ``test_accessibility.py``'s tests are handed to the workers by page kind and
language, so each worker surveys the pieces its own tests read, instead of three waiting while
one surveys the whole site (20 s each, measured).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesite.pages import registry
from tests.helpers import PHONE, recording
from tests.projects import built_once

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

HEADINGS = """() => [...document.querySelectorAll('.md-content :is(h2, h3) > a.headerlink')]
  .map(link => { const h = link.parentElement.getBoundingClientRect();
    const l = link.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(link.parentElement).lineHeight);
    return [link.parentElement.id, l.top - h.top, line, h.right - l.right]; })"""
"""Each content heading's permalink (the pilcrow) as laid out: ``[heading id, its top below the
heading's top, the heading's line height, the heading's right edge beyond the pilcrow's]``."""

RANGES = """() => [...document.querySelectorAll('.md-content .rs-nowrap')]
  .map(s => [s.textContent, getComputedStyle(s).whiteSpace, s.getClientRects().length])"""
"""Each number range kept on one line (``2–5``): ``[its text, its white-space, its lines]``."""

TOPIC_LINKS = """() => [...document.querySelectorAll(
    '.md-content a.rs-tag, .md-content .rs-topic-list a')]
  .map(a => { if (a.closest('.rs-topic-list')) return ['listed', a.pathname + a.hash];
    let at = a.closest('p');
    while (at && at.localName !== 'h2') at = at.previousElementSibling;
    return [at ? at.id : '', a.pathname + a.hash]; })"""
"""A page's links between rulings and topics, each resolved to a path from the server's root
(the workers' servers differ in port only): each topic tag as ``[the id of the ruling heading
it follows, path]``, each ruling a topic page lists as ``['listed', path]``."""

BEFORE_TAPPING = f"() => [({TARGETS})(), ({HEADINGS})(), ({RANGES})(), ({TOPIC_LINKS})()]"
"""``TARGETS``, ``HEADINGS``, ``RANGES`` and ``TOPIC_LINKS`` of a page, in that order."""

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
    headings: list[list]
    """Its headings' permalinks as the phone lays them out (``HEADINGS``)."""
    ranges: list[list]
    """Its number ranges as the phone lays them out (``RANGES``)."""
    topic_links: list[list]
    """Its topic tags and the rulings it lists under a topic (``TOPIC_LINKS``)."""
    markup: list[str]
    """The kinds of element it shows (``MARKUP``); a score page's with a worked example
    filled in."""


class Survey:
    """What every page of the site showed, by path from the site's root
    (``en/games/<slug>/faq/``), surveyed a piece (a page kind in a language) at a time, each
    piece once for every process of the run (``built_once`` under the run's shared folder)."""

    def __init__(
        self, shared: Path, browser, base_url: str, prefixes: list[str], pages: list[str]
    ) -> None:
        """``prefixes``: each language's folder from the site's root (``""``, ``"en/"``);
        ``pages``: every page's path relative to a language's root."""
        self._shared, self._browser, self._base_url = shared, browser, base_url
        self._pieces: dict[str, list[str]] = {}
        self._piece_of: dict[str, str] = {}
        for prefix in prefixes:
            for page in pages:
                piece = f"{prefix.strip('/') or 'root'}-{registry.kind_of_url(page)[0].name}"
                self._pieces.setdefault(piece, []).append(prefix + page)
                self._piece_of[prefix + page] = piece
        self._read: dict[str, dict[str, PageFacts]] = {}
        self._context = None
        """The survey's phone and its ``TABS`` tabs in this process, made for its first piece."""
        self._tabs: list = []

    def __getitem__(self, path: str) -> PageFacts:
        return self._piece(self._piece_of[path])[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._piece_of)

    def __len__(self) -> int:
        return len(self._piece_of)

    def items(self) -> Iterator[tuple[str, PageFacts]]:
        for path in self._piece_of:
            yield path, self[path]

    def close(self) -> None:
        if self._context is not None:
            self._context.close()

    def _piece(self, piece: str) -> dict[str, PageFacts]:
        if piece not in self._read:
            written = built_once(self._shared / "page-survey", piece, self._make(piece))
            found = json.loads((written / "facts.json").read_text(encoding="utf-8"))
            self._read[piece] = {path: PageFacts(**page) for path, page in found.items()}
        return self._read[piece]

    def _make(self, piece: str) -> Callable[[Path], None]:
        def make(folder: Path) -> None:
            folder.mkdir(parents=True)
            found = self._survey(self._pieces[piece])
            found_json = {path: vars(page) for path, page in found.items()}
            (folder / "facts.json").write_text(json.dumps(found_json), encoding="utf-8")

        return make

    def _survey(self, paths: list[str]) -> dict[str, PageFacts]:
        """Load every one of ``paths`` once, ``TABS`` at a time, and read its facts."""
        if self._context is None:
            self._context = self._browser.new_context(viewport=PHONE)
            self._tabs = [recording(self._context.new_page()) for _ in range(TABS)]
        facts: dict[str, PageFacts] = {}
        for start in range(0, len(paths), TABS):
            batch = list(zip(self._tabs, paths[start : start + TABS], strict=False))
            for tab, path in batch:
                tab.goto(self._base_url + path, wait_until="commit")
            for tab, path in batch:
                facts[path] = _read(tab)
        return facts


def _read(tab) -> PageFacts:
    """The facts of the page loading in ``tab``, once it has stopped fetching."""
    tab.wait_for_load_state("networkidle")
    # One round trip for the facts read before anything is tapped.
    targets, headings, ranges, topic_links = tab.evaluate(BEFORE_TAPPING)
    tries = tab.locator(TRY)
    if tries.count():
        tries.first.click()
    markup = sorted(tab.evaluate(MARKUP))
    problems = list(tab.problems)
    tab.problems.clear()
    return PageFacts(problems, targets, headings, ranges, topic_links, markup)
