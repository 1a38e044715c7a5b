"""Links are promises (issue 18, item 13): a ruling's earlier ids and a game's earlier slugs.

A renamed ruling keeps its old id as an anchor inside its section in every language, while the
feed and the JSON export name only the current id; a renamed game's old URLs are small static
pages that send the reader on. Built with the real MkDocs; the browser half is in
``test_aliases_browser.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.pages import registry
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import REPO
from tests.projects import good_game_text, make_project, other_game
from tests.site_checks import LANGS, search_files

RULING = "  - id: tie-breaker\n"
OLD_RULING = "tie-rule"
OLD_SLUG = "tiny-game"


def aliased_game() -> str:
    """The fixture game, renamed from tiny-game, its tie-breaker ruling once called tie-rule."""
    text = good_game_text()
    assert RULING in text and "slug: mini-game\n" in text
    text = text.replace(RULING, RULING + f"    aliases: [{OLD_RULING}]\n")
    return text.rstrip("\n") + f"\naliases: [{OLD_SLUG}]\n"


@pytest.fixture(scope="module")
def aliased_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(
        tmp_path_factory.mktemp("aliases") / "p", games={"mini-game.yaml": aliased_game()}
    )
    build(Project(root))
    return root / "site"


@pytest.mark.parametrize("lang", LANGS)
def test_the_old_ruling_id_is_an_anchor_inside_the_ruling(aliased_site: Path, lang: str) -> None:
    page = (aliased_site / LANGS[lang] / "games/mini-game/faq/index.html").read_text("utf-8")
    section = page.split('<h2 id="tie-breaker"', 1)[1].split("<h2 ", 1)[0]
    alias = f'<div id="{OLD_RULING}" class="rs-alias" data-rs-alias-of="tie-breaker"></div>'
    assert alias in section
    assert page.count(f'id="{OLD_RULING}"') == 1


def test_the_feed_and_the_export_keep_the_current_id(aliased_site: Path) -> None:
    for path in [*aliased_site.rglob("feed.xml"), *aliased_site.rglob("api/**/*.json")]:
        assert OLD_RULING not in path.read_text("utf-8"), path
        assert OLD_SLUG not in path.read_text("utf-8"), path
    export = (aliased_site / "api/games/mini-game.json").read_text("utf-8")
    assert '"tie-breaker"' in export


@pytest.mark.parametrize("lang", LANGS)
def test_every_old_page_of_a_renamed_game_sends_the_reader_on(
    aliased_site: Path, lang: str
) -> None:
    catalog = load_catalog(Project(aliased_site.parent))
    (game,) = catalog.games
    expected = registry.redirects(game)
    assert len(expected) == len(registry.tabs_of(game))
    for old, target in expected:
        page = (aliased_site / LANGS[lang] / old).read_text("utf-8")
        assert f'<link rel="canonical" href="{target}">' in page
        assert f'content="0; url={target}"' in page
        assert "location.hash" in page and 'content="noindex"' in page
        # The target is the current page of the same kind, relative to the old page's folder.
        landed = (aliased_site / LANGS[lang] / Path(old).parent / target).resolve()
        assert (landed / "index.html").is_file(), (old, target)
        assert f"/games/{game.slug}/" in landed.as_posix() + "/"


def test_old_urls_are_not_pages_of_the_site(aliased_site: Path) -> None:
    sitemap = (aliased_site / "sitemap.xml").read_text("utf-8")
    assert OLD_SLUG not in sitemap
    for name, data in search_files(aliased_site / "search").items():
        assert OLD_SLUG not in data.decode("utf-8"), name


def test_an_earlier_slug_may_not_be_a_games_slug(tmp_path: Path) -> None:
    taken = other_game().rstrip("\n") + "\naliases: [mini-game]\n"
    project = make_project(
        tmp_path / "p", games={"mini-game.yaml": good_game_text(), "other-game.yaml": taken}
    )
    with pytest.raises(DataError) as caught:
        load_catalog(Project(project))
    (line,) = caught.value.lines()
    assert re.fullmatch(
        r"data/games/other-game\.yaml:\d+: aliases\[0\]: 'mini-game' is already the slug of "
        r"game 'mini-game'",
        line,
    ), line


def test_an_earlier_ruling_id_may_not_name_another_ruling(tmp_path: Path) -> None:
    text = good_game_text().replace(RULING, RULING + "    aliases: [hand-limit]\n")
    project = make_project(tmp_path / "p", games={"mini-game.yaml": text})
    with pytest.raises(DataError) as caught:
        load_catalog(Project(project))
    (line,) = caught.value.lines()
    assert re.fullmatch(
        r"data/games/mini-game\.yaml:\d+: faq\[1\]\.aliases\[0\]: 'hand-limit' is already the "
        r"id or an earlier id of faq\[0\]",
        line,
    ), line


def test_the_clans_loch_ruling_keeps_its_lake_anchor() -> None:
    """The renamed ruling of the real data: its old id is declared, so old links still land."""
    catalog = load_catalog(Project(REPO))
    (game,) = [g for g in catalog.games if g.slug == "clans-of-caledonia"]
    (ruling,) = [r for r in game.faq if "shipping-lake-and-river" in r.aliases]
    assert ruling.id == "shipping-loch-and-river"
