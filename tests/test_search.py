"""Search that scales: the prepared index and the game shards (search_split.py), the plugin's
part in the split, and its size.

The browser side (a game's shard merged in on its pages, nowhere else) is in test_browser.py.
"""

from __future__ import annotations

import gzip
import html
import json
import logging
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from bench import corpus
from rulesite.catalog import load_site
from rulesite.engine import plugin as plugin_module
from rulesite.engine import search_chunks, search_split
from rulesite.engine import search_words as glossary
from rulesite.engine.plugin import RulesitePlugin
from rulesite.engine.projects import language_projects, site_path
from rulesite.engine.search_words import GameWords, SearchWords, read_synonyms
from rulesite.pages import registry
from rulesite.project import Project
from rulesite.publish.build import build
from tests.projects import REAL

SITE = load_site(Project(REAL))
LANGUAGES = SITE.codes
"""The real site's language codes (``languages:`` in data/site.yaml)."""
CONFIG = {
    "lang": ["en", "zh"],
    "separator": "[\\s\\u200b]+",
    "pipeline": ["stopWordFilter"],
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1e6}},
}


def doc(location: str, title: str = "T", text: str = "body") -> dict[str, Any]:
    return {"location": location, "title": title, "text": text}


HIDDEN_FIELDS = (*search_split.WORDS_FIELD, search_split.RULING)
"""The fields the split adds: search words, never shown, and a shard's mark of a ruling."""


def without_hidden_fields(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.items() if k not in HIDDEN_FIELDS} for d in docs]


def gzipped(data: dict[str, Any]) -> int:
    return len(gzip.compress(search_split.dump(data), compresslevel=9, mtime=0))


def words_of(docs: list[dict[str, Any]], field: str = search_split.WORDS) -> dict[str, str]:
    return {d["location"]: d.get(field, "") for d in docs}


# --- the split, without MkDocs ---------------------------------------------------------------


ZWSP = "\u200b"
SMALL = {
    "config": CONFIG,
    "docs": [
        doc("", "Home", "<p>every game: 平手</p>"),
        doc("games/", "All games", "<p>a table</p>"),
        doc("games/legions/", "Legions", "<p>overview</p>"),
        doc("games/legions/#card", "Card", f"<p>{ZWSP}战争强度{ZWSP}与{ZWSP}军力{ZWSP}</p>"),
        doc("games/legions/faq/", "FAQ", ""),
        doc("games/legions/faq/#war", f"War{ZWSP}强度？", f"{ZWSP}平手{ZWSP}the General wins"),
        doc("games/clans/", "Clans", f"<p>{ZWSP}合约{ZWSP}</p>"),
        doc("games/clans/#ties", "Ties", f"<p>{ZWSP}平手{ZWSP}; the war strength holds</p>"),
    ],
}
WORDS = SearchWords(
    {
        "legions": GameWords(
            groups=[["战争强度", "战力"], ["General", "Generals"], ["平手", "平局"]],
            titles=["Legions", "国家"],
        ),
        "clans": GameWords(
            groups=[["平手", "平局", "并列"], ["war strength", "war strengths"]],
            titles=["Clans of Caledonia", "加勒多尼亞", "加勒多尼亚"],
        ),
    }
)


def shards_of(index: dict[str, Any], words: SearchWords | None = None, games=()) -> dict:
    return search_split.game_shards(search_split.prepare(index, words), games)


def test_pages_outside_games_get_no_shard_and_game_documents_go_to_their_shard() -> None:
    prepared = search_split.prepare(SMALL, WORDS)
    fields = {**CONFIG["fields"], **search_split.WORDS_FIELD}
    assert prepared.config == {**CONFIG, "fields": fields}
    assert prepared.docs[:2] == SMALL["docs"][:2]  # no words outside the games
    shards = search_split.game_shards(prepared)
    assert list(shards) == ["clans", "legions"]
    assert without_hidden_fields(shards["legions"]["docs"]) == SMALL["docs"][2:6]
    assert without_hidden_fields(shards["clans"]["docs"]) == SMALL["docs"][6:]


