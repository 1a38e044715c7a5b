"""The Atom feeds (``feed.xml`` per language): valid Atom, stable ids, links that land, text
that stays text. The real build's feeds are checked as RFC 4287 with the standard library's XML
parser and with feedparser; the rest runs on fixture catalogs without MkDocs."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import feedparser
import pytest

from rulesite.catalog import Catalog, load_catalog
from rulesite.engine.feed import FEED_FILE, FEED_LIMIT, FeedContext, feed_xml, newest_changes
from rulesite.engine.projects import load_base_config
from rulesite.model import Change, Game
from rulesite.project import Project
from tests.projects import REAL, good_game_text, make_project

ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")
SITE_URL = str(load_base_config(Project(REAL)).get("site_url") or "")
"""The site address of the base settings (``mkdocs.yml``, ``RULESITE_SITE_URL``); may be unset."""
BASE = SITE_URL.rstrip("/") + "/" if SITE_URL else "https://host.example/"
"""Where the real build's feeds are taken to be: their links are absolute with a site address,
else relative to the feed, and a reader resolves them against this."""
EXAMPLE_URL = "https://feeds.example/"
"""A site address for the fixture catalogs' feeds."""


@pytest.fixture(scope="module")
def real_catalog() -> Catalog:
    return load_catalog(Project(REAL))


def _language_root(catalog: Catalog, code: str) -> str:
    language = next(lang for lang in catalog.site.languages if lang.code == code)
    return f"{language.prefix}/" if language.prefix else ""


def _check_atom(data: bytes) -> ET.Element:
    """The RFC 4287 rules a reader relies on; returns the parsed feed."""
    feed = ET.fromstring(data)
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert len(feed.findall(f"{ATOM}{name}")) == 1, f"feed needs exactly one {name}"
    assert RFC3339.match(feed.findtext(f"{ATOM}updated", ""))
    assert feed.findtext(f"{ATOM}author/{ATOM}name", "").strip(), (
        "feed author (every entry has none)"
    )
    assert [link.get("rel") for link in feed.findall(f"{ATOM}link")].count("self") == 1
    ids = [feed.findtext(f"{ATOM}id")]
    for entry in feed.findall(f"{ATOM}entry"):
        for name in ("id", "title", "updated"):
            assert len(entry.findall(f"{ATOM}{name}")) == 1, f"entry needs exactly one {name}"
        assert RFC3339.match(entry.findtext(f"{ATOM}updated", ""))
        alternates = [
            link
            for link in entry.findall(f"{ATOM}link")
            if link.get("rel", "alternate") == "alternate"
        ]
        assert len(alternates) == 1 and alternates[0].get("href")
        ids.append(entry.findtext(f"{ATOM}id"))
    # Ids are absolute IRIs (never relative), and unique.
    assert all(urlsplit(i).scheme for i in ids), ids
    assert len(set(ids)) == len(ids)
    return feed


def _served_at(address: str) -> dict[str, str]:
    """HTTP headers of a feed fetched from ``address``."""
    return {"content-location": address, "content-type": "application/atom+xml"}


def _parse(data: bytes, root: str) -> feedparser.FeedParserDict:
    """The feed as a reader that fetched it from ``BASE`` sees it (relative links resolved)."""
    return feedparser.parse(data, response_headers=_served_at(f"{BASE}{root}{FEED_FILE}"))


def test_each_language_has_a_valid_atom_feed(site_dir: Path, real_catalog: Catalog) -> None:
    # The real data may have no changes (the seeds record none): the feed is then valid and empty.
    expected = newest_changes(real_catalog.games)
    seen: set[str] = set()
    for language in real_catalog.site.languages:
        root = _language_root(real_catalog, language.code)
        data = (site_dir / root / FEED_FILE).read_bytes()
        feed = _check_atom(data)
        assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == language.html_lang
        entries = feed.findall(f"{ATOM}entry")
        assert len(entries) == min(len(expected), FEED_LIMIT)
        # A translation is another entry: no id is shared between the languages' feeds.
        ids = {element.text for element in feed.iter(f"{ATOM}id")}
        assert not ids & seen, language.code
        seen |= ids
        dates = [entry.findtext(f"{ATOM}updated") for entry in entries]
        assert dates == sorted(dates, reverse=True), "newest first"
        parsed = _parse(data, root)
        assert not parsed.bozo, parsed.get("bozo_exception")
        assert parsed.version == "atom10"
        for (game, change), item in zip(expected, parsed.entries, strict=True):
            assert game.title.get(language.code) in item.title
            assert item.updated.startswith(change.date.isoformat())
            assert item.link.startswith(BASE + root)


def test_feed_entries_link_to_the_change_on_its_page(site_dir: Path, real_catalog: Catalog) -> None:
    for language in real_catalog.site.languages:
        root = _language_root(real_catalog, language.code)
        parsed = _parse((site_dir / root / FEED_FILE).read_bytes(), root)
        for item in parsed.entries:
            path, _, anchor = item.link.removeprefix(BASE).partition("#")
            page = (site_dir / path / "index.html").read_text("utf-8")
            assert f'id="{anchor}"' in page, item.link
            # Each affected rule section or ruling is linked in the content, and exists.
            for href in re.findall(r'href="([^"]+)"', item.content[0].value):
                if not href.startswith(BASE):
                    continue  # a cited source's own address
                target, _, fragment = href.removeprefix(BASE).partition("#")
                assert f'id="{fragment}"' in (site_dir / target / "index.html").read_text("utf-8")


