"""Offline and installable, in the built files: manifests, icons, the worker and its file lists;
and the site's address: canonical links and the sitemap only when it is configured.

The browser side (a game read with no network, updates) is tests/test_offline_browser.py.
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin, urlparse

import pytest

from rulesite.engine import offline
from tests.helpers import REPO, SITE_URL, elements
from tests.site_checks import LANGS, REAL_SITE, all_pages, game_page_paths, html_of, page_paths
from tests.test_site import CATALOG

LANGUAGES = {language.code: language for language in REAL_SITE.languages}
REQUIRED = ("name", "short_name", "lang", "start_url", "scope", "display", "icons")
"""Members an installable manifest needs (Chromium's install criteria, and the brief)."""


def language_root(site_dir: Path, lang: str) -> Path:
    return site_dir / LANGS[lang]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_each_language_has_an_installable_manifest(site_dir: Path, lang: str) -> None:
    root = language_root(site_dir, lang)
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    assert all(manifest.get(key) for key in REQUIRED), manifest
    assert manifest["name"] == manifest["short_name"] == LANGUAGES[lang].site_name
    assert manifest["lang"] == LANGUAGES[lang].html_lang
    # Relative: the site installs from any sub-path, and each language is its own app.
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        path = root / icon["src"]
        width, height = png_size(path)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png", icon
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]


def test_manifest_colours_are_the_themes() -> None:
    css = (REPO / "templates/theme/assets/rulesite.css").read_text(encoding="utf-8")
    primary = re.search(r"--md-primary-fg-color:\s*(#[0-9a-fA-F]{6});", css).group(1)
    assert primary.lower() == offline.THEME_COLOUR
    main = (REPO / "templates/theme/main.html").read_text(encoding="utf-8")
    assert f'<meta name="theme-color" content="{offline.THEME_COLOUR}">' in main


def test_every_page_links_its_languages_manifest_and_worker(site_dir: Path) -> None:
    checked = 0
    for lang, prefix in LANGS.items():
        for path in page_paths(CATALOG.games):
            page = f"{prefix}{path}"
            found = elements(html_of(site_dir, lang, path))
            manifests = [
                a["href"] for tag, a in found if tag == "link" and a.get("rel") == "manifest"
            ]
            assert [urljoin(page, href) for href in manifests] == [f"{prefix}manifest.json"], page
            scripts = [a for tag, a in found if tag == "script" and "data-worker" in a]
            assert len(scripts) == 1, page
            assert urljoin(page, scripts[0]["data-worker"]) == f"{prefix}sw.js", page
            game = path.split("/")[1] if path.startswith("games/") and path != "games/" else None
            assert scripts[0].get("data-game") == game, page
            checked += 1
    assert checked == len(LANGS) * len(page_paths(CATALOG.games))


def test_the_404_page_links_no_manifest(site_dir: Path) -> None:
    # Served at any address, it would name a manifest that is not there.
    assert 'rel="manifest"' not in (site_dir / "404.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_each_games_offline_list_holds_its_pages_and_what_they_load(
    site_dir: Path, lang: str
) -> None:
    root = language_root(site_dir, lang)
    lists = json.loads((root / "offline.json").read_text(encoding="utf-8"))
    assert sorted(lists["games"]) == sorted(game.slug for game in CATALOG.games)
    for game in CATALOG.games:
        files = set(lists["shared"]) | set(lists["games"][game.slug])
        assert set(game_page_paths(game)) <= files, game.slug
        assert {f"search/shards/{game.slug}.json", "search/search_index.json"} <= files
        assert {"manifest.json", "assets/sw-register.js", "assets/calculator.js"} <= files
        for path in game_page_paths(game):
            config = re.search(
                r'<script id="__config" type="application/json">(.*?)</script>',
                html_of(site_dir, lang, path),
            )
            worker = urlparse(urljoin(f"/{path}", json.loads(config.group(1))["search"])).path
            assert worker.lstrip("/") in files  # Material's search worker, and what it loads:
        assert any(name.endswith("lunr.stemmer.support.min.js") for name in files)
        other_games = {g.slug for g in CATALOG.games} - {game.slug}
        for name in files:
            assert not name.startswith(("/", "..")) and "://" not in name, name
            assert not any(f"/{slug}/" in name or f"/{slug}." in name for slug in other_games)
            assert (root / name).is_file() or (root / name / "index.html").is_file(), name
            assert not any(name.startswith(p) for p in LANGS.values() if p), name


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_site_wide_pages_and_every_games_title_are_listed(site_dir: Path, lang: str) -> None:
    root = language_root(site_dir, lang)
    lists = json.loads((root / "offline.json").read_text(encoding="utf-8"))
    site = set(lists["site"])
    # Stored at the first visit: home, games index, glossary, topics, the offline page, the
    # site-level search index and what the pages load.
    assert {"./", "games/", "glossary/", "topics/", "offline.html"} <= site
    assert {"search/search_index.json", "assets/offline-save.js", "manifest.json"} <= site
    for name in site:
        assert not name.startswith(("/", "..")) and "://" not in name, name
        assert (root / name).is_file() or (root / name / "index.html").is_file(), name
        assert not any(name.startswith(p) for p in LANGS.values() if p), name
        assert not name.startswith("games/") or name == "games/", name  # no game's own page
    # What the offline page and the saved-games lists show of each game.
    assert lists["about"] == {
        game.slug: {"title": game.title.get(lang), "url": f"games/{game.slug}/"}
        for game in CATALOG.games
    }


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_worker_has_its_settings_and_the_offline_page_its_wording(
    site_dir: Path, lang: str
) -> None:
    root = language_root(site_dir, lang)
    worker = (root / "sw.js").read_text(encoding="utf-8")
    assert "__RULESITE_OFFLINE__" not in worker
    settings = json.loads(re.search(r"const SETTINGS = (\{.*\});", worker).group(1))
    assert re.fullmatch(r"[0-9a-f]{16}", settings["build"])
    assert (root / settings["offline"]).is_file() and (root / settings["lists"]).is_file()
    # The root language's worker leaves the other languages' sites (under its scope) alone.
    others = sorted(p for code, p in LANGS.items() if p and code != lang)
    assert settings["skip"] == (others if LANGS[lang] == "" else [])
    # Every language's root from this one: a saved game is stored in all of them.
    roots = [urljoin(f"/{LANGS[lang]}", f"/{p}") for p in LANGS.values()]
    assert sorted(urljoin(f"/{LANGS[lang]}", r) for r in settings["languages"]) == sorted(roots)
    page = (root / settings["offline"]).read_text(encoding="utf-8")
    assert f'<html lang="{LANGUAGES[lang].html_lang}">' in page
    for key in offline_label_keys():
        text = REAL_SITE.labels[key].get(lang)
        assert f">{text}<" in page, key
    # Shown at any address: it loads nothing, so nothing relative can break.
    assert not re.search(r"<(?:script|img)\b|<link(?![^>]*href=\"data:)", page)


