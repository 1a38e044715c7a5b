"""Checks of a built site against the data it was built from.

Every expectation comes from the catalog (languages, games, their pages, titles, card facts,
rulings, calculators), never from a list of known games or languages: the real site's tests
(``tests/test_site.py``), the test that adds a game to a copy of the project and the project
with a third language (``tests/test_languages.py``) run these same functions, so adding a valid
game or language never breaks them. A site's languages are those of the ``data/site.yaml`` it
was built from: the real one's, or the one ``check_site`` was given for that folder.
"""

from __future__ import annotations

import html as html_module
import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlparse

from rulesite import markup
from rulesite.catalog import Catalog, load_site
from rulesite.check.provenance import Freshness, cited_verified
from rulesite.engine.projects import site_path
from rulesite.model import Game, IntRange, SiteData
from rulesite.pages import registry
from rulesite.project import Project
from rulesite.scoring.compiler import compile_calculator
from tests.helpers import elements
from tests.projects import REAL

REAL_SITE = load_site(Project(REAL))
"""The repo's own ``data/site.yaml``: the site the real-site tests check."""
_SITES: dict[Path, SiteData] = {}
"""The site data of each folder ``check_site`` checked (the real site's is the default)."""


def site_of(site_dir: Path) -> SiteData:
    """The site data ``site_dir`` was built from: its languages, names, labels."""
    return _SITES.get(site_dir.resolve(), REAL_SITE)


def prefixes(site: SiteData) -> dict[str, str]:
    """Each language's folder in the built site (``""`` for the root one) by code."""
    return {language.code: site_path(language) for language in site.languages}


LANGS = prefixes(REAL_SITE)
"""The real site's languages: each one's URL prefix in the built site, by code."""
PAGES = {kind.name: kind.in_game_folder() for kind in registry.tab_kinds()}
"""Each kind of game page's path under ``games/<slug>/`` (the page registry's tabs)."""
SITE_PAGES = [
    kind.url()
    for kind in registry.rendered_kinds(registry.Scope.SITE)
    if kind.source_path().endswith(".md")
]
"""Pages about every game (home, the indexes), as the page registry lists them."""


def page_kinds(game: Game) -> list[str]:
    """The pages ``game`` has: a score page only when it has calculators."""
    return [kind.name for kind in registry.tabs_of(game)]


def game_page_paths(game: Game) -> list[str]:
    """Paths of ``game``'s pages, relative to a language's root."""
    return [f"games/{game.slug}/{PAGES[kind]}" for kind in page_kinds(game)]


def page_paths(games: list[Game]) -> list[str]:
    """Every page of a site of ``games``, relative to a language's root: the site's pages, each
    game's tabs and glossary page, and each tagged topic's page."""
    glossaries = [registry.kind("glossary-game").url(g.slug) for g in games if g.glossary]
    tags = dict.fromkeys(tag for g in games for r in g.faq for tag in r.tags)
    topics = [registry.kind("topic").url(tag) for tag in tags]
    games_pages = [path for game in games for path in game_page_paths(game)]
    return SITE_PAGES + games_pages + glossaries + topics


def html_of(site_dir: Path, lang: str, path: str) -> str:
    """A built page of ``lang`` (``path`` relative to the language's root)."""
    folder = prefixes(site_of(site_dir))[lang]
    return (site_dir / folder / path / "index.html").read_text(encoding="utf-8")


def text_of(html: str) -> str:
    """What a reader sees of an HTML fragment: tags dropped, entities decoded."""
    return html_module.unescape(re.sub(r"<[^>]+>", "", html)).strip()


def all_pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


def span(value: IntRange) -> str:
    return str(value.min) if value.min == value.max else f"{value.min}–{value.max}"


def label(site: SiteData, key: str, lang: str, **values: str) -> str:
    """An interface label of ``data/site.yaml`` in ``lang``, its placeholders filled."""
    text = site.labels[key].get(lang)
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


# --- One game -------------------------------------------------------------------------------------


