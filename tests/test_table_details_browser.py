"""Details at the table, in headless Chromium at 360 × 740 on the real site, in both languages:
the ¶ share link's contrast and size, the print footer of rules, FAQ and score pages, and no
feedback link while ``data/site.yaml`` sets no feedback address. Games come from ``data/``."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from rulesite.engine import build_date
from rulesite.engine.projects import source_date_epoch
from tests.helpers import PHONE, SCHEMES, each_pair, forgetting, light_in_each_dark_in_one
from tests.site_checks import LANGS, REAL_SITE, page_kinds
from tests.test_site import CATALOG

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["pointer", "touch"])
def device(browser, request) -> Iterator[object]:
    """A 360 × 740 page for the module; "touch" is a phone without hover (Material hides ¶
    until hover)."""
    touch = request.param == "touch"
    context = browser.new_context(viewport=PHONE, is_mobile=touch, has_touch=touch)
    page = context.new_page()
    page.problems, page.home_viewport = [], PHONE
    yield page
    context.close()


@pytest.fixture
def phone(device) -> object:
    """The module's page of one kind of phone, as a new one for each test."""
    return forgetting(device)


def _rgba(value: str) -> tuple[float, float, float, float]:
    numbers = [float(n) for n in re.findall(r"[\d.]+", value)]
    assert value.startswith("rgb") and len(numbers) in (3, 4), value
    return (*numbers[:3], numbers[3] if len(numbers) == 4 else 1.0)


def _over(top: tuple[float, ...], bottom: tuple[float, ...], alpha: float) -> tuple[float, ...]:
    return tuple(t * alpha + b * (1 - alpha) for t, b in zip(top[:3], bottom[:3], strict=True))


def _luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


LINK_STYLE = """link => {
  const style = getComputedStyle(link);
  let opacity = 1;
  for (let node = link; node; node = node.parentElement) {
    opacity *= Number(getComputedStyle(node).opacity);
  }
  let node = link;
  let background = "rgba(0, 0, 0, 0)";
  while (node) {
    const colour = getComputedStyle(node).backgroundColor;
    const clear = /rgba\\(.*, 0\\)$/.test(colour) || colour === "transparent";
    if (!clear) { background = colour; break; }
    node = node.parentElement;
  }
  const box = link.getBoundingClientRect();
  return {colour: style.color, opacity, background, width: box.width, height: box.height,
          visibility: style.visibility, display: style.display};
}"""


FAQ_PAGES = [f"games/{game.slug}/faq/" for game in CATALOG.games if game.faq]
FAQ_PAGE = f"games/{max(CATALOG.games, key=lambda game: len(game.faq)).slug}/faq/"
"""The FAQ page with the most rulings: the ¶ links are one style on every page (each page's are
measured as tap targets and kept beside their headings in test_onetap_browser.py)."""


@pytest.mark.parametrize("lang, scheme", light_in_each_dark_in_one(sorted(LANGS)))
def test_the_share_link_reads_and_taps(phone, site_url, lang: str, scheme: str) -> None:
    path = FAQ_PAGE
    phone.emulate_media(color_scheme=scheme)
    phone.goto(site_url + LANGS[lang] + path)
    assert phone.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]
    links = phone.locator("article h2[id] > a.headerlink")
    assert links.count() >= 1
    for index in range(links.count()):
        found = links.nth(index).evaluate(LINK_STYLE)
        background = _rgba(found["background"])
        colour = _rgba(found["colour"])
        shown = _over(colour, background, colour[3] * found["opacity"])
        ratio = contrast(shown, background)
        assert ratio >= 4.5, (index, found, round(ratio, 2))
        assert found["visibility"] == "visible" and found["display"] != "none"
        assert found["width"] >= 24 and found["height"] >= 24, found


PRINTED = ("rules", "faq", "score")
"""The kinds of game page that print a footer."""


def print_pages() -> list[tuple[str, str, str]]:
    """(game slug, path, language) of the rules, FAQ and score pages in data/: every pair of
    game, kind of page and language (``helpers.each_pair``), not every combination. The footer
    is one template filled from the game (its check date), the page (its address) and the
    language (its labels)."""
    games = [game for game in CATALOG.games if set(PRINTED) <= set(page_kinds(game))]
    cases = each_pair(games, list(PRINTED), sorted(LANGS))
    # A game without all three kinds of page (a fourth game may have no calculator) still
    # prints each it has, in each language.
    cases += [
        (game, kind, lang)
        for game in CATALOG.games
        if game not in games
        for kind in page_kinds(game)
        if kind in PRINTED
        for lang in sorted(LANGS)
    ]
    return [(game.slug, f"games/{game.slug}/{kind}/", lang) for game, kind, lang in cases]


