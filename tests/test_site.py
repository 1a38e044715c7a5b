"""The built site (a real strict MkDocs build of the real data): pages, languages, links, hosts."""

from __future__ import annotations

import hashlib
import html as html_module
import re
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from rulesite.build import build
from rulesite.errors import DataError
from rulesite.project import Project
from tests.helpers import good_game_text, make_project

GAMES = ["nations", "clans-of-caledonia", "its-a-wonderful-world"]
PAGES = {"overview": "", "rules": "rules/", "faq": "faq/"}
LANGS = {"zh": "", "en": "en/"}

# Every parameter value the seed pages give (../shared/seeds), card order: rank, weight,
# best players, players, minutes, year, age.
SEED_CARDS = {
    "nations": ["#276", "3.54 / 5", "3–4", "1–5", "40–200", "2013", "14+"],
    "clans-of-caledonia": ["#78", "3.47 / 5", "4", "1–4", "30–120", "2017", "12+"],
    "its-a-wonderful-world": ["#188", "2.32 / 5", "4", "1–5", "45", "2019", "14+"],
}
SEED_MECHANICS = {
    "nations": "Contracts · End Game Bonuses · Events · Hidden Victory Points · Income · Open "
    "Drafting · Tags · Turn Order: Stat-Based · Variable Player Powers · Variable Set-up · "
    "Worker Placement",
    "clans-of-caledonia": "Commodity Speculation · Contracts · Hexagon Grid · Income · Market · "
    "Modular Board · Network and Route Building · Solo / Solitaire Game · Turn Order: Pass Order "
    "· Variable Player Powers",
    "its-a-wonderful-world": "Closed Drafting · End Game Bonuses · Hand Management · Income · Set "
    "Collection · Simultaneous Action Selection · Solo / Solitaire Game · Variable Player Powers",
}
SEED_STATUS = {
    "zh": ["未确认", "暂未确认 WANGO 试玩"],
    "en": ["Not confirmed", "Not confirmed on WANGO"],
}
SEED_TITLES = {
    "nations": {"zh": "Nations", "en": "Nations"},
    "clans-of-caledonia": {"zh": "加勒多尼亞", "en": "Clans of Caledonia"},
    "its-a-wonderful-world": {"zh": "美丽新世界", "en": "It's a Wonderful World"},
}


def html_of(site_dir: Path, lang: str, path: str) -> str:
    return (site_dir / LANGS[lang] / path / "index.html").read_text(encoding="utf-8")


def all_pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", PAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_every_game_page_exists_with_lang_and_title(site_dir, slug, kind, lang) -> None:
    html = html_of(site_dir, lang, f"games/{slug}/{PAGES[kind]}")
    assert f'<html lang="{lang}"' in html
    title = html_module.unescape(re.search(r"<title>(.*?)</title>", html).group(1))
    assert SEED_TITLES[slug][lang] in title
    assert ("桌游规则速查" if lang == "zh" else "Rulesite") in title


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_overview_card_carries_every_seed_parameter(site_dir, slug, lang) -> None:
    html = html_of(site_dir, lang, f"games/{slug}/")
    card = re.search(r'<section [^>]*class="rs-card".*?</section>', html, re.S).group(0)
    values = [re.sub(r"<[^>]+>", "", v).strip() for v in re.findall(r"<dd>(.*?)</dd>", card, re.S)]
    assert values[:7] == SEED_CARDS[slug]
    assert values[7:9] == SEED_STATUS[lang]
    for mechanic in SEED_MECHANICS[slug].split(" · "):
        assert f">{mechanic}<" in card.replace("&amp;", "&"), mechanic
    assert "2026-09-27" in card
    assert ("快照" if lang == "zh" else "snapshot") in card


@pytest.mark.parametrize("lang", LANGS)
def test_home_lists_every_game_as_a_card(site_dir, lang) -> None:
    html = html_of(site_dir, lang, "")
    for slug in GAMES:
        assert f'href="games/{slug}/"' in html
        assert SEED_TITLES[slug][lang] in html_module.unescape(html)
    assert html.count('class="grid cards') == 1
    cards = re.search(r'class="grid cards[^"]*">\s*<ul>(.*?)</ul>', html, re.S).group(1)
    assert cards.count("<li>") == len(GAMES)  # one card per game, none run together


