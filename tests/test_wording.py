"""Typography and wording of every built page of the real site (issue 11, item 9).

Each check reads the text a reader sees: the page's article, without scripts and styles.
"""

from __future__ import annotations

import html
import os
import re
import unicodedata
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.collate import reading_key
from rulesite.project import Project
from tests.helpers import REPO
from tests.projects import REAL
from tests.site_checks import LANGS, page_paths

SEEDS = Path(os.environ.get("RULESITE_SEEDS") or REPO.parent / "shared" / "seeds")
"""The Chinese seed pages the data was written from: facts carry over, sentences do not.

They sit beside the checkout (``../shared/seeds``, as in CI); ``RULESITE_SEEDS`` names another
place. Missing, the check fails: a skipped check would pass without having looked.
"""
GAMES = load_catalog(Project(REAL)).games
PAGES = [f"{prefix}{path}index.html" for prefix in LANGS.values() for path in page_paths(GAMES)]
"""Every page of the built site except the 404 page (checked by `test_every_page_is_checked`)."""
ZH_PAGES = [page for page in PAGES if not page.startswith("en/")]
EN_PAGES = [page for page in PAGES if page.startswith("en/")]

SHARED_RUN = 20
"""Runs of this many characters or more shared with a seed page (after normalising) fail."""
_CJK = re.compile(r"[\u3400-\u9fff]")
_ARTICLE = re.compile(r"<article\b.*?</article>", re.S)
_CODE = re.compile(r"<(script|style)\b.*?</\1>", re.S)
_TAG = re.compile(r"<[^>]+>")


def reader_text(site_dir: Path, page: str) -> str:
    """The article's text as a reader sees it: tags removed, entities decoded, spaces kept."""
    source = (site_dir / page).read_text(encoding="utf-8")
    article = _ARTICLE.search(source)
    assert article, f"{page}: no <article>"
    return html.unescape(_TAG.sub("", _CODE.sub("", article.group(0))))


