"""The calculator page in headless Chromium: parity with Python, state, sharing, bad input."""

from __future__ import annotations

import json
import random

import pytest

from rulesite.scoring.engine import score
from tests.helpers import PHONE, SCHEMES
from tests.site_checks import REAL_SITE, label
from tests.test_scoring_engine import CALCULATORS, CATALOG, MODELS, random_players

pytestmark = pytest.mark.browser

PAGES = {calc.id: f"games/{game.slug}/score/" for game in CATALOG.games for calc in game.scoring}
"""The score page of every calculator in data/."""
RANKED = "nations"
"""The calculator the state, sharing and bad-input tests drive: a number line (``vp``,
``stability``) and a rank line (``order``). Its page and examples are read from data/."""
RANKED_PAGE = PAGES[RANKED]
RANKED_FIRST_TOTALS = [str(total) for total in CALCULATORS[RANKED].examples[0].totals]
RANKED_CALC = f".rs-calc[data-calculator='{RANKED}']"
RANKED_EXAMPLES = f".rs-calc__examples[data-calculator='{RANKED}'] button"
SAVED = f"rulesite:calc:v1:{RANKED}"
"""Where the page keeps the ranked calculator's sheet."""
RANKED_SHARE_URL = f'document.querySelector("{RANKED_CALC}").rsCalculator.shareUrl()'


@pytest.fixture
def phone(shared_phone):
    """The worker's one phone page, storage cleared for each test (tests/conftest.py)."""
    return shared_phone


def page_model(page, calc_id: str) -> dict:
    return page.evaluate(
        "id => JSON.parse(document.querySelector(`.rs-calc[data-calculator='${id}']`)"
        ".getAttribute('data-model'))",
        calc_id,
    )


def js_scores(page, calc_id: str, cases: list[tuple[list[dict], dict]]) -> list[dict]:
    """The page's engine on every (players, settings) case, with the model the page carries: one
    call into the page for all of them (a call each made this test the suite's slowest)."""
    return page.evaluate(
        "([id, cases]) => {"
        " const model = JSON.parse(document.querySelector("
        "`.rs-calc[data-calculator='${id}']`).getAttribute('data-model')).model;"
        " return cases.map(([players, settings]) =>"
        " window.RulesiteScore.score(model, players, settings)); }",
        [calc_id, cases],
    )


def setting_values(setting: dict) -> list:
    """Every value a setting of the compiled model can take (a yes/no setting has no options)."""
    return setting["options"] if setting["kind"] == "choice" else [True, False]


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_browser_and_python_agree(shared_page, site_url, calc_id: str) -> None:
    shared_page.goto(site_url + PAGES[calc_id])
    assert page_model(shared_page, calc_id)["model"] == json.loads(json.dumps(MODELS[calc_id]))
    rng = random.Random(calc_id)
    cases = [(e.players, e.settings) for e in CALCULATORS[calc_id].examples]
    for _ in range(100):
        settings = {s["id"]: rng.choice(setting_values(s)) for s in MODELS[calc_id]["settings"]}
        cases.append((random_players(calc_id, rng), settings))
    for (players, settings), got in zip(cases, js_scores(shared_page, calc_id, cases), strict=True):
        assert got == score(MODELS[calc_id], players, settings).as_json(), players


def say(key: str, lang: str = "en", **values: object) -> str:
    """The site's label ``key`` (English unless said), filled: tests of behaviour compose what
    the page says from data/site.yaml, so rewording a label breaks only the wording's own test."""
    return label(REAL_SITE, key, lang, **{k: str(v) for k, v in values.items()})


def player_name(n: int) -> str:
    """The default name of the ``n``-th player (from 1) on the English page."""
    return say("calc_player_default", n=n)


def broken_by(calc_id: str) -> str:
    """What the English page says after the winner when the calculator's tie-breaker decided."""
    by = say("calc_then").join(t.label["en"] for t in CALCULATORS[calc_id].tiebreakers)
    return say("calc_tie_broken", by=by)


def winner(name: str, *after: str) -> str:
    """The English result line: the winner, then what decided (the page joins with a space)."""
    return " ".join([say("calc_winner_line", names=name), *after])


def cell(page, calc_id: str, field: str, player: int):
    return page.locator(
        f".rs-calc[data-calculator='{calc_id}'] [data-field='{field}'][data-player='{player}']"
    )


