"""Search that scales: the index split (search_split.py), the plugin's part in it, and its size.

The browser side (a game's shard merged in on its pages, nowhere else) is in test_browser.py.
"""

from __future__ import annotations

import gzip
import json
import logging
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from bench import corpus
from rulesite import search_split
from rulesite.build import build
from rulesite.mkdocs_project import language_projects, site_path
from rulesite.plugin import RulesitePlugin
from rulesite.project import Project
from rulesite.validate import load_site
from tests.helpers import REPO

SITE = load_site(Project(REPO))
LANGUAGES = SITE.codes
"""The real site's language codes (``languages:`` in data/site.yaml)."""
CONFIG = {"lang": ["en", "zh"], "separator": "[\\s\\u200b]+", "pipeline": ["stemmer"]}


def doc(location: str, title: str = "T", text: str = "body") -> dict[str, Any]:
    return {"location": location, "title": title, "text": text}


def put_back(split: search_split.SplitIndex) -> list[dict[str, Any]]:
    """The site-level documents with every game's shortened ones replaced by its shard's, in
    place: what every game page's merge together would give."""
    whole = [d for shard in split.shards.values() for d in shard["docs"]]
    by_location = {d["location"]: d for d in whole}
    assert len(by_location) == len(whole), "a location in two shards"
    shortened = [d for d in split.site["docs"] if d["location"] in by_location]
    assert len(shortened) == len(whole), "a shard document without its site-level entry"
    return [by_location.get(d["location"], d) for d in split.site["docs"]]


def gzipped(data: dict[str, Any]) -> int:
    return len(gzip.compress(search_split.dump(data), compresslevel=9, mtime=0))


# --- the split, without MkDocs ---------------------------------------------------------------


SMALL = {
    "config": CONFIG,
    "docs": [
        doc("", "Home", "<p>every game</p>"),
        doc("games/", "All games", "<p>a table</p>"),
        doc("games/nations/", "Nations", "<p>overview</p>"),
        doc("games/nations/#card", "Card", "<p>\u200b战争强度\u200b与\u200b军力\u200b</p>"),
        doc(
            "games/nations/faq/#war", "War \u200b强度\u200b？", "\u200b战争强度" * 2 + "\u200b强度"
        ),
        doc("games/clans/", "Clans", "<p>\u200b合约\u200b</p>"),
    ],
}
WORDS = ["战争强度", "合约", "强度", "不在"]


def test_pages_outside_games_stay_whole_and_game_documents_go_to_their_shard() -> None:
    split = search_split.split_index(SMALL, WORDS)
    assert split.site["config"] == CONFIG
    assert [d["location"] for d in split.site["docs"]] == [d["location"] for d in SMALL["docs"]]
    assert split.site["docs"][:2] == SMALL["docs"][:2]
    assert list(split.shards) == ["clans", "nations"]
    assert split.shards["nations"]["docs"] == SMALL["docs"][2:5]
    assert split.shards["clans"]["docs"] == SMALL["docs"][5:]
    assert put_back(split) == SMALL["docs"]


def test_game_documents_keep_their_title_and_the_dictionary_words_the_title_lacks() -> None:
    site = search_split.split_index(SMALL, WORDS).site["docs"]
    assert [(d["title"], d["text"]) for d in site[2:]] == [
        ("Nations", ""),
        ("Card", "战争强度"),
        ("War \u200b强度\u200b？", "战争强度"),  # once; 强度 is in the title already
        ("Clans", "合约"),
    ]
    # No dictionary (English): titles only.
    assert {d["text"] for d in search_split.split_index(SMALL).site["docs"][2:]} == {""}


def test_every_game_named_gets_a_shard_even_without_documents() -> None:
    split = search_split.split_index(SMALL, WORDS, games={"quiet", "nations"})
    assert split.shards["quiet"] == {"docs": []}
    assert list(split.shards) == sorted(split.shards)


