"""Languages are data: a project declaring a third language (``tests/fixtures/third-language``,
zh-Hant beside zh and en) validates, renders and builds with no code change, and passes the same
site checks as the real site, in every one of its languages.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog, load_site
from rulesite.commands.schema import schema_texts
from rulesite.errors import DataError, UsageError
from rulesite.project import Project
from rulesite.publish.build import build
from tests.projects import make_third_language_project
from tests.site_checks import (
    PAGES,
    check_game_page,
    check_home,
    check_language_switch,
    check_ruling_anchors,
    check_site,
    html_of,
    page_kinds,
)


def _fixture_site():
    """The fixture's site data (derived from the repo's ``data/site.yaml``), read once."""
    with tempfile.TemporaryDirectory() as tmp:
        return load_site(Project(make_third_language_project(Path(tmp) / "p")))


SITE = _fixture_site()
"""The fixture's ``data/site.yaml``: its languages parametrise the tests below."""
CODES = SITE.codes
GAME_FILE = "data/games/tea-garden.yaml"


def test_the_fixture_declares_a_third_language() -> None:
    assert len(CODES) == 3 and "zh-Hant" in CODES


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Project:
    project = Project(make_third_language_project(tmp_path_factory.mktemp("third") / "p"))
    build(project)
    return project


@pytest.fixture(scope="module")
def catalog(built: Project):
    return load_catalog(built)


def test_every_site_check_passes_in_every_language(built: Project, catalog) -> None:
    check_site(built.site_dir, catalog)


@pytest.mark.parametrize("lang", CODES)
def test_every_page_exists_in_each_language(built: Project, catalog, lang: str) -> None:
    check_site(built.site_dir, catalog)  # registers the fixture's languages for its folder
    for game in catalog.games:
        for kind in page_kinds(game):
            check_game_page(built.site_dir, game, kind, lang)
    check_home(built.site_dir, catalog.games, lang)


def test_language_menu_links_all_three_and_anchors_match(built: Project, catalog) -> None:
    check_site(built.site_dir, catalog)
    check_language_switch(built.site_dir, catalog.games)
    for game in catalog.games:
        check_ruling_anchors(built.site_dir, game)
    page = html_of(built.site_dir, "zh-Hant", "games/tea-garden/faq/")
    names = re.findall(r'hreflang="([\w-]+)" class="md-select__link">([^<]+)</a>', page)
    assert names == [(language.html_lang, language.name) for language in SITE.languages]


def test_the_third_language_lives_under_its_prefix(built: Project, catalog) -> None:
    check_site(built.site_dir, catalog)
    page = (built.site_dir / "zh-hant" / "games" / "tea-garden" / "index.html").read_text("utf-8")
    assert '<html lang="zh-Hant"' in page
    # The root language's title under the page's own; BGG's (English) names beside the chips.
    assert '<p class="rs-title-alt" lang="zh">茶园</p>' in page
    assert '<span class="rs-chip__en" lang="en">Set Collection</span>' in page
    # Its own search, with the Chinese segmentation dictionary.
    assert (built.content_dir / "zh-Hant" / "search-terms.txt").is_file()
    terms = (built.content_dir / "zh-Hant" / "search-terms.txt").read_text("utf-8")
    assert "茶園 100000" in terms.splitlines()
    assert not (built.content_dir / "en" / "search-terms.txt").exists()


def test_the_english_pages_show_no_title_in_another_script(built: Project, catalog) -> None:
    check_site(built.site_dir, catalog)
    page = html_of(built.site_dir, "en", f"games/tea-garden/{PAGES['overview']}")
    assert '<p class="rs-title-alt" lang="zh">茶园</p>' in page
    assert "茶園" not in page


def test_one_language_builds_alone(tmp_path: Path) -> None:
    project = Project(make_third_language_project(tmp_path / "p"))
    report = build(project, site_dir=tmp_path / "hant", languages=("zh-Hant",))
    assert list(report.language_seconds) == ["zh-Hant"]
    assert '<html lang="zh-Hant"' in (tmp_path / "hant" / "index.html").read_text("utf-8")
    with pytest.raises(UsageError, match="unknown language 'ja'; the site has: zh, en and zh-Hant"):
        build(project, site_dir=tmp_path / "ja", languages=("ja",))


def test_a_missing_translation_is_a_located_error(tmp_path: Path) -> None:
    root = make_third_language_project(tmp_path / "p")
    game = root / GAME_FILE
    lines = game.read_text(encoding="utf-8").splitlines(keepends=True)
    where = next(i for i, line in enumerate(lines) if "zh-Hant: 輪到你時" in line)
    game.write_text("".join(lines[:where] + lines[where + 1 :]), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_catalog(Project(root))
    # Located at the text's own line, where the missing key would go.
    body = max(i for i in range(where) if lines[i].strip() == "body:") + 1
    assert caught.value.lines() == [
        f"{GAME_FILE}:{body}: rules[0].body.zh-Hant: missing 繁體中文 (zh-Hant) text; "
        "every text needs zh, en and zh-Hant"
    ]


def test_a_label_without_the_third_language_is_a_located_error(tmp_path: Path) -> None:
    root = make_third_language_project(tmp_path / "p")
    site_file = root / "data" / "site.yaml"
    text = site_file.read_text(encoding="utf-8")
    line = next(
        number
        for number, content in enumerate(text.splitlines(), start=1)
        if content.startswith("  page_rules:")
    )
    site_file.write_text(text.replace(', zh-Hant: "規則速查"}', "}", 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_catalog(Project(root))
    assert caught.value.lines() == [
        f"data/site.yaml:{line}: labels.page_rules.zh-Hant: missing 繁體中文 (zh-Hant) text; "
        "every text needs zh, en and zh-Hant"
    ]


def test_the_schema_lists_the_declared_languages() -> None:
    schema = json.loads(schema_texts(SITE)["game.schema.json"])
    assert schema["$defs"]["LongText"]["required"] == list(CODES)
    assert schema["$defs"]["LongText"]["properties"]["zh-Hant"]["maxLength"] == 10_000