def check_game_page(site_dir: Path, game: Game, kind: str, lang: str) -> None:
    """The page exists in ``lang`` with the game's title and the site's name in its <title>."""
    html = html_of(site_dir, lang, f"games/{game.slug}/{PAGES[kind]}")
    language = site_of(site_dir).language(lang)
    assert f'<html lang="{language.html_lang}"' in html
    title = html_module.unescape(re.search(r"<title>(.*?)</title>", html).group(1))
    assert game.title.get(lang) in title, (game.slug, kind, lang, title)
    assert language.site_name in title


def card_values(site_dir: Path, game: Game, lang: str) -> tuple[list[str], str]:
    """The overview card's values in order, and the card's whole text."""
    html = html_of(site_dir, lang, f"games/{game.slug}/")
    card = re.search(r'<section [^>]*class="rs-card".*?</section>', html, re.S).group(0)
    return [text_of(v) for v in re.findall(r"<dd>(.*?)</dd>", card, re.S)], text_of(card)


def check_overview_card(site_dir: Path, site: SiteData, game: Game, lang: str) -> None:
    """The parameter card shows every fact of the game's ``card`` in ``lang``."""
    card = game.card
    values, text = card_values(site_dir, game, lang)
    platform = site.platform.get(lang)
    assert values[:9] == [
        f"#{card.bgg_rank}",
        f"{card.weight:.2f} / 5",
        span(card.best_players),
        span(card.players),
        span(card.play_time),
        str(card.year),
        label(site, "age_value", lang, age=str(card.min_age)),
        label(site, "edition_" + card.chinese_edition.value, lang),
        label(site, "online_" + card.online_play.value, lang, platform=platform),
    ], (game.slug, lang)
    mechanics = {mechanic.id: mechanic for mechanic in site.mechanics}
    for mechanic in card.mechanics:
        assert mechanics[mechanic].label.get(lang) in text, (game.slug, mechanic)
    assert card.verified.isoformat() in text
    overview = html_of(site_dir, lang, f"games/{game.slug}/")
    assert f"boardgamegeek.com/boardgame/{card.bgg_id}" in overview


def check_ruling_anchors(site_dir: Path, game: Game) -> None:
    """Every ruling has its anchor on the FAQ page of every language."""
    expected = {ruling.id for ruling in game.faq}
    for lang in site_of(site_dir).codes:
        html = html_of(site_dir, lang, f"games/{game.slug}/faq/")
        found = set(re.findall(r'<h2 id="([a-z0-9-]+)"', html))
        assert expected <= found, (game.slug, lang, expected - found)


def check_ruling_sources(site_dir: Path, catalog: Catalog, game: Game, lang: str) -> None:
    """Under every ruling's answer, a source line: the cited sources' names and places and, when
    one is recorded, the verified date, flagged exactly when it is older than
    ``stale_after_days``; "not recorded" for a ruling that cites nothing."""
    site = catalog.site
    html = html_of(site_dir, lang, f"games/{game.slug}/faq/")
    freshness = Freshness(catalog.as_of, site.stale_after_days)
    sources = {source.id: source for source in game.sources}
    for ruling in game.faq:
        section = html.split(f'<h2 id="{ruling.id}"', 1)[1].split("<h2 ", 1)[0]
        lines = re.findall(r'<p class="rs-source">(.*?)</p>', section, re.S)
        assert len(lines) == 1, (game.slug, ruling.id, lang, lines)
        text = text_of(lines[0])
        colon = label(site, "colon", lang)
        if not ruling.cites:
            expected = (
                label(site, "cite_source", lang) + colon + label(site, "cite_unrecorded", lang)
            )
            assert text == expected, (game.slug, ruling.id, lang, text)
            continue
        key = "cite_source" if len(ruling.cites) == 1 else "cite_sources"
        assert text.startswith(label(site, key, lang) + colon), (game.slug, ruling.id, text)
        for citation in ruling.cites:
            source = sources[citation.source]
            assert _shown(source.name.get(lang)) in text, (game.slug, ruling.id, lang, text)
            if citation.where:
                assert _shown(citation.where.get(lang)) in text, (game.slug, ruling.id, text)
        verified = cited_verified(game, ruling.cites)
        if verified is None:
            # No date recorded for what it cites: none is shown (none inherited from the card).
            assert label(site, "cite_verified", lang, date="").strip() not in text, text
            continue
        assert label(site, "cite_verified", lang, date=verified.isoformat()) in text
        stale = 'class="rs-stale"' in lines[0]
        assert stale == freshness.is_stale(verified), (game.slug, ruling.id, lang, text)