def test_game_documents_get_the_words_of_the_groups_they_use_and_the_games_titles() -> None:
    docs = search_split.prepare(SMALL, WORDS).docs
    assert [d["title"] for d in docs] == [d["title"] for d in SMALL["docs"]]
    assert words_of(docs[2:]) == {
        "games/legions/": "",
        "games/legions/#card": "战争强度 战力",  # the group of a word it uses
        "games/legions/faq/": "",
        # General is covered by Generals (searched as a prefix); its title has 强度.
        "games/legions/faq/#war": "平手 平局 generals",
        "games/clans/": "",
        "games/clans/#ties": "平手 平局 并列 war strengths",
    }
    # A game's overview is named by every title of the game.
    names = {k: v for k, v in words_of(docs, search_split.NAMES).items() if v}
    assert names == {
        "games/legions/": "legions 国家",
        "games/clans/": "clans of caledonia 加勒多尼亞 加勒多尼亚",
    }


def test_a_shards_pages_have_every_word_of_their_sections() -> None:
    shard = words_of(shards_of(SMALL, WORDS)["clans"]["docs"], search_split.SECTIONS)
    assert shard["games/clans/"] == "平局 并列 strengths ties 平手 the war holds"
    legions = words_of(shards_of(SMALL, WORDS)["legions"]["docs"], search_split.SECTIONS)
    assert legions["games/legions/faq/"] == "平局 generals war 强度 平手 the wins"


def test_a_shard_marks_its_rulings_for_offline_search() -> None:
    # The chunks mark a ruling in its postings; offline the worker reads the mark in the shard.
    shards = shards_of(SMALL, WORDS)
    marked = [d["location"] for s in shards.values() for d in s["docs"] if search_split.RULING in d]
    assert marked == ["games/legions/faq/#war"]


def test_a_shard_has_the_words_its_text_lacks() -> None:
    shards = shards_of(SMALL, WORDS)
    assert words_of(shards["clans"]["docs"])["games/clans/#ties"] == "平局 并列 strengths"
    assert words_of(shards["legions"]["docs"])["games/legions/faq/#war"] == "平局 generals"


def test_rule_sections_hold_the_words_of_the_terms_they_explain() -> None:
    words = SearchWords(
        {
            "legions": GameWords(
                groups=[["平手", "平局"]], titles=[], defined={"ties": ["平手", "平局"]}
            )
        }
    )
    index = {
        "config": CONFIG,
        "docs": [
            doc("games/legions/rules/", "Rules", ""),
            doc("games/legions/rules/#ties", "T", ""),
        ],
    }
    docs = search_split.prepare(index, words).docs
    assert words_of(docs, search_split.DEFINES)["games/legions/rules/#ties"] == "平手 平局"
    # Only on the rules page: a FAQ ruling with the same anchor is not the rule.
    index["docs"][1] = doc("games/legions/faq/#ties", "T", "")
    docs = search_split.prepare(index, words).docs
    assert words_of(docs, search_split.DEFINES)["games/legions/faq/#ties"] == ""


def test_each_game_has_its_own_synonyms() -> None:
    # 平手 means 平局 in both games, 并列 only in Clans; the home page gets no words.
    docs = search_split.prepare(SMALL, WORDS).docs
    assert "并列" not in " ".join(d.get("words", "") for d in docs if "legions" in d["location"])
    assert "words" not in docs[0]
    # No glossary words (a language without them, or a build without the file): titles only.
    plain = search_split.prepare(SMALL).docs
    assert words_of(plain)["games/legions/#card"] == ""
    shard = shards_of(SMALL)["legions"]["docs"]
    assert (
        words_of(shard, search_split.SECTIONS)["games/legions/faq/"]
        == "war 强度 平手 the general wins"
    )


def test_a_word_is_covered_by_a_longer_word_it_begins() -> None:
    assert search_split.uncovered(["general", "generals", "war", "平局"], ["warfare"]) == [
        "generals",
        "平局",
    ]
    assert search_split.uncovered(["tie", "tie"], []) == ["tie"]
    assert search_split.uncovered(["ties"], ["tie"]) == ["ties"]  # tie does not find ties' text


@pytest.mark.parametrize("seed", range(20))
def test_uncovered_keeps_the_missing_words_no_longer_word_begins(seed: int) -> None:
    """Against the definition, on random short words over a few letters (many prefixes of each
    other): in order, each once, not present, and begun by no other present or wanted word."""
    chance = random.Random(seed)
    letters = "ab平局"

    def words(count: int) -> list[str]:
        return ["".join(chance.choices(letters, k=chance.randint(1, 4))) for _ in range(count)]

    candidates, present = words(chance.randint(0, 30)), words(chance.randint(0, 30))
    every = set(candidates) | set(present)
    expected = [
        word
        for word in dict.fromkeys(candidates)
        if word not in present and not any(o != word and o.startswith(word) for o in every)
    ]
    assert search_split.uncovered(candidates, present) == expected


