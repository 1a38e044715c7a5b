"""Print what you see: an empty calculator prints a score pad with every line the rules need and
a QR code of the calculator (made at build time, inline SVG, only with a site address); a filled
one prints its sheet and result. Unit checks of the QR code and the pad's rows, and Chromium at
360 × 740 in both languages with print media. Calculators come from data/."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
import segno

from rulesite.catalog import load_catalog
from rulesite.pages import registry
from rulesite.project import Project
from rulesite.publish.build import build
from rulesite.render.qr import qr_svg
from rulesite.render.renderer import Labels, render_pages
from rulesite.render.score_pad import pad_rows
from tests.helpers import REPO, serve_site
from tests.projects import make_project, real_games
from tests.site_checks import REAL_SITE
from tests.test_scoring_engine import CATALOG, MODELS

GAME_OF = {calc.id: game for game in CATALOG.games for calc in game.scoring}
CALCS = {calc.id: calc for game in CATALOG.games for calc in game.scoring}
LANGS = {"zh": "", "en": "en/"}
ADDRESS = "https://rules.example.org/rulesite/"
"""The site address the QR build is given (its path is the one the tests serve under)."""
SVG = "{http://www.w3.org/2000/svg}"


def address_of(calc_id: str, lang: str) -> str:
    page = registry.kind("score").url(GAME_OF[calc_id].slug)
    return f"{ADDRESS}{LANGS[lang]}{page}#{calc_id}"


# ---- The QR code ---------------------------------------------------------------------------


def modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules a segno path draws (``M x y.5 h n m dx dy ...``), as (row, column)."""
    root = ET.fromstring(svg)
    dark = [p for p in root.iter(f"{SVG}path") if p.get("stroke")]
    assert len(dark) == 1
    found, x, y = set(), 0.0, 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", dark[0].get("d")):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            found |= {(int(y), int(x) + i) for i in range(int(a))}
            x += float(a)
    return found


@pytest.mark.parametrize("address", [address_of(c, lang) for c in sorted(CALCS) for lang in LANGS])
def test_the_qr_code_is_the_address_and_loads_nothing(address: str) -> None:
    svg = str(qr_svg(address))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("aria-label") == address
    # Only the picture itself: no links, images, styles, scripts or references to anything.
    assert {node.tag for node in root.iter()} == {f"{SVG}svg", f"{SVG}path"}
    for node in root.iter():
        for name, value in node.attrib.items():
            assert "href" not in name and "url(" not in value and not name.startswith("on")
    code = segno.make(address, error="m", micro=False)
    expected = {
        (r + 4, c + 4) for r, row in enumerate(code.matrix) for c, dark in enumerate(row) if dark
    }
    assert modules(svg) == expected


def test_the_qr_label_is_escaped() -> None:
    svg = str(qr_svg('https://x.example/?a="b"&c=<d>'))
    assert ET.fromstring(svg).get("aria-label") == 'https://x.example/?a="b"&c=<d>'
    assert "<d>" not in svg


# ---- The pad's rows ------------------------------------------------------------------------