def test_pages_point_feed_readers_at_their_language_feed(
    site_dir: Path, real_catalog: Catalog
) -> None:
    game = real_catalog.games[0].slug
    for language in real_catalog.site.languages:
        root = _language_root(real_catalog, language.code)
        for page in (f"{root}index.html", f"{root}games/{game}/index.html"):
            html = (site_dir / page).read_text("utf-8")
            links = re.findall(
                r'<link rel="\s*alternate\s*" type="application/atom\+xml" href="([^"]+)"', html
            )
            assert len(links) == 1, page
            resolved = urljoin(f"https://host/{page}", links[0])
            assert resolved == f"https://host/{root}{FEED_FILE}", page


# --- On fixture catalogs -------------------------------------------------------------------


def _catalog(tmp_path: Path, changes_yaml: str) -> Catalog:
    project = make_project(
        tmp_path / "p", games={"mini-game.yaml": good_game_text() + changes_yaml}
    )
    return load_catalog(Project(project), today=dt.date(2026, 6, 1))


def _context(catalog: Catalog, site_url: str = "") -> FeedContext:
    language = catalog.site.languages[1]
    url = site_url + (f"{language.prefix}/" if site_url and language.prefix else "")
    return FeedContext(language.code, url, language.site_name, language.tagline)


HOSTILE = """changes:
  - id: hostile
    date: 2026-05-01
    kind: corrected
    text:
      zh: "<script>alert(1)</script> ]]> &amp; <entry><id>x</id></entry>"
      en: "<script>alert(1)</script> ]]> &amp; <entry><id>x</id></entry> [link](https://example.org/a?b=1&c=2)"
    faq: [hand-limit]
    cites:
      - {source: rulebook, where: {zh: 第 2 页, en: p. 2}}
"""


def test_data_text_stays_text_in_the_feed(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, HOSTILE)
    data = feed_xml(catalog, _context(catalog, EXAMPLE_URL))
    feed = _check_atom(data)
    assert {element.tag for element in feed.iter()} <= {
        f"{ATOM}{name}"
        for name in (
            "feed", "id", "title", "subtitle", "updated", "published", "author", "name", "link",
            "entry", "category", "summary", "content",
        )
    }  # fmt: skip
    (entry,) = feed.findall(f"{ATOM}entry")
    summary = entry.findtext(f"{ATOM}summary")
    assert summary.startswith("<script>alert(1)</script> ]]> & <entry><id>x</id></entry>")
    content = entry.findtext(f"{ATOM}content")
    assert "<script" not in content and "<entry" not in content
    assert "&#60;script&#62;alert(1)&#60;/script&#62;" in content
    assert 'href="https://example.org/a?b=1&#38;c=2"' in content
    assert f'href="{EXAMPLE_URL}en/games/mini-game/faq/#hand-limit"' in content
    assert '<a href="https://example.org/rules" rel="noopener">Test rulebook</a> (p. 2)' in content
    assert not feedparser.parse(data).bozo


def test_feed_without_a_site_url_links_relative_to_itself(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path, HOSTILE)
    relative = feed_xml(catalog, _context(catalog))
    absolute = feed_xml(catalog, _context(catalog, EXAMPLE_URL))
    assert b'href="games/mini-game/#change-hostile"' in relative
    # A reader resolves them against the feed's own address, wherever it is published.
    where = "https://mirror.example/sub/en/feed.xml"
    parsed = feedparser.parse(relative, response_headers=_served_at(where))
    assert not parsed.bozo
    assert parsed.entries[0].link == "https://mirror.example/sub/en/games/mini-game/#change-hostile"
    # Ids never depend on where the site is published: readers do not see entries again.
    ids = [ET.fromstring(f).findall(f".//{ATOM}id") for f in (relative, absolute)]
    assert [i.text for i in ids[0]] == [i.text for i in ids[1]]


def test_feed_is_newest_first_and_capped(real_catalog: Catalog) -> None:
    game = real_catalog.games[0]
    many = [
        Change(
            id=f"c{n}",
            date=dt.date(2026, 1, 1) + dt.timedelta(days=n),
            kind="added",
            text=game.summary,
        )
        for n in reversed(range(FEED_LIMIT + 10))
    ]
    other = real_catalog.games[1].model_copy(
        update={"changes": [many[0].model_copy(update={"id": "same-day"})]}
    )
    games: list[Game] = [game.model_copy(update={"changes": many}), other]
    entries = newest_changes(games)
    assert len(entries) == FEED_LIMIT
    dates = [change.date for _, change in entries]
    assert dates == sorted(dates, reverse=True)
    # Entries of one day keep the games' order (by slug), then each file's order.
    assert [(g.slug, c.id) for g, c in entries[:2]] == sorted(
        [(game.slug, "c59"), (other.slug, "same-day")]
    )