def test_every_game_named_gets_a_shard_even_without_documents() -> None:
    shards = shards_of(SMALL, WORDS, games={"quiet", "legions"})
    assert shards["quiet"] == {"docs": []}
    assert list(shards) == sorted(shards)


def test_only_game_pages_belong_to_a_game() -> None:
    assert search_split.game_of("games/legions/faq/#war") == "legions"
    assert search_split.game_of("games/legions/score.html") == "legions"
    assert search_split.game_of("games/") is None
    assert search_split.game_of("games/#list") is None
    assert search_split.game_of("en/games/legions/") is None  # a language's own root only
    assert search_split.shard_path("legions") == "search/shards/legions.json"


def test_written_shards_are_byte_reproducible_and_replace_old_ones(tmp_path: Path) -> None:
    search = tmp_path / "search"
    (search / "shards").mkdir(parents=True)
    (search / "shards" / "gone.json").write_text("{}", encoding="utf-8")
    shards = shards_of(SMALL, WORDS)
    search_split.write_shards(search, shards)
    first = {p.name: p.read_bytes() for p in sorted(search.rglob("*.json"))}
    assert sorted(first) == ["clans.json", "legions.json"]
    search_split.write_shards(search, shards_of(SMALL, WORDS))
    assert {p.name: p.read_bytes() for p in sorted(search.rglob("*.json"))} == first
    text = first["legions.json"].decode("utf-8")
    assert "战争强度" in text and "\n" not in text  # UTF-8 as it is, one line
    assert json.loads(text) == shards["legions"]


def test_synonyms_come_from_the_generated_file(tmp_path: Path) -> None:
    path = tmp_path / "search-synonyms.json"
    path.write_text(json.dumps(WORDS.to_json(), ensure_ascii=False), encoding="utf-8")
    assert read_synonyms(path) == WORDS
    path.write_text('{"games": []}', encoding="utf-8")
    with pytest.raises(ValueError, match="expected"):
        read_synonyms(path)


# --- the plugin --------------------------------------------------------------------------------


def plugin_with(options: dict[str, Any], tmp_path: Path) -> RulesitePlugin:
    plugin = RulesitePlugin()
    errors, warnings = plugin.load_config(options, str(tmp_path / "mkdocs.yml"))
    assert errors == [] and warnings == []
    return plugin


def context_of(plugin: RulesitePlugin, url: str) -> dict[str, Any]:
    page = SimpleNamespace(url=url, content="<p>text</p>", toc=[], meta={}, title="A page")
    return plugin.on_page_context({}, page=page, config={}, nav=None)


def test_game_pages_name_their_shard_for_the_theme(tmp_path: Path) -> None:
    plugin = plugin_with({"split_search": True}, tmp_path)
    plugin.on_pre_build(config={})
    assert context_of(plugin, "games/legions/faq/") == {
        "rulesite_search_chunks": True,
        "rulesite_search_shard": "search/shards/legions.json",
    }
    assert context_of(plugin, "") == {"rulesite_search_chunks": True, "rulesite_search_shard": None}
    assert context_of(plugin, "games/") == {
        "rulesite_search_chunks": True,
        "rulesite_search_shard": None,
    }
    off = context_of(plugin_with({}, tmp_path), "games/legions/")  # off by default
    assert off == {"rulesite_search_chunks": False}


