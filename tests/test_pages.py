"""The page registry (``pages/registry.py``): what it declares is what the stages do."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesite.catalog import Catalog, load_catalog
from rulesite.check.fields import RESERVED_PAGE_NAMES
from rulesite.engine.projects import language_config
from rulesite.model import Game
from rulesite.pages import indexes, registry
from rulesite.pages.kind import path_pattern
from rulesite.pages.registry import KINDS, Scope, Search, Writer
from rulesite.project import Project
from rulesite.render.renderer import Renderer, render_pages
from tests.helpers import REPO
from tests.projects import good_game_text, make_project, other_game

TEMPLATES = REPO / "templates" / "pages"
SLUG = "some-game"
"""A slug to fill a game kind's paths with."""


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Catalog]:
    """The good fixture project with a second game that has no calculator."""
    head, rest = other_game("plain-game").split("\nscoring:", 1)
    no_calculator = head + "\nmodules:" + rest.split("\nmodules:", 1)[1]
    games = {"mini-game.yaml": good_game_text(), "plain-game.yaml": no_calculator}
    project = Project(make_project(tmp_path_factory.mktemp("pages") / "p", games))
    return project, load_catalog(project)


def slug_of(kind: registry.PageKind) -> str:
    """:data:`SLUG` for a kind of many pages (a game's or a topic's), else ``""``."""
    return SLUG if kind.scope is not Scope.SITE else ""


def paths(kind: registry.PageKind) -> list[str]:
    """The kind's URL in both forms, filled with :data:`SLUG` for a game or topic kind."""
    slug = slug_of(kind)
    return [kind.url(slug, True), kind.url(slug, False)]


# --- the declarations themselves ------------------------------------------------------------


def test_names_sources_and_urls_are_unique() -> None:
    names = [kind.name for kind in KINDS]
    assert len(set(names)) == len(names)
    sources = [kind.source for kind in KINDS if kind.source]
    assert len(set(sources)) == len(sources)
    urls = [url for kind in KINDS for url in dict.fromkeys(paths(kind))]
    assert len(set(urls)) == len(urls), urls


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_template_exists_exactly_where_the_registry_renders_one(kind: registry.PageKind) -> None:
    if kind.writer is Writer.TEMPLATE:
        assert kind.template and (TEMPLATES / kind.template).is_file()
        assert kind.context is not None
        # A page (Markdown), or a file a page's script reads (the games index's rows).
        assert kind.source and kind.source.endswith((".md", ".json"))
    else:  # written by MkDocs' theme or the engine, by design
        assert kind.template is None and kind.context is None


def test_every_page_template_belongs_to_a_kind() -> None:
    # Partials (``_name.md.j2``) are included by the pages; every other template is a page.
    templates = {path.name for path in TEMPLATES.glob("*.j2") if not path.name.startswith("_")}
    assert templates == {kind.template for kind in KINDS if kind.template}


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_each_url_is_found_again_as_its_kind(kind: registry.PageKind) -> None:
    slug = slug_of(kind)
    for url in paths(kind):
        assert registry.kind_of_url(url) == (kind, slug), url
        assert registry.kind_of_url(url + "#anchor") == (kind, slug)
    if kind.source:
        assert registry.kind_of_source(kind.source_path(slug)) == (kind, slug)
    # The game's folder holds every tab of a game (not the export, under api/, nor its glossary
    # page, listed with the others under glossary/).
    in_folder = registry.game_slug(kind.url(slug)) is not None
    assert in_folder == (kind.per_game and (kind.source or "").startswith(registry.GAME_FOLDER))
    if kind.tab:
        assert in_folder, kind.name


def test_urls_follow_mkdocs() -> None:
    from mkdocs.structure.files import File

    for kind in KINDS:
        if kind.source is None or not kind.source.endswith(".md"):
            continue
        source = kind.source_path(slug_of(kind))
        for directory_urls in (True, False):
            file = File(source, None, None, directory_urls)
            slug = slug_of(kind)
            expected = "" if file.url == "./" else file.url
            assert kind.url(slug, directory_urls) == expected, (kind.name, directory_urls)
            assert kind.site_file(slug, directory_urls) == file.dest_uri


