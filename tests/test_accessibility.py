"""axe-core in headless Chromium: no serious or critical violations on any kind of page, in every
language and in the light and the dark colour scheme.

The light scheme gets every rule, in each language; the dark one the rules about colour
(``COLOUR_RULES``), once per kind of page: the scheme changes colours only (Material's palette
is CSS custom properties on one attribute), so the structure rules would check the same markup
twice at a second of axe a page; and no style sheet of the site or the theme sets a colour by
language (``test_no_colour_is_set_by_language``), so the dark check takes the pages that show
every element of the kind in either language, chosen together.

axe runs on one page per kind and language, not on every page (axe costs about a second a
page, and pages of one kind come from one template). Which pages stand for a kind is chosen
from the built site: every page of the kind was loaded once in the run's page survey
(tests/page_survey.py) and its rendered markup summarised there (each element's tag, classes,
role, type and aria attributes, after its scripts ran, on a phone); axe then
runs on as few pages as together show every such element. A game or topic whose data brings
markup no other page of its kind has (a table, a picture, a kind of calculator line) is
therefore checked too, and a new kind in the page registry is a new test here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.pages import registry
from rulesite.project import Project
from tests.helpers import SCHEMES
from tests.page_survey import TRY, Survey
from tests.projects import REAL
from tests.site_checks import LANGS, page_paths

pytestmark = pytest.mark.browser

GAMES = load_catalog(Project(REAL)).games
PAGES = page_paths(GAMES)
"""Home, the indexes and every page of every game and topic in data/."""
KINDS: dict[str, list[str]] = {}
"""Those pages by kind (the page registry's names), in the order ``page_paths`` gives."""
for _path in PAGES:
    KINDS.setdefault(registry.kind_of_url(_path)[0].name, []).append(_path)

SETTLED = """() => document.getAnimations().every(a => a.playState !== 'running'
    || a.effect.getComputedTiming().iterations === Infinity)"""
"""No transition or finite animation still running: axe measures colours as they end up (a
button fading in, such as Material's back-to-top, fails contrast halfway)."""


def settled(page) -> None:
    """Wait until ``page`` shows its final colours (``SETTLED``)."""
    page.wait_for_function(SETTLED, timeout=5_000)


COLOUR_RULES = ["color-contrast", "link-in-text-block"]
"""axe's rules that read colours (the others read markup, the same in either scheme)."""


def scheme_rules(scheme: str) -> list[str] | None:
    """The axe rules a check in ``scheme`` runs: every rule in the light scheme (None), the
    rules about colour in the dark one (the scheme changes colours, not markup)."""
    return COLOUR_RULES if scheme == "dark" else None


def axe_options(rules: list[str] | None) -> dict:
    """``axe.run``'s options that run only ``rules`` (every rule: None)."""
    return {"runOnly": {"type": "rule", "values": rules}} if rules else {}


def serious_violations(page, axe_script: Path, rules: list[str] | None = None) -> list[str]:
    """axe's serious and critical findings on ``page``: every rule, or only ``rules``."""
    settled(page)
    page.add_script_tag(path=str(axe_script))
    violations = page.evaluate(
        "async options => (await axe.run(document, options)).violations", axe_options(rules)
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def open_page(page, url: str, kind: str) -> None:
    """Go to ``url`` and bring it to the state axe checks (a score page: an example filled in)."""
    page.goto(url)
    if kind == "score":
        page.locator(TRY).first.click()


def covering(markup: dict[str, set[str]]) -> list[str]:
    """Few pages that together show every element any of ``markup``'s pages shows: the page
    with the most not yet shown, until none is left (ties: the earlier page)."""
    chosen: list[str] = []
    shown: set[str] = set()
    every = set().union(*markup.values())
    while shown != every:
        best = max(markup, key=lambda path: len(markup[path] - shown))
        chosen.append(best)
        shown |= markup[best]
    return chosen


def chosen(page_survey: Survey, kind: str, langs: list[str]) -> list[str]:
    """The pages of ``kind`` in ``langs`` that axe checks, by path from the site's root, chosen
    from what each page showed when the run's survey loaded it (tests/page_survey.py)."""
    paths = [lang + path for lang in langs for path in KINDS[kind]]
    return covering({path: set(page_survey[path].markup) for path in paths})


BY_LANGUAGE = re.compile(r":lang\(|\[\s*(?:xml:)?lang\b")
"""A selector that depends on the page's or an element's language."""


def styles_by_language(text: str) -> list[str]:
    """The selectors in ``text`` (a style sheet, or a page with styles or scripts that add
    some) that match by language."""
    return [match.group(0) for match in BY_LANGUAGE.finditer(text)]


def test_styles_by_language_finds_both_forms() -> None:
    assert styles_by_language('p:lang(zh){color:red} [lang="en"] a{color:#000}') == [
        ":lang(",
        "[lang",
    ]
    assert styles_by_language("html{color:#000} .lang-switch{}") == []


def test_no_colour_is_set_by_language(site_dir: Path) -> None:
    # What lets the dark check take the pages of both languages together (the docstring).
    found = {
        path.relative_to(site_dir).as_posix(): styles_by_language(path.read_text("utf-8"))
        for suffix in ("css", "html", "js")
        for path in site_dir.rglob(f"*.{suffix}")
    }
    assert {path: hits for path, hits in found.items() if hits} == {}


def test_covering_keeps_every_element_and_prefers_the_fullest_page() -> None:
    markup = {"a/": {"p", "h1"}, "b/": {"p", "h1", "table"}, "c/": {"img"}, "d/": {"p"}}
    assert covering(markup) == ["b/", "c/"]
    assert covering({"a/": {"p"}, "b/": {"p"}}) == ["a/"]


def checks() -> list:
    """Each kind of page in the light scheme in each language, then in the dark scheme in all
    of them together (the module's docstring)."""
    every = list(LANGS.values())
    found = []
    for kind in KINDS:
        found += [pytest.param("light", kind, [lang], id=f"light-{kind}-{lang}") for lang in every]
        found.append(pytest.param("dark", kind, every, id=f"dark-{kind}"))
    return found


@pytest.mark.parametrize("scheme, kind, langs", checks())
def test_no_serious_violations(
    shared_page, site_url, axe_script, page_survey, scheme: str, kind: str, langs: list[str]
) -> None:
    # The worker's page, its storage cleared (helpers.forgetting): Material keeps the palette
    # it last showed there, and shows the one the system asks for when nothing is kept.
    page = shared_page
    paths = chosen(page_survey, kind, langs)
    page.emulate_media(color_scheme=scheme)
    found = {}
    for path in paths:
        open_page(page, site_url + path, kind)
        assert page.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]
        found[path] = serious_violations(page, axe_script, scheme_rules(scheme))
    assert found == {path: [] for path in paths}


@pytest.mark.parametrize(
    "lang, to_dark, to_light",
    [
        ("", "切换到深色模式", "切换到浅色模式"),
        ("en/", "Switch to dark mode", "Switch to light mode"),
    ],
)
def test_the_scheme_toggle_is_named_in_the_page_language(
    page, site_url, lang: str, to_dark: str, to_light: str
) -> None:
    game = GAMES[0].slug
    page.emulate_media(color_scheme="light")
    page.goto(site_url + lang + f"games/{game}/")
    toggle = page.locator('form[data-md-component="palette"] label:visible')
    assert toggle.get_attribute("title") == to_dark
    toggle.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    assert toggle.get_attribute("title") == to_light
    # The choice is kept for the next page.
    page.goto(site_url + lang + f"games/{game}/faq/")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