def test_the_plugin_splits_after_material_wrote_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The index as Material's search plugin writes it when it indexes every page (the plugin's
    # own entries are Material's, tests/test_search_sections.py).
    monkeypatch.setattr(plugin_module, "OWN_SECTIONS", False)
    synonyms = tmp_path / "synonyms.json"
    synonyms.write_text(json.dumps(WORDS.to_json(), ensure_ascii=False), encoding="utf-8")
    plugin = plugin_with({"split_search": True, "search_synonyms": "synonyms.json"}, tmp_path)
    # Material's search plugin writes the index in on_post_build at the default priority 0.
    assert plugin.on_post_build.mkdocs_priority < 0
    plugin.on_pre_build(config={})
    # The build's pages (every one, written this time or not) give the games their shards.
    urls = ("", "games/legions/", "games/quiet/")
    pages = [SimpleNamespace(page=SimpleNamespace(url=u), dest_uri=f"{u}index.html") for u in urls]
    files = SimpleNamespace(documentation_pages=lambda: pages, javascript_files=lambda: [])
    plugin.on_env(None, config={}, files=files)
    for url in urls:
        context_of(plugin, url)
    (tmp_path / "site" / "search").mkdir(parents=True)
    (tmp_path / "site" / "search" / "search_index.json").write_text(json.dumps(SMALL), "utf-8")
    plugin.on_post_build(config=SimpleNamespace(site_dir=str(tmp_path / "site")))
    search = tmp_path / "site" / "search"
    assert sorted(p.name for p in (search / "shards").iterdir()) == [
        "clans.json",
        "legions.json",
        "quiet.json",
    ]
    # The shards are the split's; the index the theme loads is the chunked index's manifest.
    for slug, shard in shards_of(SMALL, WORDS, ["quiet"]).items():
        assert json.loads((search / "shards" / f"{slug}.json").read_text("utf-8")) == shard
    manifest = json.loads((search / "search_index.json").read_text("utf-8"))
    chunked = search_chunks.from_material(SMALL, "en", WORDS)
    assert manifest == chunked.manifest and manifest["docs"] == []
    assert sorted(search_chunks.files(chunked)) == sorted(
        str(p.relative_to(search)) for p in search.glob("*/*.json") if p.parent.name != "shards"
    )


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


def chunked_postings(search: Path) -> tuple[list[list[str]], dict[str, set[str]]]:
    """The documents of a language's chunked index (location, title, text, game) in index order,
    and each indexed word's documents (their locations), read from the written files."""
    manifest = json.loads((search / "search_index.json").read_text("utf-8"))
    part = manifest["config"]["rulesite"]["part"]
    pages: dict[int, list[list[str]]] = {}
    for path in search.glob(f"{search_chunks.PAGES_DIR}/*.json"):
        page, number = (int(n) for n in path.stem.split("-"))
        rows = json.loads(path.read_text("utf-8"))["docs"]
        pages.setdefault(page, [[]] * 0)
        pages[page] += [None] * max(0, number * part + len(rows) - len(pages[page]))
        pages[page][number * part : number * part + len(rows)] = rows
    docs = [row for page in sorted(pages) for row in pages[page]]
    found: dict[str, set[str]] = {}
    # Every chunk, reached as the worker reaches it: from the manifest's keys through the cut
    # chunks' children the manifest names (``cut``), which each of those chunks names too.
    cut = manifest["config"]["rulesite"]["cut"]
    pending = list(manifest["config"]["rulesite"]["chunks"])
    reached = set()
    while pending:
        key = pending.pop()
        reached.add(key)
        path = search / search_chunks.CHUNKS_DIR / search_chunks.chunk_file(key)
        chunk = json.loads(path.read_text("utf-8"))
        assert chunk.get("more") == cut.get(key), key
        pending += [key + char for char in cut.get(key, "")]
        for word, flat in chunk["words"].items():
            assert word.startswith(key), (key, word)
            page = 0
            for at in range(0, len(flat), 3):
                page += flat[at]
                section = flat[at + 1] if flat[at + 1] >= 0 else -1 - flat[at + 1]  # a ruling's
                found.setdefault(word, set()).add(pages[page][section][0])
    assert len(reached) == len(list((search / search_chunks.CHUNKS_DIR).glob("*.json")))
    return docs, found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_chunked_index_is_complete(real_project: Project, tmp_path: Path, lang: str) -> None:
    original = unsplit_index(real_project, lang, tmp_path / "unsplit")
    search = language_root(real_project.site_dir, lang) / "search"
    docs, found = chunked_postings(search)
    # Every document, in Material's order, shown with its plain title and text.
    assert [d[0] for d in docs] == [d["location"] for d in original["docs"]]
    assert [d[1] for d in docs] == [search_chunks.plain(d["title"]) for d in original["docs"]]
    assert all(row[2] or not d["text"] for row, d in zip(docs, original["docs"], strict=True))
    # Every word of every document finds it (but the stop words, and the glossary and topic
    # pages' texts, whose terms and questions are each game's).
    tokens = search_split.Tokenizer(original["config"]["separator"])
    stop = set(search_chunks.STOP_WORDS[lang.split("-")[0]])
    for d in original["docs"]:
        titles_only = registry.is_search_kind(d["location"], registry.Search.TITLES)
        text = d["title"] if titles_only else f"{d['title']} {d['text']}"
        for word in set(tokens.words(text)) - stop:
            assert d["location"] in found.get(word, ()), (d["location"], word)
    # The shards, which offline search reads, are the split's, one per game.
    games = sorted(p.stem for p in (real_project.root / "data" / "games").glob("*.yaml"))
    shards = sorted(p.stem for p in (search / "shards").glob("*.json"))
    assert shards == games


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_index_words_find_synonyms_and_titles(real_project: Project, lang: str) -> None:
    _, found = chunked_postings(language_root(real_project.site_dir, lang) / "search")
    words = glossary.read_synonyms(
        next(p for p in language_projects(real_project.content_dir, SITE) if p.lang == lang).root
        / glossary.SYNONYMS_FILE
    )

    def finds(word: str, location: str) -> bool:
        # A typed word is searched as itself and as the beginning of longer words.
        return any(location in where for w, where in found.items() if w.startswith(word))

    stop = set(search_chunks.STOP_WORDS[lang.split("-")[0]])
    for slug, game in words.games.items():
        for title in game.titles:
            for word in set(title.lower().split()) - stop:
                assert finds(word, f"games/{slug}/"), (slug, word)
        for rule, defined in game.defined.items():
            for word in " ".join(defined).lower().replace("-", " ").split():
                assert finds(word, f"games/{slug}/rules/#{rule}"), (slug, rule, word)
        # Every member of a synonym group finds the game's sections that use another member.
        own = f"games/{slug}/"
        for group in game.groups:
            members = [m.lower() for m in group if " " not in m and "-" not in m]
            users = {u for m in members for u in found.get(m, ()) if u.startswith(own)}
            for member in members:
                hits = {u for w, where in found.items() if w.startswith(member) for u in where}
                assert users <= hits, (slug, member)