def test_rulings_keep_their_anchors_in_both_languages(site_dir) -> None:
    for slug in GAMES:
        zh = set(
            re.findall(r'<h2 id="([a-z0-9-]+)"', html_of(site_dir, "zh", f"games/{slug}/faq/"))
        )
        en = set(
            re.findall(r'<h2 id="([a-z0-9-]+)"', html_of(site_dir, "en", f"games/{slug}/faq/"))
        )
        assert zh == en and len(zh) >= 5


def test_every_language_switch_target_exists(site_dir) -> None:
    checked = 0
    for page in all_pages(site_dir):
        if page.name == "404.html":
            continue
        html = page.read_text(encoding="utf-8")
        links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)" class="md-select__link">', html)
        assert {lang for _, lang in links} == {"zh", "en"}, page
        for href, lang in links:
            target = (page.parent / href).resolve() / "index.html"
            assert target.exists(), f"{page}: {href}"
            assert f'<html lang="{lang}"' in target.read_text(encoding="utf-8")
            assert page.relative_to(site_dir).as_posix().removeprefix("en/") == (
                target.relative_to(site_dir.resolve()).as_posix().removeprefix("en/")
            )
            checked += 1
    assert checked >= 2 * 22


def test_nothing_is_loaded_from_another_host(site_dir) -> None:
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


def test_each_language_has_its_own_search_index(site_dir) -> None:
    import json

    zh = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    en = json.loads((site_dir / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert zh["docs"] and en["docs"]
    assert not any(d["location"].startswith("en/") for d in zh["docs"])
    assert any("战争\u200b强度" in d["text"] or "战争强度" in d["text"] for d in zh["docs"])
    assert all(
        re.search(r"[\u4e00-\u9fff]", d["title"]) is None
        or "加勒多尼亞" in d["title"]
        or "美丽新世界" in d["title"]
        for d in en["docs"]
    )


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_two_builds_are_identical(real_project: Project, tmp_path) -> None:
    again = tmp_path / "again"
    build(real_project, site_dir=again)
    assert tree_digest(again) == tree_digest(real_project.site_dir)


def test_works_under_any_site_url(real_project: Project, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RULESITE_SITE_URL", "https://example.org/boardgames/rules/")
    out = tmp_path / "sub"
    build(real_project, site_dir=out)
    html = (out / "en" / "games" / "nations" / "faq" / "index.html").read_text(encoding="utf-8")
    assert (
        'rel="canonical" href="https://example.org/boardgames/rules/en/games/nations/faq/"' in html
    )
    assert 'href="../../../assets/' in html  # pages link to their language's assets relatively


def test_bad_data_leaves_the_previous_site_untouched(tmp_path) -> None:
    project = Project(make_project(tmp_path / "p"))
    build(project)
    before = tree_digest(project.site_dir)
    content_before = tree_digest(project.content_dir)
    broken = good_game_text().replace("bgg_rank: 9999", "bgg_rank: lots")
    (project.games_dir / "mini-game.yaml").write_text(broken, encoding="utf-8")
    with pytest.raises(DataError):
        build(project)
    assert tree_digest(project.site_dir) == before
    assert tree_digest(project.content_dir) == content_before
    assert not list(project.root.glob(".rulesite-*"))


def test_relative_link_in_data_is_refused_naming_file_and_line(tmp_path) -> None:
    # A link from data text is raw HTML to MkDocs, so MkDocs could neither check nor rewrite it:
    # validation refuses it instead, before anything is built.
    text = good_game_text().replace(
        "en: Each player takes 5 cards.",
        "en: Each player takes 5 cards (see [tie](faq.md#no-such-ruling)).",
    )
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": text}))
    with pytest.raises(DataError) as caught:
        build(project)
    line = text.splitlines().index("    body:") + 3  # the en line of the first rule body (1-based)
    assert caught.value.lines() == [
        f"data/games/mini-game.yaml:{line}: rules[0].body.en: link or image "
        "'faq.md#no-such-ruling': texts may only link to http:// or https:// addresses and "
        "show no images (link rule sections with a ruling's `rules:`)"
    ]
    assert not project.site_dir.exists()


def test_canonical_links_resolve(site_dir) -> None:
    html = html_of(site_dir, "en", "games/nations/rules/")
    canonical = re.search(r'rel="canonical" href="([^"]+)"', html).group(1)
    assert urljoin(canonical, "../faq/").endswith("/en/games/nations/faq/")