def _shown(text: str) -> str:
    """What a reader sees of a one-line data text."""
    return text_of(str(markup.inline(text)))


def check_calculators(site_dir: Path, game: Game) -> None:
    """Each calculator is on the score page of every language, carrying its compiled model."""
    for lang in site_of(site_dir).codes:
        html = html_of(site_dir, lang, f"games/{game.slug}/score/") if game.scoring else ""
        models = {
            attrs["data-calculator"]: json.loads(attrs["data-model"] or "")["model"]
            for tag, attrs in elements(html)
            if "rs-calc" in (attrs.get("class") or "").split() and attrs.get("data-model")
        }
        assert models == {
            calc.id: json.loads(json.dumps(compile_calculator(calc))) for calc in game.scoring
        }, (game.slug, lang)


def check_game(site_dir: Path, site: SiteData, game: Game) -> None:
    """Everything the built site must show of one game."""
    for lang in site_of(site_dir).codes:
        for kind in page_kinds(game):
            check_game_page(site_dir, game, kind, lang)
        check_overview_card(site_dir, site, game, lang)
    check_ruling_anchors(site_dir, game)
    check_calculators(site_dir, game)


# --- The whole site -------------------------------------------------------------------------------


def check_home(site_dir: Path, games: list[Game], lang: str) -> None:
    """The home page has one card per game, linking the game and naming it."""
    html = html_of(site_dir, lang, "")
    for game in games:
        assert f'href="games/{game.slug}/"' in html
        assert game.title.get(lang) in html_module.unescape(html)
    assert html.count('class="grid cards') == 1
    cards = re.search(r'class="grid cards[^"]*">\s*<ul>(.*?)</ul>', html, re.S).group(1)
    assert cards.count("<li>") == len(games)  # one card per game, none run together


def check_language_switch(site_dir: Path, games: list[Game]) -> None:
    """Every page's language switcher links the same page in every language, and every page
    the data gives (in every language) has a switcher."""
    site = site_of(site_dir)
    folders = prefixes(site)
    html_langs = {language.html_lang: language.code for language in site.languages}
    checked: set[str] = set()
    for page in all_pages(site_dir):
        if page.name in STAND_IN_PAGES:
            continue
        html = page.read_text(encoding="utf-8")
        links = re.findall(r'<a href="([^"]+)" hreflang="([\w-]+)" class="md-select__link">', html)
        assert [lang for _, lang in links] == list(html_langs), page
        here = _within_language(page.relative_to(site_dir).as_posix(), folders)
        for href, html_lang in links:
            target = (page.parent / href).resolve() / "index.html"
            assert target.exists(), f"{page}: {href}"
            assert f'<html lang="{html_lang}"' in target.read_text(encoding="utf-8")
            relative = target.relative_to(site_dir.resolve()).as_posix()
            assert relative.startswith(folders[html_langs[html_lang]]), (page, href)
            assert here == _within_language(relative, folders), (page, href)
        checked.add(page.relative_to(site_dir).as_posix())
    paths = page_paths(games)
    expected = {f"{prefix}{path}index.html" for prefix in folders.values() for path in paths}
    assert expected <= checked, sorted(expected - checked)


STAND_IN_PAGES = ("404.html", "offline.html")
"""Pages shown in place of another page (not found, not stored offline): no translation of
their own to link to."""


def _within_language(relative: str, folders: dict[str, str]) -> str:
    """A built page's path inside its language (the language's folder taken off)."""
    for folder in folders.values():
        if folder and relative.startswith(folder):
            return relative.removeprefix(folder)
    return relative


def check_no_other_host(site_dir: Path) -> None:
    """No page or stylesheet loads anything from another host."""
    resource = re.compile(
        r'<(?:script|img|iframe|source)[^>]*\ssrc="([^"]+)"|<link[^>]*href="([^"]+)"'
    )
    for page in all_pages(site_dir):
        html = page.read_text(encoding="utf-8")
        for match in resource.finditer(html):
            url = match.group(1) or match.group(2)
            if 'rel="canonical"' in match.group(0):
                continue
            assert not urlparse(url).netloc and not url.startswith("//"), f"{page}: {url}"
        assert "fonts.googleapis" not in html and "Made with" not in html
    for css in site_dir.rglob("*.css"):
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", css.read_text(encoding="utf-8")), css


