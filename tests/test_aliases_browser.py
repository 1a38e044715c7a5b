"""An old link lands in a real browser (issue 18, item 13): a renamed ruling's earlier id, in
both languages and through the language menu, and a renamed game's old URL with its anchor.

Headless Debian Chromium (``/usr/bin/chromium``) on the real site (the Clans of Caledonia
ruling renamed from ``shipping-lake-and-river`` to ``shipping-loch-and-river``) and on the
fixture game built with an earlier slug (``test_aliases.py``)."""

from __future__ import annotations

import pytest

from rulesite.catalog import load_catalog
from rulesite.project import Project
from tests.helpers import REPO, serve_site
from tests.site_checks import LANGS
from tests.test_aliases import OLD_RULING, OLD_SLUG, aliased_site  # noqa: F401 (a fixture)

CATALOG = load_catalog(Project(REPO))
RENAMED = [
    (game.slug, ruling.id, alias)
    for game in CATALOG.games
    for ruling in game.faq
    for alias in ruling.aliases
]
"""Every earlier ruling id of the real data: (game, current id, earlier id)."""


@pytest.fixture
def page(shared_page):
    """Every test here takes the worker's one desktop page, storage cleared for each test
    (tests/conftest.py), instead of a new context's."""
    return shared_page


def landed_on(page, ruling: str) -> None:
    """The address names the current id, and the ruling's heading is on screen."""
    page.wait_for_function(f"location.hash === '#{ruling}'")
    heading = page.locator(f"h2#{ruling}")
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 900, box


def test_the_real_data_has_a_renamed_ruling() -> None:
    assert ("clans-of-caledonia", "shipping-loch-and-river", "shipping-lake-and-river") in RENAMED


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("slug", "ruling", "alias"), RENAMED)
def test_an_old_ruling_link_lands_on_the_ruling(page, site_url, lang, slug, ruling, alias) -> None:
    page.goto(f"{site_url}{LANGS[lang]}games/{slug}/faq/#{alias}")
    landed_on(page, ruling)
    assert page.problems == []


@pytest.mark.parametrize(("slug", "ruling", "alias"), RENAMED)
def test_an_old_ruling_link_survives_the_language_menu(page, site_url, slug, ruling, alias):
    (other,) = [lang for lang, prefix in LANGS.items() if prefix]
    page.goto(f"{site_url}games/{slug}/faq/#{alias}")
    landed_on(page, ruling)
    page.click(".md-header__option .md-select button")
    page.click(f'a.md-select__link[hreflang="{other}"]')
    page.wait_for_url(f"**/{LANGS[other]}games/{slug}/faq/#{ruling}")
    landed_on(page, ruling)
    assert page.problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_an_old_game_url_redirects_with_its_anchor(page, aliased_site, lang) -> None:  # noqa: F811
    with serve_site(aliased_site) as url:
        page.goto(f"{url}{LANGS[lang]}games/{OLD_SLUG}/faq/#{OLD_RULING}")
        page.wait_for_url(f"{url}{LANGS[lang]}games/mini-game/faq/#tie-breaker")
        landed_on(page, "tie-breaker")
        page.goto(f"{url}{LANGS[lang]}games/{OLD_SLUG}/")
        page.wait_for_url(f"{url}{LANGS[lang]}games/mini-game/")
        assert page.problems == []