def test_roles_agree_with_what_writes_the_kind() -> None:
    for kind in KINDS:
        markdown = kind.writer is Writer.TEMPLATE and (kind.source or "").endswith(".md")
        # MkDocs indexes and lists in the sitemap every page it renders from Markdown, only those.
        assert kind.sitemap == markdown, kind.name
        if kind.search is Search.NONE and markdown:
            # A page MkDocs would index says it is not to be (Material's front matter).
            template = (TEMPLATES / (kind.template or "")).read_text(encoding="utf-8")
            assert "search:\n  exclude: true\n---" in template, kind.name
        else:
            assert (kind.search is not Search.NONE) == markdown, kind.name
        if kind.tab:
            assert kind.per_game and kind.search is Search.SHARD and kind.offline, kind.name
        if kind.nav:
            assert kind.scope is Scope.SITE and markdown, kind.name
        assert kind.inputs, f"{kind.name}: say what it is built from"
        assert (registry.GAME in kind.inputs) == kind.per_game, kind.name
    assert registry.kind("offline").offline  # the worker shows it for a page it has not stored


def test_the_score_page_exists_only_for_a_game_with_calculators(fixture) -> None:
    _, catalog = fixture
    games = {game.slug: game for game in catalog.games}
    assert games["mini-game"].scoring and not games["plain-game"].scoring
    names = {slug: [kind.name for kind in registry.tabs_of(game)] for slug, game in games.items()}
    assert names["mini-game"] == [kind.name for kind in registry.tab_kinds()]
    assert names["plain-game"] == [k for k in names["mini-game"] if k != "score"]


# --- the stages read it ---------------------------------------------------------------------


def test_render_writes_the_pages_the_registry_lists(fixture) -> None:
    project, catalog = fixture
    topic_ids = indexes.topic_ids(catalog)
    expected = {
        f"{lang}/{kind.source_path(game.slug if kind.per_game else topic or '')}"
        for lang in catalog.site.codes
        for kind in KINDS
        if kind.template
        for game in (catalog.games if kind.per_game else [None])
        if game is None or kind.exists_for(game)
        for topic in (topic_ids if kind.scope is Scope.TOPIC else [None])
    }
    assert set(render_pages(project, catalog)) == expected
    assert (
        "en/games/plain-game/faq.md" in expected and "en/games/plain-game/score.md" not in expected
    )
    # A page per topic that tags some ruling (and only those), per game glossary.
    tagged = {tag for game in catalog.games for ruling in game.faq for tag in ruling.tags}
    assert topic_ids and set(topic_ids) == tagged
    assert {f"en/topics/{t}.md" for t in tagged} <= expected
    assert (
        "en/topics/" + next(t.id for t in catalog.site.topics if t.id not in tagged) + ".md"
        not in expected
    )
    assert {f"en/glossary/{g.slug}.md" for g in catalog.games if g.glossary} <= expected


def test_the_generated_navigation_is_the_registry_s(fixture) -> None:
    _, catalog = fixture
    config = language_config({"nav": ["elsewhere.md"]}, catalog, catalog.site.root_language, 0)
    assert [next(iter(entry.values())) for entry in config["nav"]] == [
        kind.source for kind in KINDS if kind.nav
    ]
    assert config["not_in_nav"] == "/games/*/\n/glossary/*.md\n/topics/*.md\n"


def test_each_navigation_title_is_its_page_s_front_matter_title(fixture) -> None:
    # MkDocs shows the navigation's titles without reading the pages (so a dirty build writes
    # every page's navigation as a whole build does): each must be the one its page declares.
    project, catalog = fixture
    pages = render_pages(project, catalog)
    for language in catalog.site.languages:
        config = language_config({}, catalog, language, 0)
        for entry in config["nav"]:
            ((title, source),) = entry.items()
            front = yaml.safe_load(pages[f"{language.code}/{source}"].split("---\n")[1])
            assert front["title"] == title, (language.code, source)
            assert not {"icon", "subtitle", "status"} & front.keys()  # read by Material's nav


def test_a_game_s_check_date_is_in_its_pages_not_in_the_settings(fixture) -> None:
    # In the settings, one card's date would make every page of the site depend on it.
    project, catalog = fixture
    pages = render_pages(project, catalog)
    config = language_config({}, catalog, catalog.site.root_language, 0)
    assert "checked" not in config["extra"]
    game = catalog.games[0]
    for kind in ("rules", "faq", "score"):
        page = pages[f"en/{registry.kind(kind).source_path(game.slug)}"]
        front = yaml.safe_load(page.split("---\n")[1])
        assert front["checked"] == game.card.verified.isoformat(), kind


class _Declared:
    """A game that has only the fields an input declares: reading any other fails."""

    def __init__(self, game: Game, fields: tuple[str, ...]) -> None:
        self._game, self._fields = game, fields

    def __getattr__(self, name: str) -> Any:
        if name in self._fields:
            return getattr(self._game, name)
        raise AttributeError(f"{name}: not among the declared inputs {self._fields}")


ACROSS_GAMES = registry.rendered_kinds(Scope.SITE) + registry.rendered_kinds(Scope.TOPIC)