def search_docs(site_dir: Path, lang: str) -> list[dict]:
    """A language's search documents (location, title, text): those the chunked index shows
    (``search/pages/``, engine/search_chunks.py), else Material's own index."""
    search = site_dir / prefixes(site_of(site_dir))[lang] / "search"
    parts = sorted(
        (search / "pages").glob("*.json"), key=lambda p: tuple(int(n) for n in p.stem.split("-"))
    )
    if not parts:
        return json.loads((search / "search_index.json").read_text(encoding="utf-8"))["docs"]
    rows = [row for part in parts for row in json.loads(part.read_text("utf-8"))["docs"]]
    return [{"location": row[0], "title": row[1], "text": row[2]} for row in rows]


def search_files(search: Path) -> dict[str, bytes]:
    """Every file of a language's search folder (manifest, chunks, page parts, shards), by path:
    what two builds that search alike share byte for byte."""
    return {
        p.relative_to(search).as_posix(): p.read_bytes()
        for p in sorted(search.rglob("*"))
        if p.is_file()
    }


def check_search_indexes(site_dir: Path, games: list[Game]) -> None:
    """Each language has its own index, naming every game; in a language whose search does not
    split Chinese (no jieba), titles hold Chinese only where they quote a game's title in the
    root language."""
    site = site_of(site_dir)
    folders = tuple(folder for folder in prefixes(site).values() if folder)
    root_titles = {game.title.get(site.root_language.code) for game in games}
    for language in site.languages:
        lang, docs = language.code, search_docs(site_dir, language.code)
        assert docs, lang
        # Locations are relative to the language's root: none reaches into another language.
        assert not any(d["location"].startswith(folders) for d in docs), lang
        if not language.search.jieba:
            for doc in docs:
                if re.search(r"[\u4e00-\u9fff]", doc["title"]):
                    assert any(title in doc["title"] for title in root_titles), doc["title"]
        locations = {d["location"].split("#")[0] for d in docs}
        for game in games:
            prefix = f"games/{game.slug}/"  # locations are relative to the language's root
            assert any(location.startswith(prefix) for location in locations), (lang, game.slug)


# --- One tap to any ruling ------------------------------------------------------------------------


def _links(html: str, css_class: str | None = None) -> list[str]:
    """The href of every link in ``html`` (with ``css_class``, only those of that class)."""
    return [
        attrs["href"] or ""
        for tag, attrs in elements(html)
        if tag == "a"
        and "href" in attrs
        and (css_class is None or css_class in (attrs.get("class") or "").split())
    ]


def _section(html: str, anchor: str) -> str:
    """A page's HTML from the ``<h2>`` with id ``anchor`` to the next ``<h2>``."""
    match = re.search(rf'<h2 id="{re.escape(anchor)}".*?(?=<h2 |</article>)', html, re.S)
    assert match, anchor
    return match.group(0)


def check_jump_lists(site_dir: Path, game: Game, lang: str) -> None:
    """Rules and FAQ pages open with a list linking each section / question's anchor, in order
    (on the rules page, then the setup tables of their own and the glossary)."""
    rules = [s.id for s in game.rules] + [t.id for t in game.setup if not t.rule]
    rules += ["glossary"] if game.glossary else []
    for kind, ids in (("rules", rules), ("faq", [r.id for r in game.faq])):
        html = html_of(site_dir, lang, f"games/{game.slug}/{PAGES[kind]}")
        jump = re.search(r'<nav [^>]*class="rs-jump".*?</nav>', html, re.S)
        assert jump, (game.slug, kind, lang)
        assert _links(jump.group(0)) == [f"#{id}" for id in ids], (game.slug, kind, lang)
        assert all(f'<h2 id="{id}"' in html for id in ids), (game.slug, kind, lang)


