"""Own words (issue 18, item 14): no data text, and no rendered Chinese page, shares a run of
20 or more Chinese characters with a seed page.

Facts carry over from the seed pages in ``../shared/seeds/`` (beside the repository root, as CI
has them); sentences do not. A run is counted in Chinese characters only: punctuation, spaces,
digits and Latin letters are dropped from both sides first, so a copied sentence cannot hide
behind a full-width comma or a changed number. Runs of 12–19 characters are listed as warnings
in the test output (a phrase worth rewording, not yet a copy). The test never skips: without
the seeds it fails, naming the folder.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.check.terms import texts
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.helpers import REPO

SEEDS = REPO.parent / "shared" / "seeds"
"""The seed pages, ``../shared/seeds/`` relative to the repository root."""
FAIL_AT = 20
"""A shared run of this many Chinese characters fails."""
WARN_AT = 12
"""A shared run of this many (up to FAIL_AT - 1) is listed as a warning."""
_CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SOURCE_LANG = "zh"
"""The seeds' language: the texts compared are the Chinese ones."""


class SeedRunWarning(UserWarning):
    """A run of WARN_AT to FAIL_AT - 1 Chinese characters shared with a seed page."""


def chinese(text: str) -> str:
    """Only the Chinese characters of ``text``, in order."""
    return "".join(_CHINESE.findall(text))


def seed_pages() -> list[Path]:
    pages = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    assert pages, (
        f"no seed pages in {SEEDS}: this test needs ../shared/seeds/ beside the repository "
        "(CI has it); it never skips"
    )
    return pages


class SeedIndex:
    """Every stretch of WARN_AT or more Chinese characters of the seed pages, by length, so
    the longest shared run starting at each place of a text is found by set lookups."""

    def __init__(self, seeds: list[str]) -> None:
        self.windows: set[str] = set()
        for seed in seeds:
            for start in range(len(seed) - WARN_AT + 1):
                self.windows.add(seed[start : start + WARN_AT])
        self.seeds = seeds

    def runs(self, text: str) -> list[str]:
        """Maximal runs of ``text``'s Chinese characters, WARN_AT or longer, found in a seed."""
        letters = chinese(text)
        found = []
        start = 0
        while start <= len(letters) - WARN_AT:
            if letters[start : start + WARN_AT] not in self.windows:
                start += 1
                continue
            end = start + WARN_AT
            while end < len(letters) and any(letters[start : end + 1] in s for s in self.seeds):
                end += 1
            found.append(letters[start:end])
            start = end
        return found


@pytest.fixture(scope="module")
def index() -> SeedIndex:
    return SeedIndex([chinese(p.read_text(encoding="utf-8")) for p in seed_pages()])


def data_texts() -> Iterator[tuple[str, str]]:
    """(where, Chinese text) for every text of every game and every site label."""
    catalog = load_catalog(Project(REPO))
    for game in catalog.games:
        doc = catalog.documents[game.slug]
        for path, text in texts(game):
            if _SOURCE_LANG in text.languages():
                yield (
                    str(doc.problem((*path, _SOURCE_LANG), "")).rstrip(": "),
                    text.get(_SOURCE_LANG),
                )


def rendered_pages() -> Iterator[tuple[str, str]]:
    """(page, Markdown) for every rendered page in the seeds' language."""
    project = Project(REPO)
    for relative, markdown in render_pages(project, load_catalog(project)).items():
        if relative.startswith(f"{_SOURCE_LANG}/"):
            yield f"content/{relative}", markdown


def check(items: Iterator[tuple[str, str]], index: SeedIndex) -> list[str]:
    """The failures (runs of FAIL_AT or more); shorter runs become warnings."""
    failures = []
    for where, text in items:
        for run in index.runs(text):
            line = f"{where}: {len(run)} Chinese characters shared with a seed page: {run}"
            if len(run) >= FAIL_AT:
                failures.append(line)
            else:
                warnings.warn(line, SeedRunWarning, stacklevel=2)
    return failures


def test_no_data_text_copies_a_seed_sentence(index: SeedIndex) -> None:
    failures = check(data_texts(), index)
    assert not failures, "write these in your own words:\n" + "\n".join(failures)


def test_no_rendered_chinese_page_copies_a_seed_sentence(index: SeedIndex) -> None:
    failures = check(rendered_pages(), index)
    assert not failures, "write these in your own words:\n" + "\n".join(failures)


def test_a_copied_seed_sentence_fails_and_a_short_phrase_warns(index: SeedIndex) -> None:
    """The check itself: the battle definition the review found (the seed's sentence with a few
    words changed) fails; a shorter shared phrase only warns; a rewording passes."""
    copied = (
        "一次性的进步牌，须有部署了工人的军队才能买；"
        "按最强可用军队的掠夺值取书籍、粮食或石材之一，然后移除。"
    )
    with warnings.catch_warnings(record=True):
        failures = check(iter([("battle", copied)]), index)
    assert len(failures) == 1 and "部署了工人的军队才能买按最强可用军队的掠夺值" in failures[0]
    with pytest.warns(SeedRunWarning, match="13 Chinese characters"):
        assert not check(iter([("wonders", "没有在建奇迹或付不起下一段都不能做。")]), index)
    own = "只用一次的进步牌。手上至少有一张放了工人的军队时才准买。"
    assert not index.runs(own)