@pytest.mark.parametrize("kind", ACROSS_GAMES, ids=lambda kind: kind.name)
def test_a_page_across_games_reads_only_its_declared_inputs(fixture, kind) -> None:
    # What keeps the cache of these pages right (render/cache.py keys them on these inputs).
    project, catalog = fixture
    fields = tuple(dict.fromkeys(f for i in kind.inputs for f in i.fields))
    assert fields, kind.name
    limited = dataclasses.replace(catalog, games=[_Declared(g, fields) for g in catalog.games])
    for lang in catalog.site.codes:
        if kind.scope is Scope.TOPIC:
            for topic in indexes.topic_ids(catalog):
                whole = Renderer(project, catalog).topic_page(kind, topic, lang)
                assert Renderer(project, limited).topic_page(kind, topic, lang) == whole
            continue
        whole = Renderer(project, catalog).site_page(kind, lang)
        assert Renderer(project, limited).site_page(kind, lang) == whole


def test_the_declared_inputs_check_can_fail(fixture, tmp_path: Path) -> None:
    project, catalog = fixture
    limited = dataclasses.replace(catalog, games=[_Declared(g, ("slug",)) for g in catalog.games])
    with pytest.raises(Exception, match="title"):
        Renderer(project, limited).site_page(registry.kind("home"), "en")


def test_a_topic_with_more_rulings_than_a_page_lists_is_split_into_parts(
    fixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, catalog = fixture
    monkeypatch.setattr(indexes, "TOPIC_PAGE_RULINGS", 1)
    counts: dict[str, int] = {}
    for game in catalog.games:
        for ruling in game.faq:
            for tag in ruling.tags:
                counts[tag] = counts.get(tag, 0) + 1
    assert max(counts.values()) > 1  # the fixture has a topic to split
    keys = indexes.topic_pages(catalog)
    assert len(keys) == sum(counts.values())
    kind = registry.kind("topic")
    pages = render_pages(project, catalog)
    for topic, count in counts.items():
        parts = [indexes.topic_page_key(topic, n) for n in range(1, count + 1)]
        assert parts[0] == topic and all(p in keys for p in parts)
        for lang in catalog.site.codes:
            # Every part in every language (a language switch lands on the same part), each
            # linking the others; together they list each ruling of the topic once.
            listed = []
            for part in parts:
                text = pages[f"{lang}/{kind.source_path(part)}"]
                listed += re.findall(r"\(\.\./games/([a-z0-9-]+/faq\.md#[a-z0-9-]+)\)", text)
                if count > 1:
                    assert all(f"]({p}.md)" in text for p in parts if p != part), part
            expected = [
                f"{g.slug}/faq.md#{r.id}" for g in catalog.games for r in g.faq if topic in r.tags
            ]
            assert sorted(listed) == sorted(expected), (topic, lang)


def test_reserved_page_names_are_the_clashes_the_registry_makes() -> None:
    # A game's or a topic's page whose name is that of a site page's source beside it
    # (glossary/<slug>.md next to glossary/index.md) would replace that page: exactly those
    # names are refused at validation (check/fields.RESERVED_PAGE_NAMES).
    site_sources = [k.source for k in KINDS if k.scope is Scope.SITE and k.source]
    clashes = {
        found.group("slug")
        for k in KINDS
        if k.scope is not Scope.SITE and k.source
        for source in site_sources
        if (found := path_pattern(k.source).fullmatch(source))
    }
    assert clashes == {"index"}  # the test must see one: glossary/index.md, topics/index.md
    assert clashes == RESERVED_PAGE_NAMES


def test_a_topic_page_lists_its_own_catalogs_rulings() -> None:
    """``indexes.topic`` works out every topic's rulings once per catalog: another catalog
    (here without a game the topic lists) gets its own, never the first one's, in each
    language."""
    whole = load_catalog(Project(REPO))
    topic_id = indexes.topic_ids(whole)[0]
    gone = next(g for g in whole.games if any(topic_id in ruling.tags for ruling in g.faq))
    fewer = dataclasses.replace(whole, games=[g for g in whole.games if g is not gone])

    def listed(catalog: Catalog, lang: str) -> list[str]:
        by_game = indexes.topic(catalog, topic_id, lang)["by_game"]
        return [game.slug for game, _ in by_game]

    for lang in whole.site.codes:
        pairs = dict(indexes.rulings_by_topic(whole.games, [topic_id], lang))[topic_id]
        expected = list(dict.fromkeys(game.slug for game, _ in pairs))
        assert gone.slug in expected
        assert listed(whole, lang) == expected
        assert listed(fewer, lang) == [slug for slug in expected if slug != gone.slug]
        assert listed(whole, lang) == expected