def offline_label_keys() -> list[str]:
    return [f"offline_{name}" for name in ("title", "text", "retry")]


def test_languages_have_workers_of_their_own(site_dir: Path) -> None:
    builds = {
        lang: re.search(r'"build": "(\w+)"', (language_root(site_dir, lang) / "sw.js").read_text())
        for lang in LANGS
    }
    assert len({match.group(1) for match in builds.values()}) == len(LANGS)


def fake_config(project: Path, site: Path) -> SimpleNamespace:
    return SimpleNamespace(config_file_path=str(project / "mkdocs.yml"), site_dir=str(site))


def test_the_build_id_follows_what_the_site_is_built_from(tmp_path: Path) -> None:
    project = tmp_path / "content" / "en"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n")
    (project / "docs" / "index.md").write_text("# One\n")
    site = project / "site"  # MkDocs' default place, inside the project: left out
    site.mkdir()
    config = fake_config(project, site)
    first = offline.build_id(config)
    (site / "index.html").write_text("built")
    assert offline.build_id(config) == first
    (project / "docs" / "index.md").write_text("# Two\n")
    assert offline.build_id(config) != first


def test_the_build_id_reads_linked_files_where_they_really_are(tmp_path: Path) -> None:
    project, site, elsewhere = tmp_path / "project", tmp_path / "project" / "site", tmp_path / "x"
    for folder in (project / "docs" / "__pycache__", site, elsewhere / "more"):
        folder.mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n")
    (site / "built.html").write_text("built")
    (elsewhere / "page.md").write_text("# Shared\n")
    (elsewhere / "more" / "deep.md").write_text("# Deep\n")
    (project / "docs" / "into-site.md").symlink_to(site / "built.html")
    (project / "docs" / "shared.md").symlink_to(elsewhere / "page.md")
    (project / "docs" / "folder").symlink_to(elsewhere / "more", target_is_directory=True)
    config = fake_config(project, site)
    first = offline.build_id(config)
    (site / "built.html").write_text("built again")  # in the site, through a link: left out
    (project / "docs" / "__pycache__" / "a.pyc").write_bytes(b"\0")  # compiled code: left out
    (elsewhere / "more" / "deep.md").write_text("# Deeper\n")  # a linked folder: not read
    assert offline.build_id(config) == first
    (elsewhere / "page.md").write_text("# Changed\n")  # a linked file is read where it is
    assert offline.build_id(config) != first


def test_page_resources_are_this_sites_own_files() -> None:
    html = (
        '<link rel="stylesheet" href="../../assets/a.css">'
        '<link rel="canonical" href="https://example.org/games/x/">'
        '<link rel="icon" href="//cdn.example/i.png">'
        '<link rel="alternate" href="/feed.xml">'
        '<script src="../../../outside.js"></script>'
        '<script src="../../assets/b.js?v=1#x" data-shard="../../search/shards/x.json"></script>'
        '<a href="../../assets/not-loaded.js">'
    )
    assert offline.page_resources(html, "games/x") == {
        "assets/a.css",
        "assets/b.js",
        "search/shards/x.json",
    }


# The site's address: without one, no canonical link or sitemap claims a host.