def test_only_game_pages_belong_to_a_game() -> None:
    assert search_split.game_of("games/nations/faq/#war") == "nations"
    assert search_split.game_of("games/nations/score.html") == "nations"
    assert search_split.game_of("games/") is None
    assert search_split.game_of("games/#list") is None
    assert search_split.game_of("en/games/nations/") is None  # a language's own root only
    assert search_split.shard_path("nations") == "search/shards/nations.json"


def test_written_files_are_byte_reproducible_and_replace_old_shards(tmp_path: Path) -> None:
    search = tmp_path / "search"
    (search / "shards").mkdir(parents=True)
    (search / "shards" / "gone.json").write_text("{}", encoding="utf-8")
    split = search_split.split_index(SMALL, WORDS)
    search_split.write_split(search, split)
    first = {p.name: p.read_bytes() for p in sorted(search.rglob("*.json"))}
    assert sorted(first) == ["clans.json", "nations.json", "search_index.json"]
    search_split.write_split(search, search_split.split_index(SMALL, list(reversed(WORDS))))
    assert {p.name: p.read_bytes() for p in sorted(search.rglob("*.json"))} == first
    text = first["search_index.json"].decode("utf-8")
    assert "战争强度" in text and "\n" not in text  # UTF-8 as it is, one line
    assert json.loads(text) == split.site


def test_words_come_from_the_jieba_dictionary(tmp_path: Path) -> None:
    terms = tmp_path / "terms.txt"
    terms.write_text("战争强度 100000\n\n合约 3 n\n", encoding="utf-8")
    assert search_split.read_words(terms) == ["战争强度", "合约"]


# --- the plugin --------------------------------------------------------------------------------


def plugin_with(options: dict[str, Any], tmp_path: Path) -> RulesitePlugin:
    plugin = RulesitePlugin()
    errors, warnings = plugin.load_config(options, str(tmp_path / "mkdocs.yml"))
    assert errors == [] and warnings == []
    return plugin


def context_of(plugin: RulesitePlugin, url: str) -> dict[str, Any]:
    return plugin.on_page_context({}, page=SimpleNamespace(url=url), config={}, nav=None)


def test_game_pages_name_their_shard_for_the_theme(tmp_path: Path) -> None:
    plugin = plugin_with({"split_search": True}, tmp_path)
    plugin.on_pre_build(config={})
    assert context_of(plugin, "games/nations/faq/") == {
        "rulesite_search_shard": "search/shards/nations.json"
    }
    assert context_of(plugin, "") == {"rulesite_search_shard": None}
    assert context_of(plugin, "games/") == {"rulesite_search_shard": None}
    assert context_of(plugin_with({}, tmp_path), "games/nations/") == {}  # off by default


def test_the_plugin_splits_after_material_wrote_the_index(tmp_path: Path) -> None:
    (tmp_path / "terms.txt").write_text("战争强度 100000\n", encoding="utf-8")
    plugin = plugin_with({"split_search": True, "search_terms": "terms.txt"}, tmp_path)
    # Material's search plugin writes the index in on_post_build at the default priority 0.
    assert plugin.on_post_build.mkdocs_priority < 0
    plugin.on_pre_build(config={})
    for url in ("", "games/nations/", "games/quiet/"):
        context_of(plugin, url)
    (tmp_path / "site" / "search").mkdir(parents=True)
    (tmp_path / "site" / "search" / "search_index.json").write_text(json.dumps(SMALL), "utf-8")
    plugin.on_post_build(config=SimpleNamespace(site_dir=str(tmp_path / "site")))
    search = tmp_path / "site" / "search"
    assert sorted(p.name for p in (search / "shards").iterdir()) == [
        "clans.json",
        "nations.json",
        "quiet.json",
    ]
    site = json.loads((search / "search_index.json").read_text("utf-8"))
    assert site == search_split.split_index(SMALL, ["战争强度"]).site


def test_without_the_option_the_index_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(SMALL), "utf-8")
    plugin_with({}, tmp_path).on_post_build(config=SimpleNamespace(site_dir=str(tmp_path)))
    assert json.loads((tmp_path / "search" / "search_index.json").read_text("utf-8")) == SMALL
    assert not (tmp_path / "search" / "shards").exists()


