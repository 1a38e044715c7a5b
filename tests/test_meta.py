"""What a shared link shows: Open Graph and Twitter tags on every page of the real site."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.helpers import elements

LOCALES = {"zh": "zh_CN", "en": "en_US"}
SITE_NAMES = {"zh": "桌游规则速查", "en": "Rulesite"}


def language_of(site_dir: Path, page: Path) -> str:
    return "en" if page.relative_to(site_dir).parts[0] == "en" else "zh"


def head_tags(text: str) -> dict[str, str]:
    """``og:*``/``twitter:*``/``description``/``canonical`` of a page, as a browser reads them."""
    found: dict[str, str] = {}
    for tag, attrs in elements(text.split("</head>", 1)[0]):
        key = attrs.get("property") or attrs.get("name")
        if tag == "meta" and key and (key.startswith(("og:", "twitter:")) or key == "description"):
            assert key not in found, f"{key} twice"
            found[key] = attrs.get("content") or ""
        if tag == "link" and attrs.get("rel") == "canonical":
            found["canonical"] = attrs.get("href") or ""
    return found


def title_of(text: str) -> str:
    """The text of ``<title>``, unescaped."""
    match = re.search(r"<title>(.*?)</title>", text, re.S)
    assert match, "no <title>"
    return html.unescape(match.group(1)).strip()


@pytest.fixture(scope="module")
def content_pages(site_dir: Path) -> list[Path]:
    pages = sorted(p for p in site_dir.rglob("index.html") if "assets" not in p.parts)
    assert len(pages) >= 2 * (2 + 3 * 4), "expected home, games index and 4 pages per game"
    return pages


def test_every_page_has_its_share_tags_in_its_language(site_dir, content_pages) -> None:
    for page in content_pages:
        lang = language_of(site_dir, page)
        text = page.read_text(encoding="utf-8")
        tags = head_tags(text)
        where = page.relative_to(site_dir).as_posix()
        assert tags.get("og:type") == "website", where
        assert tags.get("twitter:card") == "summary", where
        assert tags.get("og:locale") == LOCALES[lang], where
        assert tags.get("og:site_name") == SITE_NAMES[lang], where
        # Both only when the site's address is set (tests/test_offline.py builds with one).
        assert tags.get("og:url") == tags.get("canonical"), where
        # The page's own title, read once: a double escape would show "&#x27;" to the reader.
        assert tags.get("og:title"), where
        assert tags["og:title"] == tags.get("twitter:title"), where
        assert tags["og:title"] in title_of(text), (where, tags["og:title"])
        assert "&#" not in tags["og:title"] and "&amp;" not in tags["og:title"], where
        assert tags.get("og:description"), where
        assert tags["og:description"] == tags.get("twitter:description") == tags["description"]
        assert "&#" not in tags["og:description"] and "&amp;" not in tags["og:description"], where


def test_game_pages_share_the_game_title_in_each_language(site_dir) -> None:
    titles = {
        lang: head_tags((site_dir / prefix / "games/its-a-wonderful-world/index.html").read_text())
        for lang, prefix in (("zh", "."), ("en", "en"))
    }
    assert titles["en"]["og:title"] == "It's a Wonderful World"
    assert titles["zh"]["og:title"] != titles["en"]["og:title"]
    assert titles["zh"]["og:locale"] == "zh_CN" and titles["en"]["og:locale"] == "en_US"


@pytest.mark.parametrize("prefix, lang", [(".", "zh"), ("en", "en")])
def test_the_home_page_shares_as_the_site(site_dir, prefix: str, lang: str) -> None:
    tags = head_tags((site_dir / prefix / "index.html").read_text(encoding="utf-8"))
    assert tags["og:title"] == tags["og:site_name"] == SITE_NAMES[lang]


def test_the_404_page_still_names_the_site(site_dir) -> None:
    tags = head_tags((site_dir / "404.html").read_text(encoding="utf-8"))
    assert tags["og:title"] == tags["og:site_name"] == SITE_NAMES["zh"]
    assert tags["og:locale"] == "zh_CN"