def normalised(text: str) -> str:
    """Full-width forms folded to ASCII (NFKC), case folded, every space removed."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).casefold()


def shared_runs(text: str, seed_windows: set[str]) -> list[str]:
    """Maximal runs of ``text`` of SHARED_RUN characters or more that also occur in a seed.

    Runs without a single Chinese character are left out: they are proper names (BGG's English
    mechanic names, edition titles), dates and numbers, which the page must give as they are.
    """
    size = SHARED_RUN
    runs: list[list[int]] = []
    for start in range(len(text) - size + 1):
        if text[start : start + size] not in seed_windows:
            continue
        if runs and start <= runs[-1][1]:
            runs[-1][1] = start + size
        else:
            runs.append([start, start + size])
    return [text[a:b] for a, b in runs if _CJK.search(text[a:b])]


@pytest.fixture(scope="module")
def seed_windows() -> set[str]:
    """Every window of SHARED_RUN characters of the normalised seed pages."""
    size = SHARED_RUN
    windows: set[str] = set()
    assert SEEDS.is_dir(), (
        f"the seed pages are not at {SEEDS}: put them at ../shared/seeds beside the checkout, "
        "or name their folder in RULESITE_SEEDS"
    )
    for path in sorted(SEEDS.glob("*.txt")):
        seed = normalised(path.read_text(encoding="utf-8"))
        windows.update(seed[i : i + size] for i in range(len(seed) - size + 1))
    assert windows, f"no seed pages in {SEEDS}"
    return windows


def test_every_page_is_checked(site_dir: Path) -> None:
    built = {str(p.relative_to(site_dir)) for p in site_dir.rglob("index.html")}
    assert built == set(PAGES)


@pytest.mark.parametrize("page", EN_PAGES)
def test_no_chinese_enumeration_comma_on_english_pages(site_dir: Path, page: str) -> None:
    text = reader_text(site_dir, page)
    assert "、" not in text, re.findall(r".{0,30}、.{0,30}", text)


@pytest.mark.parametrize("page", EN_PAGES)
def test_a_count_of_one_is_singular_on_english_pages(site_dir: Path, page: str) -> None:
    # A label's singular twin (check/labels.SINGULAR): never "1 rulings", "1 terms".
    text = reader_text(site_dir, page)
    assert not re.findall(r"(?<![\d.,])1 (?:rulings|terms|sections|topics|games)\b", text)


@pytest.mark.parametrize("page", ZH_PAGES)
def test_no_western_space_after_chinese_punctuation(site_dir: Path, page: str) -> None:
    """A space may only stand before the spaced " · " that separates links in a list."""
    text = reader_text(site_dir, page)
    found = re.findall(r".{0,20}[。，：；！？、][ \u00a0](?!·).{0,20}", text)
    assert not found


@pytest.mark.parametrize("page", PAGES)
def test_no_label_said_twice(site_dir: Path, page: str) -> None:
    """A label followed by the same words again ("Not covered: Not covered: ...")."""
    text = reader_text(site_dir, page)
    found = re.findall(r"(\b\w[\w ]{2,30})\s*[:：]\s*\1\s*[:：]", text)
    found += re.findall(r"(\w{2,10})[:：]\s*\1", text) if not page.startswith("en/") else []
    assert not found


@pytest.mark.parametrize("page", PAGES)
def test_no_sentence_copied_from_the_seeds(
    site_dir: Path, page: str, seed_windows: set[str]
) -> None:
    text = normalised(reader_text(site_dir, page))
    assert not shared_runs(text, seed_windows)


TERMS = {
    "clans-of-caledonia": {"en": [r"\blakes?\b"], "zh": ["基础品", "加工品", "钱币"]},
    "nations": {"en": [r"\bnation boards?\b"], "zh": []},
    "its-a-wonderful-world": {"en": [], "zh": ["固定分", "直接分"]},
}
"""Words for which the game has one term: the other word must not appear on its pages."""


@pytest.mark.parametrize("page", [p for p in PAGES if "/games/" in f"/{p}" and p.count("/") > 2])
def test_one_term_per_thing(site_dir: Path, page: str) -> None:
    slug = page.removeprefix("en/").split("/")[1]
    lang = "en" if page.startswith("en/") else "zh"
    text = reader_text(site_dir, page)
    words = TERMS.get(slug, {}).get(lang, [])  # games added later have no such list
    found = [m for word in words for m in re.findall(word, text, re.I)]
    assert not found


@pytest.mark.parametrize("page", [p for p in ZH_PAGES if p.startswith("games/") and p != "games/"])
def test_worked_examples_use_the_players_names(site_dir: Path, page: str) -> None:
    """The Chinese notes name the example's players as the calculator does (Ann, Bo, Cy)."""
    found = re.findall(r"[安博丙][：:和的]|[安博丙]获胜", reader_text(site_dir, page))
    assert not found


def test_mechanic_label_is_the_usual_chinese_term(site_dir: Path) -> None:
    text = reader_text(site_dir, "games/its-a-wonderful-world/index.html")
    assert "暗轮抽" in text and "闭眼" not in text


def test_english_game_pages_show_the_chinese_title(site_dir: Path) -> None:
    text = reader_text(site_dir, "en/games/clans-of-caledonia/index.html")
    assert "加勒多尼亞" in text


@pytest.mark.parametrize("lang", ["", "en/"])
def test_games_index_is_sorted_by_the_page_language_title(site_dir: Path, lang: str) -> None:
    source = (site_dir / lang / "games" / "index.html").read_text(encoding="utf-8")
    titles = re.findall(r'<a class="rs-games__title" href="[^"]+">(.*?)</a>', source)
    assert len(titles) == len(GAMES)
    # Chinese by pinyin, Latin titles first (collate.py); English case-insensitively.
    code = "en" if lang else "zh"
    assert titles == sorted(titles, key=lambda title: reading_key(html.unescape(title), code))


def test_the_rulebook_mirror_is_told_to_players(site_dir: Path) -> None:
    # Issue 18, item 5: readers need to know the Nations rulebook was read from a mirror.
    for page in [p for p in PAGES if "games/nations/index.html" in p]:
        text = reader_text(site_dir, page)
        assert "mirror" in text.lower() or "镜像" in text, page