BUILD_DAY = build_date.build_datetime(build_date.build_epoch(source_date_epoch(CATALOG))).strftime(
    "%Y-%m-%d"
)
"""The build date the site carries (the data's newest check, unless SOURCE_DATE_EPOCH says)."""


def label(key: str, lang: str, **values: str) -> str:
    text = REAL_SITE.labels[key].get(lang)
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


@pytest.mark.parametrize("slug, path, lang", print_pages())
def test_print_carries_address_check_date_and_build_date(
    shared_phone, site_url, slug: str, path: str, lang: str
) -> None:
    page = shared_phone  # the print emulation is undone for the next test (forgetting)
    page.goto(site_url + LANGS[lang] + path)
    footer = page.locator(".rs-print-footer")
    assert footer.count() == 1 and not footer.is_visible()  # on paper only
    page.emulate_media(media="print")
    assert footer.is_visible()
    address = site_url + LANGS[lang] + path
    game = next(g for g in CATALOG.games if g.slug == slug)
    expected = [
        label("print_address", lang, url=address),
        label("card_verified", lang, date=game.card.verified.isoformat()),
        label("print_built", lang, date=BUILD_DAY),
    ]
    assert footer.locator("p").all_inner_texts() == expected


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_other_pages_print_no_footer(shared_page, site_url, lang: str) -> None:
    page = shared_page
    for path in ["", "games/", *(f"games/{game.slug}/" for game in CATALOG.games)]:
        page.goto(site_url + LANGS[lang] + path)
        assert page.locator(".rs-print-footer").count() == 0, path


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_without_a_feedback_address_no_ruling_links_to_one(
    shared_page, site_url, lang: str
) -> None:
    page = shared_page
    assert REAL_SITE.feedback is None  # the real site sets none: no link is invented
    for path in FAQ_PAGES:
        page.goto(site_url + LANGS[lang] + path)
        assert page.locator("article h2[id]").count() >= 1
        assert page.locator(".rs-feedback").count() == 0, path


# --- Tables wider than a phone: the box that scrolls is reachable by keyboard and named ---------

SETUP_PAGES = [
    (f"{prefix}games/{game.slug}/rules/", len(game.setup))
    for prefix in LANGS.values()
    for game in CATALOG.games
    if game.setup
]

# Every element of the article that scrolls sideways: whether a keyboard reaches it (itself, or
# something in it) and its accessible name.
_SCROLLERS = """() => [...document.querySelectorAll("article *")].filter(n => {
  const x = getComputedStyle(n).overflowX;
  return (x === "auto" || x === "scroll") && n.scrollWidth > n.clientWidth;
}).map(n => ({
  box: n.className,
  reachable: n.tabIndex >= 0 || !!n.querySelector("a[href], button, input, select, [tabindex]"),
  name: n.getAttribute("aria-label") || "",
  role: n.getAttribute("role") || ""
}))"""


@pytest.mark.parametrize("path, tables", SETUP_PAGES)
def test_a_setup_table_wider_than_a_phone_scrolls_in_a_named_focusable_box(
    shared_phone, site_url, axe_script, path: str, tables: int
) -> None:
    page = shared_phone
    page.goto(site_url + path)
    boxes = page.locator("article .rs-setup")
    assert boxes.count() == tables
    for box in boxes.all():
        assert box.get_attribute("tabindex") == "0"
        assert box.get_attribute("role") == "region"
        assert box.get_attribute("aria-label")
    for scroller in page.evaluate(_SCROLLERS):
        assert scroller["reachable"], scroller
        if "rs-setup" in scroller["box"]:
            assert scroller["role"] == "region" and scroller["name"], scroller
    page.add_script_tag(path=str(axe_script))
    found = page.evaluate(
        "async () => (await axe.run(document, {runOnly: {type: 'rule', values: "
        "['scrollable-region-focusable']}})).violations"
    )
    assert [[n["target"] for n in v["nodes"]] for v in found] == []