def check_topic_links(site_dir: Path, game: Game, lang: str) -> None:
    """Each ruling's topic tags link to the topic's page, which lists that ruling."""
    page = f"games/{game.slug}/{PAGES['faq']}"
    faq = html_of(site_dir, lang, page)
    for ruling in game.faq:
        tags = [urljoin(page, href) for href in _links(_section(faq, ruling.id), "rs-tag")]
        assert tags == [f"topics/{tag}/" for tag in ruling.tags], (game.slug, ruling.id, lang)
        for tag in ruling.tags:
            topic = f"topics/{tag}/"
            listed = [urljoin(topic, href) for href in _links(html_of(site_dir, lang, topic))]
            assert f"{page}#{ruling.id}" in listed, (game.slug, ruling.id, tag, lang)


def check_topic_index(site_dir: Path, games: list[Game], lang: str) -> None:
    """The topic index links each topic's page; together the topics' pages list every tagged
    ruling, and nothing else."""
    html = html_of(site_dir, lang, "topics/")
    tagged = {tag for g in games for r in g.faq for tag in r.tags}
    pages = {urljoin("topics/", href) for href in _links(html)} & {
        f"topics/{tag}/" for tag in tagged
    }
    assert pages == {f"topics/{tag}/" for tag in tagged}, lang
    listed = set()
    for topic in pages:
        links = (urljoin(topic, href) for href in _links(html_of(site_dir, lang, topic)))
        listed |= {link for link in links if "/faq/#" in link}
    expected = {f"games/{g.slug}/{PAGES['faq']}#{r.id}" for g in games for r in g.faq if r.tags}
    assert listed == expected, lang


def check_games_index(site_dir: Path, games: list[Game], lang: str) -> None:
    """The games index: a row per game with its card's numbers as data (for the filters) and
    direct links to its rules, FAQ and, when it has one, calculator."""
    html = html_of(site_dir, lang, "games/")
    rows = {
        html_module.unescape(attrs.get("data-title") or ""): attrs
        for tag, attrs in elements(html)
        if tag == "tr" and "data-title" in attrs
    }
    assert len(rows) == len(games), lang
    for game in games:
        card, attrs = game.card, rows[game.title.get(lang)]
        assert [attrs[f"data-{name}"] for name in ("players-min", "players-max")] == [
            str(card.players.min),
            str(card.players.max),
        ]
        assert [attrs[f"data-{name}"] for name in ("time-min", "time-max", "weight")] == [
            str(card.play_time.min),
            str(card.play_time.max),
            str(card.weight),
        ]
        assert (attrs["data-mechanics"] or "").split() == list(card.mechanics)
        # The best counts, for "only games best at this count".
        assert [attrs["data-best-min"], attrs["data-best-max"]] == [
            str(card.best_players.min),
            str(card.best_players.max),
        ]
    for row in re.findall(r"<tr [^>]*data-title=.*?</tr>", html, re.S):
        game = next(g for g in games if f'href="{g.slug}/"' in row)
        assert _links(row) == [f"{game.slug}/{PAGES[kind]}" for kind in page_kinds(game)], lang


def check_ranges_unbroken(site_dir: Path, games: list[Game], lang: str) -> None:
    """Player counts and play times are single no-break spans wherever they are listed."""
    for path in ["", "games/", *(f"games/{game.slug}/" for game in games)]:
        html = html_of(site_dir, lang, path)
        for game in games if path in ("", "games/") else [g for g in games if g.slug in path]:
            for value in (game.card.players, game.card.play_time):
                assert f'<span class="rs-nowrap">{span(value)}</span>' in html, (path, lang)


def check_site(site_dir: Path, catalog: Catalog) -> None:
    """Every check above, on a site built from ``catalog``."""
    _SITES[site_dir.resolve()] = catalog.site
    for game in catalog.games:
        check_game(site_dir, catalog.site, game)
        for lang in catalog.site.codes:
            check_jump_lists(site_dir, game, lang)
            check_topic_links(site_dir, game, lang)
    for lang in catalog.site.codes:
        check_topic_index(site_dir, catalog.games, lang)
        check_games_index(site_dir, catalog.games, lang)
        check_ranges_unbroken(site_dir, catalog.games, lang)
    for lang in site_of(site_dir).codes:
        check_home(site_dir, catalog.games, lang)
        for game in catalog.games:
            check_ruling_sources(site_dir, catalog, game, lang)
    check_language_switch(site_dir, catalog.games)
    check_no_other_host(site_dir)
    check_search_indexes(site_dir, catalog.games)