def total(page, calc_id: str, player: int) -> str:
    return page.locator(
        f".rs-calc[data-calculator='{calc_id}'] [data-total='{player}']"
    ).inner_text()


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_every_worked_example_through_the_page(shared_page, site_url, calc_id: str) -> None:
    shared_page.goto(site_url + PAGES[calc_id])
    root = f".rs-calc__examples[data-calculator='{calc_id}'] button"
    for index, example in enumerate(CALCULATORS[calc_id].examples):
        shared_page.locator(root).nth(index).click()
        totals = [total(shared_page, calc_id, i) for i in range(len(example.players))]
        assert totals == [str(t) for t in example.totals], example.id
    assert shared_page.problems == []


def test_typing_updates_totals_and_the_winner_line(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/games/clans-of-caledonia/score/")
    calc = "clans-of-caledonia"
    shared_page.select_option("#rs-count-clans-of-caledonia", "3")
    for player, (contracts, settlements) in enumerate([(5, 4), (5, 2), (3, 1)]):
        cell(shared_page, calc, "contracts", player).fill(str(contracts))
        cell(shared_page, calc, "settlements", player).fill(str(settlements))
    assert [total(shared_page, calc, i) for i in range(3)] == ["27", "21", "6"]
    assert shared_page.locator(".rs-calc__result").first.inner_text() == winner(player_name(1))
    shared_page.locator("[data-name='0']").first.fill("Ann")
    cell(shared_page, calc, "contracts", 2).fill("5")
    cell(shared_page, calc, "money", 0).fill("10")
    cell(shared_page, calc, "money", 1).fill("10")
    # three-way tie for contracts: (12 + 6 + 0) // 3 = 6 each; settlements 18/12/6; £10 = 1
    assert [total(shared_page, calc, i) for i in range(3)] == ["25", "19", "12"]
    assert shared_page.locator(".rs-calc__result").first.inner_text() == winner("Ann")


def test_undecided_tie_is_said_in_words(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/games/clans-of-caledonia/score/")
    shared_page.locator(".rs-calc__examples button").nth(3).click()
    names = say("calc_list_join").join(["Ann", "Bo"])
    assert shared_page.locator(".rs-calc__result").first.inner_text() == say(
        "calc_tie_undecided", names=names
    )
    shared_page.locator(".rs-calc__examples button").nth(2).click()
    assert shared_page.locator(".rs-calc__result").first.inner_text() == winner(
        "Ann", broken_by("clans-of-caledonia")
    )


def test_state_survives_a_reload(shared_page, site_url) -> None:
    shared_page.goto(site_url + "games/its-a-wonderful-world/score/")
    calc = "its-a-wonderful-world"
    cell(shared_page, calc, "card_vp", 0).fill("31")
    shared_page.locator("[data-name='0']").first.fill("安")
    shared_page.reload()
    assert cell(shared_page, calc, "card_vp", 0).input_value() == "31"
    assert shared_page.locator("[data-name='0']").first.input_value() == "安"
    assert total(shared_page, calc, 0) == "31"


def test_share_link_carries_the_state_to_another_device(browser, shared_page, site_url) -> None:
    shared_page.goto(site_url + RANKED_PAGE)
    shared_page.locator(RANKED_EXAMPLES).first.click()
    link = shared_page.evaluate(RANKED_SHARE_URL)
    shared_page.locator(RANKED_CALC + " [data-action='share']").click()
    other = browser.new_context()  # a fresh profile: nothing in localStorage
    fresh = other.new_page()
    fresh.goto(link)
    assert [total(fresh, RANKED, i) for i in range(3)] == RANKED_FIRST_TOTALS
    assert fresh.locator("[data-name='0']").first.input_value() == "Ann"
    other.close()


def test_changing_player_count_keeps_entered_values(shared_page, site_url) -> None:
    shared_page.goto(site_url + "games/clans-of-caledonia/score/")
    calc = "clans-of-caledonia"
    shared_page.select_option("#rs-count-clans-of-caledonia", "4")
    cell(shared_page, calc, "honor", 3).fill("17")
    shared_page.select_option("#rs-count-clans-of-caledonia", "2")
    assert not cell(shared_page, calc, "honor", 3).is_visible()
    shared_page.select_option("#rs-count-clans-of-caledonia", "4")
    assert cell(shared_page, calc, "honor", 3).input_value() == "17"
    options = shared_page.locator("#rs-count-clans-of-caledonia option").all_inner_texts()
    assert options == ["2", "3", "4"]


@pytest.mark.parametrize("bad", ["abc", "-3", "1.5", "99999"])
def test_bad_input_shows_an_inline_message_never_nan(shared_page, site_url, bad: str) -> None:
    shared_page.goto(site_url + "en/games/its-a-wonderful-world/score/")
    calc = "its-a-wonderful-world"
    cell(shared_page, calc, "card_vp", 0).fill("10")
    cell(shared_page, calc, "generals", 0).fill(bad)
    assert cell(shared_page, calc, "generals", 0).get_attribute("aria-invalid") == "true"
    errors = shared_page.locator(".rs-calc__errors").first.inner_text()
    generals = next(i for i in CALCULATORS[calc].inputs if i.id == "generals")
    field = say("calc_field_label", player=player_name(1), field=generals.label["en"])
    assert say("calc_invalid", field=field, min=generals.min, max=generals.max) in errors
    body = shared_page.locator(".rs-calc").first.inner_text()
    assert "NaN" not in body and total(shared_page, calc, 0) == "—"
    cell(shared_page, calc, "generals", 0).fill("")
    assert total(shared_page, calc, 0) == "10"  # empty counts as 0
    assert shared_page.locator(".rs-calc__errors").first.inner_text() == ""


def test_negative_values_where_allowed_and_sign_button(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    calc = RANKED
    cell(shared_page, calc, "order", 0).fill("1")
    cell(shared_page, calc, "order", 1).fill("2")
    cell(shared_page, calc, "stability", 0).fill("12")
    shared_page.locator("[data-sign='stability:0']").click()
    assert cell(shared_page, calc, "stability", 0).input_value() == "-12"
    assert shared_page.locator(".rs-calc__errors").first.inner_text() == ""
    cell(shared_page, calc, "order", 1).fill("1")
    assert (
        "each player needs a different value"
        in shared_page.locator(".rs-calc__errors").first.inner_text()
    )


def test_player_names_are_text_never_html(page, site_url) -> None:
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(site_url + "en/games/its-a-wonderful-world/score/")
    hostile = '<img src=x onerror="alert(1)">'
    page.locator("[data-name='0']").first.fill(hostile)
    cell(page, "its-a-wonderful-world", "card_vp", 0).fill("5")
    assert page.locator(".rs-calc__result").first.inner_text() == f"Winner: {hostile}."
    assert page.locator(".rs-calc img").count() == 0 and dialogs == []
    label = cell(page, "its-a-wonderful-world", "card_vp", 0).get_attribute("aria-label")
    assert label == f"{hostile}: Card VP"


def test_reset_asks_first(page, site_url) -> None:
    page.goto(site_url + "games/its-a-wonderful-world/score/")
    calc = "its-a-wonderful-world"
    cell(page, calc, "built", 0).fill("12")
    page.once("dialog", lambda d: d.dismiss())
    page.locator("[data-action='reset']").click()
    assert cell(page, calc, "built", 0).input_value() == "12"
    page.once("dialog", lambda d: d.accept())
    page.locator("[data-action='reset']").click()
    assert cell(page, calc, "built", 0).input_value() == ""


@pytest.mark.parametrize(
    "state",
    ["%%%", "eyJjb3VudCI6OTl9", "PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg", "A" * 30000],
    ids=["garbage", "count-99", "script", "oversized"],
)
def test_hostile_fragment_is_ignored_with_a_notice(page, site_url, state: str) -> None:
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(
        site_url + "en/games/its-a-wonderful-world/score/#score-its-a-wonderful-world=" + state
    )
    message = page.locator(".rs-calc__message").first.inner_text()
    assert message == say("calc_state_ignored")
    cell(page, "its-a-wonderful-world", "card_vp", 0).fill("7")
    assert total(page, "its-a-wonderful-world", 0) == "7"
    assert dialogs == [] and page.problems == []


def test_hostile_local_storage_is_ignored(shared_page, site_url) -> None:
    shared_page.goto(site_url + RANKED_PAGE)
    shared_page.evaluate(
        f"localStorage.setItem('{SAVED}', JSON.stringify({{count: 2, names: [{{}}], values: 'x'}}))"
    )
    shared_page.reload()
    assert (
        say("calc_state_ignored", "zh")
        in shared_page.locator(".rs-calc__message").first.inner_text()
    )
    assert shared_page.problems == []


def test_inputs_are_labelled_for_screen_readers_and_keyboard(shared_page, site_url) -> None:
    shared_page.goto(site_url + "games/clans-of-caledonia/score/")
    first = cell(shared_page, "clans-of-caledonia", "honor", 0)
    assert first.get_attribute("aria-label") == "玩家1：荣誉"
    assert first.get_attribute("inputmode") == "numeric"
    first.focus()
    shared_page.keyboard.type("12")
    shared_page.keyboard.press("Tab")
    shared_page.keyboard.type("3")
    assert cell(shared_page, "clans-of-caledonia", "honor", 1).input_value() == "3"
    assert total(shared_page, "clans-of-caledonia", 0) != "NaN"


@pytest.mark.parametrize("lang", ["", "en/"])
def test_score_page_fits_a_phone(phone, site_url, lang: str) -> None:
    phone.goto(site_url + lang + RANKED_PAGE)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def random_formula(rng: random.Random, depth: int = 0) -> str:
    if depth > 4 or rng.random() < 0.3:
        return rng.choice(["a", "b", "c", str(rng.randint(0, 99))])
    left, right = random_formula(rng, depth + 1), random_formula(rng, depth + 1)
    return rng.choice(
        [
            f"{left} + {right}",
            f"{left} - {right}",
            f"{left} * {right}",
            f"{left} // {rng.randint(1, 12)}",
            f"-{left}",
            f"({left})",
            f"min({left}, {right})",
            f"max({left}, {right}, {random_formula(rng, depth + 1)})",
        ]
    )


def test_random_formulas_evaluate_identically_in_both_runtimes(shared_page, site_url) -> None:
    from rulesite.scoring.expr import FormulaError, evaluate, names, parse

    shared_page.goto(site_url + RANKED_PAGE)
    rng = random.Random(20261130)
    cases = []
    while len(cases) < 400:
        text = random_formula(rng)
        if rng.random() < 0.1:  # some broken ones: they must fail cleanly in Python
            text = text[: rng.randint(0, len(text))] + rng.choice(["(", ")", "//0", "$", ","])
        try:
            tree = parse(text)
        except FormulaError:
            continue
        env = {name: rng.randint(-999, 999) for name in names(tree)}
        cases.append((text, tree, env, evaluate(tree, env)))
    results = shared_page.evaluate(
        "cases => cases.map(([tree, env]) => window.RulesiteScore.evaluate(tree, env))",
        [[tree, env] for _, tree, env, _ in cases],
    )
    mismatches = [
        (text, env, want, got)
        for (text, _, env, want), got in zip(cases, results, strict=True)
        if want != got
    ]
    assert mismatches == []


def test_blank_turn_order_follows_the_columns(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("5")
    cell(shared_page, RANKED, "vp", 1).fill("5")
    assert cell(shared_page, RANKED, "order", 1).get_attribute("placeholder") == "2"
    assert shared_page.locator(".rs-calc__errors").first.inner_text() == ""
    assert shared_page.locator(".rs-calc__result").first.inner_text() == winner(
        player_name(1), broken_by(RANKED)
    )


def test_empire_face_is_offered_only_in_solo(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/games/its-a-wonderful-world/score/")
    face = shared_page.locator("select[data-setting='side']")
    assert not face.is_visible()  # two players by default: the face changes nothing
    shared_page.select_option("#rs-count-its-a-wonderful-world", "1")
    assert face.is_visible()
    cell(shared_page, "its-a-wonderful-world", "card_vp", 0).fill("40")
    assert total(shared_page, "its-a-wonderful-world", 0) == "25"
    face.select_option("b")
    assert total(shared_page, "its-a-wonderful-world", 0) == "40"


# ---- Fits the hand (issue 11, item 3): fields, keypad, sign, full-width digits, focus ----------


def test_fields_are_16px_so_phones_do_not_zoom(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    sizes = shared_page.evaluate(
        "[...document.querySelectorAll('.rs-calc input:not([type=checkbox]), .rs-calc select')]"
        ".filter(e => e.offsetParent).map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert len(sizes) > 10 and min(sizes) >= 16


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_every_field_asks_for_the_numeric_keypad(shared_page, site_url, calc_id: str) -> None:
    shared_page.goto(site_url + PAGES[calc_id])
    modes = shared_page.evaluate(
        "id => [...document.querySelectorAll(`.rs-calc[data-calculator='${id}'] [data-field]`)]"
        ".map(e => e.getAttribute('inputmode'))",
        calc_id,
    )
    assert modes and set(modes) == {"numeric"}
    negative = [i["id"] for i in MODELS[calc_id]["inputs"] if i["min"] < 0]
    for field in negative:  # the keypad has no minus key: a ± button beside each such cell
        assert shared_page.locator(f"[data-sign='{field}:0']").count() == 1


def test_sign_on_a_blank_cell_does_nothing(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("5")
    shared_page.locator("[data-sign='stability:0']").click()
    assert cell(shared_page, RANKED, "stability", 0).input_value() == ""
    assert cell(shared_page, RANKED, "stability", 0).get_attribute("aria-invalid") == "false"
    assert total(shared_page, RANKED, 0) == "5"
    assert shared_page.locator(".rs-calc__errors").first.inner_text() == ""


def test_a_lone_minus_typed_before_its_digits_is_not_an_error(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("5")
    cell(shared_page, RANKED, "stability", 0).fill("-")
    assert total(shared_page, RANKED, 0) == "5"
    cell(shared_page, RANKED, "stability", 0).fill("-3")
    assert cell(shared_page, RANKED, "stability", 0).get_attribute("aria-invalid") == "false"


def test_full_width_digits_are_read(shared_page, site_url) -> None:
    shared_page.goto(site_url + "games/its-a-wonderful-world/score/")
    cell(shared_page, "its-a-wonderful-world", "card_vp", 0).fill("３１")
    assert cell(shared_page, "its-a-wonderful-world", "card_vp", 0).get_attribute(
        "aria-invalid"
    ) == ("false")
    assert total(shared_page, "its-a-wonderful-world", 0) == "31"
    shared_page.goto(site_url + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("１２")
    cell(shared_page, RANKED, "stability", 0).fill("－２")
    cell(shared_page, RANKED, "vp", 1).fill("3")
    assert shared_page.locator(".rs-calc__errors").first.inner_text() == ""
    assert total(shared_page, RANKED, 0) != "—"


@pytest.mark.parametrize("second", ["1", ""], ids=["typed", "blank-is-column-2"])
def test_cells_in_a_conflict_are_marked(shared_page, site_url, second: str) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("5")
    cell(shared_page, RANKED, "order", 0).fill("1" if second else "2")
    cell(shared_page, RANKED, "order", 1).fill(second)
    marked = [cell(shared_page, RANKED, "order", p).get_attribute("aria-invalid") for p in (0, 1)]
    assert marked == ["true", "true"]
    assert (
        "each player needs a different value"
        in shared_page.locator(".rs-calc__errors").first.inner_text()
    )
    outline = cell(shared_page, RANKED, "order", 1).evaluate(
        "e => getComputedStyle(e).outlineStyle"
    )
    assert outline != "none"


def test_keyboard_focus_is_visible(shared_page, site_url) -> None:
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).focus()
    shared_page.keyboard.press("Tab")
    style = shared_page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.dataset.field, s.outlineStyle, s.outlineWidth,"
        " s.boxShadow]; })()"
    )
    field, outline_style, outline_width, shadow = style
    assert field == "vp"
    assert (outline_style != "none" and float(outline_width[:-2]) >= 2) or shadow != "none"


def test_tap_targets_are_at_least_24px(phone, site_url) -> None:
    """Buttons, fields and the rows' rule links; a checkbox's label is part of its target."""
    for path in sorted(set(PAGES.values())):
        phone.goto(site_url + path)
        boxes = phone.evaluate(
            "[...document.querySelectorAll('.rs-calc button, .rs-calc__try, .rs-calc a,"
            " .rs-calc input, .rs-calc select')].filter(e => e.offsetParent"
            " && e.type !== 'checkbox').map(e => { const r = e.getBoundingClientRect();"
            " return [e.className || e.tagName, r.width, r.height]; })"
        )
        small = [b for b in boxes if b[1] < 24 or b[2] < 24]
        assert boxes and small == [], path


@pytest.mark.parametrize("lang", ["", "en/"])
def test_first_cell_is_a_few_tabs_away(shared_page, site_url, lang: str) -> None:
    """Tab to the theme's "Skip to content" link, Enter, then Tab on to the first score cell."""
    shared_page.goto(site_url + lang + RANKED_PAGE)
    shared_page.keyboard.press("Tab")
    shared_page.keyboard.press("Enter")
    presses = 1
    while presses < 30 and shared_page.evaluate("document.activeElement.dataset.field") is None:
        shared_page.keyboard.press("Tab")
        presses += 1
    assert shared_page.evaluate("document.activeElement.dataset.player") == "0"
    assert presses <= 5


# ---- Sheets are never lost (issue 11, item 4) --------------------------------------------------


def saved_sheet(page) -> dict | None:
    text = page.evaluate(f"localStorage.getItem('{SAVED}')")
    return None if text is None else json.loads(text)


_FRIENDS_LINKS: dict[str, str] = {}
"""The friend's link for each site address, made once in a worker (a link is only text)."""


def share_link_of_an_example(browser, site_url: str) -> str:
    """A friend's share link: the first Nations example, made on another device."""
    if site_url not in _FRIENDS_LINKS:
        other = browser.new_context()
        friend = other.new_page()
        friend.goto(site_url + "en/" + RANKED_PAGE)
        friend.locator(RANKED_EXAMPLES).first.click()
        _FRIENDS_LINKS[site_url] = friend.evaluate(RANKED_SHARE_URL)
        other.close()
    return _FRIENDS_LINKS[site_url]


def test_share_link_opens_beside_the_saved_sheet(browser, shared_page, site_url) -> None:
    link = share_link_of_an_example(browser, site_url)
    shared_page.goto(site_url + "en/" + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("7")
    shared_page.locator("[data-name='0']").first.fill("Mine")
    shared_page.goto(link)
    bar = shared_page.locator(RANKED_CALC + " .rs-calc__shared")
    assert bar.is_visible() and "Shared sheet" in bar.inner_text()
    assert shared_page.locator("[data-name='0']").first.input_value() == "Ann"
    assert "score-" not in shared_page.evaluate(
        "location.hash"
    )  # the fragment is read, then cleared
    assert saved_sheet(shared_page)["names"][0] == "Mine"  # nothing written before "Keep it"
    cell(shared_page, RANKED, "vp", 1).fill("40")  # editing the shared sheet still saves nothing
    assert saved_sheet(shared_page)["values"]["vp"][0] == "7"
    shared_page.reload()  # the shared sheet (with its edit) stays on screen, still beside mine
    assert bar.is_visible() and cell(shared_page, RANKED, "vp", 1).input_value() == "40"
    shared_page.locator(RANKED_CALC + " [data-action='drop-shared']").click()
    assert not bar.is_visible()
    assert shared_page.locator("[data-name='0']").first.input_value() == "Mine"
    assert cell(shared_page, RANKED, "vp", 0).input_value() == "7"
    shared_page.reload()
    assert not bar.is_visible() and cell(shared_page, RANKED, "vp", 0).input_value() == "7"
    assert shared_page.problems == []


def test_keeping_a_shared_sheet_replaces_the_saved_one(browser, shared_page, site_url) -> None:
    link = share_link_of_an_example(browser, site_url)
    shared_page.goto(site_url + RANKED_PAGE)
    cell(shared_page, RANKED, "vp", 0).fill("7")
    shared_page.goto(link)
    shared_page.locator(RANKED_CALC + " [data-action='keep-shared']").click()
    assert not shared_page.locator(RANKED_CALC + " .rs-calc__shared").is_visible()
    assert saved_sheet(shared_page)["names"][0] == "Ann"
    shared_page.reload()
    assert shared_page.locator("[data-name='0']").first.input_value() == "Ann"
    assert not shared_page.locator(RANKED_CALC + " .rs-calc__shared").is_visible()


def test_edits_to_a_shared_sheet_survive_a_reload(browser, shared_page, site_url) -> None:
    link = share_link_of_an_example(browser, site_url)
    fresh = shared_page  # its storage cleared: nothing saved, so the shared sheet becomes it
    fresh.goto(link)
    assert not fresh.locator(RANKED_CALC + " .rs-calc__shared").is_visible()
    assert "score-" not in fresh.evaluate("location.hash")
    cell(fresh, RANKED, "vp", 0).fill("99")
    fresh.reload()
    assert cell(fresh, RANKED, "vp", 0).input_value() == "99"


def test_loading_an_example_asks_before_replacing_a_sheet(page, site_url) -> None:
    dialogs = []

    def answer(dialog, accept: bool) -> None:
        dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.goto(site_url + "en/" + RANKED_PAGE)
    examples = page.locator(RANKED_EXAMPLES)
    cell(page, RANKED, "vp", 0).fill("7")
    page.once("dialog", lambda d: answer(d, False))
    examples.first.click()
    assert dialogs == [say("calc_example_confirm")]
    assert cell(page, RANKED, "vp", 0).input_value() == "7"
    assert saved_sheet(page)["values"]["vp"][0] == "7"
    page.once("dialog", lambda d: answer(d, True))
    examples.first.click()
    assert len(dialogs) == 2 and page.locator("[data-name='0']").first.input_value() == "Ann"
    examples.nth(1).click()  # an example as loaded can be loaded again: no question
    assert len(dialogs) == 2


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_three_players_fit_a_phone_and_names_and_totals_stay_in_view(
    phone, site_url, calc_id: str
) -> None:
    phone.goto(site_url + "en/" + PAGES[calc_id])
    low, high = MODELS[calc_id]["players"]
    count = min(max(low, 3), high)
    phone.select_option(f"#rs-count-{calc_id}", str(count))
    cells = phone.locator(f".rs-calc[data-calculator='{calc_id}'] [data-column]")
    rights = cells.evaluate_all(
        "cs => cs.filter(c => c.offsetParent).map(c => c.getBoundingClientRect().right)"
    )
    assert rights and max(rights) <= 360  # every column on screen: nothing to scroll sideways
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    first_field = MODELS[calc_id]["inputs"][0]["id"]
    cell(phone, calc_id, first_field, count - 1).fill("3")
    last_field = MODELS[calc_id]["inputs"][-1]["id"]
    cell(phone, calc_id, last_field, count - 1).focus()  # typing far down the sheet
    header = phone.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    # The column's head (its player's name) stays under the header, and the result panel (each
    # player's total) at the bottom of the screen.
    name = phone.locator(f".rs-calc[data-calculator='{calc_id}'] thead [data-column='{count - 1}']")
    panel = phone.locator(f".rs-calc[data-calculator='{calc_id}'] .rs-calc__panel")
    out = panel.locator(f"[data-standing='{count - 1}'] .rs-calc__standing-total")
    top, bottom = name.bounding_box()["y"], out.bounding_box()["y"] + out.bounding_box()["height"]
    assert header - 1 <= top and bottom <= PHONE["height"], (header, top, bottom)
    assert out.inner_text() == total(phone, calc_id, count - 1)
    cell(phone, calc_id, first_field, 0).focus()  # and near the top: the totals still show
    phone.evaluate("window.scrollBy(0, 40)")
    box = out.bounding_box()
    assert header <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box


def test_help_waits_behind_a_tap_on_a_phone(phone, shared_page, site_url) -> None:
    phone.goto(site_url + "en/" + RANKED_PAGE)
    row = phone.locator(RANKED_CALC + " tbody tr").filter(has=phone.locator("[data-field='vp']"))
    help_text, toggle = row.locator(".rs-calc__help"), row.locator(".rs-calc__help-toggle")
    assert not help_text.is_visible()
    assert toggle.get_attribute("aria-label") == "VP tokens: explanation"
    toggle.click()
    assert help_text.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    assert not help_text.is_visible()
    shared_page.goto(site_url + "en/" + RANKED_PAGE)  # a wide screen shows it, no button
    assert shared_page.locator(RANKED_CALC + " .rs-calc__help").first.is_visible()
    assert not shared_page.locator(RANKED_CALC + " .rs-calc__help-toggle").first.is_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_shared_bar_and_open_help_have_no_serious_accessibility_violations(
    browser, shared_phone, site_url, axe_script, scheme: str
) -> None:
    from tests.test_accessibility import scheme_rules, serious_violations

    link = share_link_of_an_example(browser, site_url)
    # The worker's phone, its storage cleared (nothing saved, as in a new profile); the scheme
    # asked for is emulated (undone for the next test), and the dark one gets axe's colour
    # rules, as in test_accessibility.py.
    phone = shared_phone
    phone.emulate_media(color_scheme=scheme)
    phone.goto(site_url + "en/" + RANKED_PAGE)
    cell(phone, RANKED, "vp", 0).fill("7")
    phone.goto(site_url + RANKED_PAGE)
    phone.goto(link)
    assert phone.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]
    assert phone.locator(RANKED_CALC + " .rs-calc__shared").is_visible()
    phone.locator(RANKED_CALC + " .rs-calc__help-toggle").first.click()
    assert serious_violations(phone, axe_script, scheme_rules(scheme)) == []