def test_first_search_at_30_games_downloads_a_fraction_of_the_whole_index(tmp_path: Path) -> None:
    project = corpus.write_project(tmp_path / "project", 30)
    build(project)
    for lang in LANGUAGES:
        search = language_root(project.site_dir, lang) / "search"

        def sizes(folder: str, search: Path = search) -> list[int]:
            files = sorted((search / folder).glob("*.json"))
            return sorted(len(gzip.compress(p.read_bytes(), 9, mtime=0)) for p in files)

        manifest = len(gzip.compress((search / "search_index.json").read_bytes(), 9, mtime=0))
        chunks, parts = sizes(search_chunks.CHUNKS_DIR), sizes(search_chunks.PAGES_DIR)
        whole = sum(chunks) + sum(parts)
        # The most a query of four words can fetch: the manifest, the four largest chunks (and
        # two more each for words typed short), and the parts of ten pages.
        most = manifest + sum(chunks[-12:]) + sum(parts[-10:])
        assert most * 4 < whole, (lang, most, whole)
        assert most < 150_000, (lang, most)


def test_the_tokenizer_gives_each_piece_the_same_word_wherever_it_is() -> None:
    """Pieces are trimmed and lower-cased once (a cache): every text still gets the words a
    split of its own would give, punctuation-only pieces give none, and equal words are one
    string."""
    # The site's own separator (mkdocs.yml, which safe_load cannot read: its !ENV tags).
    separator = re.search(r"separator: '(.+)'", (REAL / "mkdocs.yml").read_text("utf-8"))[1]
    tokens = search_split.Tokenizer(separator)
    texts = ["《Nations》 it? IT", "it? «» Nations 3.5", "<b>General</b> &amp; generals …"]
    expected = [
        ("nations", "it", "it"),
        ("it", "nations", "3.5"),
        ("general", "generals"),
    ]
    for text, words in zip(texts, expected, strict=True):
        assert tokens.words(text) == words
        assert search_split.Tokenizer(separator).words(text) == words
    assert tokens.words(texts[0])[1] is tokens.words(texts[1])[0]