def test_without_a_site_url_no_page_claims_an_address(site_dir: Path) -> None:
    for page in all_pages(site_dir):
        head = page.read_text(encoding="utf-8").split("</head>", 1)[0]
        assert 'rel="canonical"' not in head and "og:url" not in head, page
        assert "rulesite.example" not in head, page
    for prefix in LANGS.values():
        # Written (Material's script requests it on every page) but listing no address.
        sitemap = (site_dir / prefix / "sitemap.xml").read_text(encoding="utf-8")
        assert "<urlset" in sitemap and "<loc>" not in sitemap, prefix


def test_with_a_site_url_the_sitemaps_list_its_addresses(addressed_site: Path) -> None:
    out = addressed_site  # the real project built with RULESITE_SITE_URL=SITE_URL
    for lang, prefix in LANGS.items():
        sitemap = (out / prefix / "sitemap.xml").read_text(encoding="utf-8")
        locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
        expected = {f"{SITE_URL}{prefix}{p}" for p in page_paths(CATALOG.games)}
        assert expected <= set(locations), lang
        path = page_paths(CATALOG.games)[-1]
        head = html_of(out, lang, path).split("</head>", 1)[0]
        canonical = f"{SITE_URL}{prefix}{path}"
        assert f'<link rel="canonical" href="{canonical}">' in head
        assert f'<meta property="og:url" content="{canonical}">' in head
        # The print footer names the page by its published address.
        rules = f"games/{CATALOG.games[0].slug}/rules/"
        footer = html_of(out, lang, rules).split('class="rs-print-footer"', 1)[1]
        address = f"{SITE_URL}{prefix}{rules}"
        assert f'<span class="rs-print-footer__address">{address}</span>' in footer


def test_the_plugin_writes_the_offline_files_only_when_asked(tmp_path: Path) -> None:
    from rulesite.engine.plugin import RulesitePlugin

    plugin = RulesitePlugin()
    errors, _ = plugin.load_config({"offline": "yes"}, str(tmp_path / "mkdocs.yml"))
    assert errors and "offline" in str(errors[0][0])
    plugin = RulesitePlugin()
    errors, _ = plugin.load_config({}, str(tmp_path / "mkdocs.yml"))
    assert not errors and plugin.config.offline is False
    plugin.on_post_build(config=SimpleNamespace(site_dir=str(tmp_path / "site")))
    assert not (tmp_path / "site").exists()


def test_build_notes_a_missing_site_url(tmp_path: Path, capsys, monkeypatch) -> None:
    from rulesite import cli
    from tests.projects import make_project

    project = make_project(tmp_path / "p")
    monkeypatch.delenv("RULESITE_SITE_URL", raising=False)
    assert cli.main(["--project", str(project), "build"]) == 0
    assert capsys.readouterr().err.splitlines()[-1:] == [
        "note: no site address (RULESITE_SITE_URL, or site_url in mkdocs.yml): the pages carry "
        "no canonical link and sitemap.xml lists no page; set it to the published address"
    ]
    monkeypatch.setenv("RULESITE_SITE_URL", "https://example.org/")
    assert cli.main(["--project", str(project), "build"]) == 0
    assert "site address" not in capsys.readouterr().err


def test_a_partial_build_keeps_the_lists_of_the_pages_it_did_not_write(tmp_path: Path) -> None:
    # A live preview rebuilds some games' pages into the folder of its last build: a game none
    # of whose pages was written keeps its list; a game written again gets a fresh one.
    pages = ["games/a/index.html", "games/b/index.html", "games/index.html", "index.html"]
    loads = {page: {"assets/one.js"} for page in pages}
    first = offline.game_files(offline.BuiltPages(pages, loads), ["manifest.json"])
    assert first == {
        "a": ["assets/one.js", "games/a/", "manifest.json"],
        "b": ["assets/one.js", "games/b/", "manifest.json"],
    }
    site = tmp_path / "site"
    site.mkdir()
    (site / offline.LISTS).write_text(json.dumps(offline.offline_lists(first)))
    again = offline.BuiltPages(
        [*pages, "games/a/faq/index.html"],  # a new page of a
        {"games/a/index.html": {"assets/two.js"}, "games/a/faq/index.html": {"assets/three.js"}},
    )
    lists = offline.game_files(again, ["manifest.json"], offline.previous_lists(site))
    assert lists["b"] == first["b"]
    assert lists["a"] == [
        "assets/three.js",
        "assets/two.js",
        "games/a/",
        "games/a/faq/",
        "manifest.json",
    ]
    # Without the earlier lists, a page not written adds only its folder.
    assert offline.game_files(again, ["manifest.json"])["b"] == ["games/b/", "manifest.json"]


def test_the_search_worker_is_materials_among_the_scripts() -> None:
    scripts = [
        "assets/javascripts/bundle.a5f9d56c.min.js",
        "assets/javascripts/workers/search.a7633da7.min.js",
        "assets/rulesite.js",
    ]
    assert offline.search_worker(scripts) == ["assets/javascripts/workers/search.a7633da7.min.js"]