def divided_sums(tree: object) -> int:
    """How many ``sum // number`` (the sum of more than one part) a formula tree holds."""
    if not isinstance(tree, dict) or "op" not in tree:
        return 0
    own = tree["op"] == "//" and "op" in tree["a"][0] and "n" in tree["a"][1]
    return own + sum(divided_sums(child) for child in tree["a"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", sorted(CALCS))
def test_the_pad_has_every_line_the_sheet_has(calc_id: str, lang: str) -> None:
    calc, t = CALCS[calc_id], Labels(REAL_SITE, lang)
    rows = pad_rows(calc, lang, t)
    shown = [term.id for term in calc.terms if term.helper != "hidden"]
    assert [r.id for r in rows if r.kind == "input"] == [i.id for i in calc.inputs]
    assert [r.id for r in rows if r.kind == "line"] == shown
    compiled = {term["id"]: term for term in MODELS[calc_id]["terms"]}
    for term_id in shown:
        subtotal = [i for i, r in enumerate(rows) if r.kind == "subtotal" and r.id == term_id]
        if compiled[term_id]["kind"] == "formula" and divided_sums(compiled[term_id]["tree"]):
            # The sum first, on its own row; then the line, saying to divide it.
            line = next(i for i, r in enumerate(rows) if r.kind == "line" and r.id == term_id)
            assert subtotal == [line - 1] and "÷" in str(rows[line].hint)
        else:
            assert subtotal == []


def test_nations_pad_adds_the_resources_before_dividing() -> None:
    """The issue's own case, if the game is still in data/: the six resources' total, then ÷ 10,
    and the book comparison with how it scores."""
    if "nations" not in CALCS:
        pytest.skip("no Nations in data/")
    rows = {(r.kind, r.id): r for r in pad_rows(CALCS["nations"], "en", Labels(REAL_SITE, "en"))}
    resources = [t for t in CALCS["nations"].terms if t.id == "resources"]
    if resources:
        total = str(rows[("subtotal", "resources")].label)
        labels = [i.label.get("en") for i in CALCS["nations"].inputs]
        assert sum(name in total for name in labels) >= 6 and total.count("+") >= 5
    assert rows[("line", "book_comparison")].hint


def test_a_qr_code_only_with_a_site_address() -> None:
    project = Project(REPO)
    catalog = load_catalog(project)
    plain = render_pages(project, catalog)
    with_address = render_pages(project, catalog, ADDRESS)
    for calc_id, game in GAME_OF.items():
        for lang in LANGS:
            path = f"{lang}/{registry.kind('score').source_path(game.slug)}"
            assert "<svg" not in plain[path] and 'class="rs-print"' in plain[path]
            assert f'aria-label="{address_of(calc_id, lang)}"' in with_address[path]
    # Pages without a calculator are the same either way.
    assert {p for p in plain if plain[p] != with_address[p]} == {
        f"{lang}/{registry.kind('score').source_path(g.slug)}"
        for g in CATALOG.games
        if g.scoring
        for lang in LANGS
    }


# ---- On paper, in Chromium -----------------------------------------------------------------


@pytest.fixture(scope="module")
def addressed_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real data built with a site address (so with QR codes), served."""
    root = make_project(tmp_path_factory.mktemp("qr") / "project", real_games(), True)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RULESITE_SITE_URL", ADDRESS)
        build(Project(root))
    with serve_site(Project(root).site_dir) as url:
        yield url


@pytest.fixture
def phone(shared_phone):
    """The worker's one phone page, storage and print media cleared for each test
    (tests/conftest.py); no script error may happen on it."""
    yield shared_phone
    assert shared_phone.problems == []


def display(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "n => n.map(e => getComputedStyle(e).display)")


def score_page(url: str, lang: str, calc_id: str) -> str:
    return url + LANGS[lang] + registry.kind("score").url(GAME_OF[calc_id].slug)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", sorted(CALCS))
def test_an_empty_sheet_prints_the_pad_with_its_qr_code(
    phone, addressed_site, lang: str, calc_id: str
) -> None:
    phone.goto(score_page(addressed_site, lang, calc_id))
    block = f".rs-print[data-calculator='{calc_id}']"
    assert display(phone, block) == ["none"]  # nothing of it on screen
    phone.emulate_media(media="print")
    assert display(phone, f".rs-calc[data-calculator='{calc_id}']") == ["none"]
    assert display(phone, f"{block} .rs-pad") == ["table"]
    assert phone.locator(f"{block} .rs-print__sheet").is_hidden()
    rows = phone.locator(f"{block} .rs-pad tr[data-pad-row]")
    names = rows.evaluate_all("r => r.map(x => x.getAttribute('data-pad-row'))")
    body = [f"{r.kind}:{r.id}" for r in pad_rows(CALCS[calc_id], lang, Labels(REAL_SITE, lang))]
    assert names == [*body, "total"] + (["rank"] if CALCS[calc_id].declare_winner else [])
    assert all(r.is_visible() for r in rows.all())
    # A blank cell per player up to the game's most.
    cells = phone.locator(f"{block} .rs-pad tbody tr[data-pad-row] td")
    assert cells.count() == len(body) * CALCS[calc_id].players.max
    qr = phone.locator(f"{block} svg.rs-pad__qr")
    assert qr.is_visible() and qr.get_attribute("aria-label") == address_of(calc_id, lang)
    assert phone.locator(f"{block} .rs-pad__url").text_content() == address_of(calc_id, lang)
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 60  # 24 mm: large enough to scan


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", sorted(CALCS))
def test_a_filled_sheet_prints_as_typed_with_its_result(
    phone, site_url, lang: str, calc_id: str
) -> None:
    phone.goto(score_page(site_url, lang, calc_id))
    phone.locator(f".rs-calc__examples[data-calculator='{calc_id}'] button").first.click()
    calc = f".rs-calc[data-calculator='{calc_id}']"
    typed = phone.locator(f"{calc} .rs-calc__input").evaluate_all("n => n.map(i => i.value)")
    result = phone.locator(f"{calc} .rs-calc__result").text_content()
    phone.emulate_media(media="print")
    block = f".rs-print[data-calculator='{calc_id}']"
    assert phone.locator(f"{block} .rs-pad").first.is_hidden()
    sheet = phone.locator(f"{block} .rs-print__sheet")
    assert sheet.is_visible()
    example = CALCS[calc_id].examples[0]
    totals = sheet.locator("tr[data-print-row='total'] td").evaluate_all(
        "c => c.map(x => x.textContent)"
    )
    assert totals == [str(t) for t in example.totals]
    values = sheet.locator("tr[data-print-row^='input:'] td").evaluate_all(
        "c => c.map(x => x.textContent)"
    )
    assert set(values) - {""} <= set(typed) and any(values)
    if result:
        assert sheet.locator(".rs-print__result").text_content() == result
    # Without a site address (the default build) the pad has no QR code.
    assert phone.locator(f"{block} svg").count() == 0
    # The screen's sheet is untouched.
    phone.emulate_media(media="screen")
    assert phone.locator(f"{calc} .rs-calc__input").evaluate_all("n => n.map(i => i.value)") == (
        typed
    )
    assert display(phone, block) == ["none"]


HEAD_LINES = """heads => heads.map(head => {
  const range = document.createRange();
  range.selectNodeContents(head);
  const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
  return [head.textContent, tops.size, parseFloat(getComputedStyle(head).fontSize)];
})"""
"""Each column head of a pad: its text, the lines it takes, its font size."""


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("calc_id", sorted(CALCS))
def test_the_pad_column_heads_stay_on_one_line_at_a_phone_width(
    phone, site_url, lang: str, calc_id: str
) -> None:
    phone.goto(score_page(site_url, lang, calc_id))
    phone.emulate_media(media="print")
    heads = f".rs-print[data-calculator='{calc_id}'] .rs-pad thead th"
    at_phone = phone.eval_on_selector_all(heads, HEAD_LINES)
    assert len(at_phone) == CALCS[calc_id].players.max + 1
    assert [text for text, lines, _ in at_phone if lines != 1] == [], at_phone
    # Paper is wider than a phone: there the heads keep the pad's own size (history.css).
    phone.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 px per inch
    try:
        at_a4 = phone.eval_on_selector_all(heads, HEAD_LINES)
    finally:
        phone.set_viewport_size({"width": 360, "height": 740})
    assert all(abs(size - 9.5 * 4 / 3) < 0.01 for _, _, size in at_a4), at_a4  # 9.5pt