def test_a_warmed_tokenizer_is_taken_by_the_next_split_once_and_splits_the_same() -> None:
    """``warm_tokenizer`` splits texts ahead of a split (an incremental build's builder,
    ``publish/builders.py``): the next ``prepare`` with that separator takes that tokenizer,
    holding those texts' words, and prepares what a cold one does; the one after makes its own."""
    cold = search_split.prepare(SMALL, WORDS)
    texts = [d["text"] for d in SMALL["docs"][:3]]
    search_split.warm_tokenizer(texts, CONFIG["separator"])
    search_split.warm_tokenizer(["another separator's"], search_split.SEPARATOR)
    try:
        warm = search_split.prepare(SMALL, WORDS)
        assert all(text in warm.tokens._known for text in texts)
        assert warm.docs == cold.docs and warm.config == cold.config
        assert search_split.prepare(SMALL, WORDS).tokens is not warm.tokens
        assert search_split.SEPARATOR in search_split._WARMED  # not this index's: left alone
    finally:
        search_split._WARMED.clear()


EDGE_TEXTS = [
    "fooBar FOOBar 中文Bar _Ab aB Ab",  # a capital within a word breaks it (camelCase)
    "foo_Bar a..5 3.5 end. e.g.Xy v1.2.3",  # a full stop breaks unless a digit follows
    "x&lt;Foo&gt;y &amp;lt; a&gtb",  # &lt; and &gt; break (as the unescaped text has them)
    "a\u3000b\u200bc\td\ne\x0bf\u2028g",  # every kind of white space, the zero-width space
    'a-b_c,d:e!f=g[h]i(j)k"l`m/n -- ,, !! «»',  # each separator character, runs of them
    "",
]
"""Texts at the edges of the site's search separator (``search_split.SEPARATOR``)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_separators_pieces_are_the_expressions(real_project: Project, lang: str) -> None:
    """The tokenizer splits on the site's separator mostly without its regular expression
    (``_spaced``): every text of the real site's search, and texts at the separator's edges,
    get the words a split by the expression alone gives."""
    shards = (language_root(real_project.site_dir, lang) / "search" / "shards").glob("*.json")
    docs = [doc for path in shards for doc in json.loads(path.read_text("utf-8"))["docs"]]
    texts = [*EDGE_TEXTS, *(doc[name] for doc in docs for name in ("title", "text"))]
    assert len(texts) > 100
    tokens = search_split.Tokenizer(search_split.SEPARATOR)
    for text in texts:
        plain = re.sub(r"<[^>]*>", " ", text)
        plain = html.unescape(plain) if ("<" in text or "&" in text) else text
        pieces = re.split(search_split.SEPARATOR, plain)
        expected = [re.sub(r"^\W+|\W+$", "", piece).lower() for piece in pieces]
        assert tokens.words(text) == tuple(word for word in expected if word), text


def test_the_split_keeps_a_file_that_holds_its_bytes_and_never_writes_into_one(
    tmp_path: Path,
) -> None:
    """``write_files``: a dirty build's search folders hold links to the last build's files
    (publish/incremental.py); the same bytes keep the link, other bytes make a new file and
    leave the last build's alone, files no longer made go, a link is never followed."""
    last, folder = tmp_path / "last", tmp_path / "search"
    last.mkdir()
    folder.mkdir()
    for name in ("same.json", "changed.json", "gone.json"):
        (last / name).write_bytes(b"old " + name.encode())
        os.link(last / name, folder / name)
    (tmp_path / "elsewhere.json").write_bytes(b"outside")
    (folder / "link.json").symlink_to(tmp_path / "elsewhere.json")
    (folder / "old-folder").mkdir()
    files = {
        "same.json": b"old same.json",
        "changed.json": b"new bytes",
        "link.json": b"outside",
        "new.json": b"{}",
    }
    search_split.write_files(folder, iter(files.items()))
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == files
    assert (folder / "same.json").stat().st_ino == (last / "same.json").stat().st_ino
    assert (folder / "changed.json").stat().st_ino != (last / "changed.json").stat().st_ino
    assert (last / "changed.json").read_bytes() == b"old changed.json"
    assert (last / "gone.json").is_file() and not (folder / "gone.json").exists()
    assert not (folder / "link.json").is_symlink()
    assert (tmp_path / "elsewhere.json").read_bytes() == b"outside"