def test_no_index_to_split_is_a_warning(tmp_path: Path, caplog) -> None:
    plugin = plugin_with({"split_search": True}, tmp_path)
    with caplog.at_level(logging.WARNING):
        plugin.on_post_build(config=SimpleNamespace(site_dir=str(tmp_path)))
    assert "is the search plugin on?" in caplog.text


def test_the_option_is_typed(tmp_path: Path) -> None:
    errors, _ = RulesitePlugin().load_config({"split_search": "yes"}, str(tmp_path / "m.yml"))
    assert errors and "split_search" in str(errors[0][0])


# --- real builds -------------------------------------------------------------------------------


def language_root(site_dir: Path, lang: str) -> Path:
    return site_dir / site_path(SITE.language(lang))


def read_split(site_dir: Path, lang: str) -> search_split.SplitIndex:
    search = language_root(site_dir, lang) / "search"
    shards = {
        p.stem: json.loads(p.read_text("utf-8")) for p in sorted((search / "shards").glob("*.json"))
    }
    return search_split.SplitIndex(
        json.loads((search / "search_index.json").read_text("utf-8")), shards
    )


def unsplit_index(project: Project, lang: str, out: Path) -> dict[str, Any]:
    """Material's own index: the generated project built as it is, but with split_search off."""
    languages = language_projects(project.content_dir, load_site(project))
    language = next(p for p in languages if p.lang == lang)
    config = yaml.safe_load(language.config_file.read_text("utf-8"))
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "rulesite" in plugin:
            plugin["rulesite"]["split_search"] = False
    unsplit = language.root / "unsplit.yml"  # beside it: paths in it are relative to it
    unsplit.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(unsplit), "-d", str(out)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    finally:
        unsplit.unlink()
    assert result.returncode == 0, result.stderr
    assert not (out / "search" / "shards").exists()
    return json.loads((out / "search" / "search_index.json").read_text("utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_split_is_complete(real_project: Project, tmp_path: Path, lang: str) -> None:
    original = unsplit_index(real_project, lang, tmp_path / "unsplit")
    locations = [d["location"] for d in original["docs"]]
    assert len(set(locations)) == len(locations)  # what the browser's merge relies on
    split = read_split(real_project.site_dir, lang)
    games = sorted(p.stem for p in (real_project.root / "data" / "games").glob("*.yaml"))
    assert list(split.shards) == games
    assert split.site["config"] == original["config"]
    # Every document is in the site-level index; a game's are whole in its shard only.
    assert put_back(split) == original["docs"]
    for slug, shard in split.shards.items():
        assert shard["docs"] and all(
            search_split.game_of(d["location"]) == slug for d in shard["docs"]
        )
    shortened = [d for d in split.site["docs"] if search_split.game_of(d["location"])]
    assert sum(len(d["text"]) for d in shortened) * 10 < sum(
        len(d["text"]) for d in original["docs"] if search_split.game_of(d["location"])
    )


def test_chinese_site_level_text_is_dictionary_words(real_project: Project) -> None:
    words = set(
        search_split.read_words(
            language_projects(real_project.content_dir, SITE)[0].root / "search-terms.txt"
        )
    )
    site = read_split(real_project.site_dir, LANGUAGES[0]).site["docs"]
    found = [w for d in site if search_split.game_of(d["location"]) for w in d["text"].split()]
    assert found and set(found) <= words


def test_first_search_at_30_games_is_a_fraction_of_the_whole_index(tmp_path: Path) -> None:
    project = corpus.write_project(tmp_path / "project", 30)
    build(project)
    for lang in LANGUAGES:
        split = read_split(project.site_dir, lang)
        assert len(split.shards) == 30
        whole = gzipped({**split.site, "docs": put_back(split)})
        site = gzipped(split.site)
        first = site + max(gzipped(shard) for shard in split.shards.values())
        # The first search on a game page: the site-level index and that game's shard.
        assert first * 3 < whole, (lang, first, whole)
        # Within the 300 KB-at-100-games budget, per game.
        assert site < 300_000 * 30 / 100, (lang, site)
