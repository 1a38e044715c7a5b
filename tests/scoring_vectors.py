"""The shared scoring vectors: compiled models, inputs and the results both engines must give.

``tests/data/scoring-vectors.json`` is run by pytest (``tests/test_scoring_vectors.py``, the
Python engine) and by Node (``tests/js/scoring-engine.test.js``, the page's engine). It holds
every worked example of the seed games (``SITE_CALCULATORS``) and of the scoring gallery,
hand-checked edge cases, and random calculators made of every kind of line. Regenerate it after a
change to the seed games, the gallery or the engine, and review the diff like code:

    .venv/bin/python -m tests.scoring_vectors --write

Edge cases carry results worked out by hand (``expect``); writing the file fails if the Python
engine disagrees with them, as it fails for a worked example that no longer comes out.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from rulesite.catalog import load_catalog
from rulesite.model import Calculator
from rulesite.model.lines import LINE_KINDS
from rulesite.project import Project
from rulesite.scoring.check import calculator_problems
from rulesite.scoring.compiler import compile_calculator
from rulesite.scoring.engine import Model, conflicts, score
from rulesite.scoring.schema import model_schema
from tests.helpers import REPO
from tests.projects import gallery_root

VECTORS = REPO / "tests" / "data" / "scoring-vectors.json"
GALLERY = gallery_root()
"""A copy of tests/fixtures/scoring-gallery with the real data/site.yaml (see tests/projects.py)."""
RANDOM_GAMES = 40
"""Random calculators in the file (each with a few random games)."""

Case = dict[str, Any]


# --- Calculators from data ----------------------------------------------------------------------


SITE_CALCULATORS = ("nations", "nations-books", "clans-of-caledonia", "its-a-wonderful-world")
"""The site's calculators the file holds: the seed games'. A game added to ``data/`` later does
not make the file stale; its worked examples run through the Python engine
(``tests/test_scoring_engine.py``) and the page's (``tests/test_calculator_browser.py``)."""


def project_calculators() -> list[Calculator]:
    """The seed calculators of the site's data and every calculator of the scoring gallery."""
    calculators = []
    for root in (REPO, GALLERY):
        if (root / "mkdocs.yml").is_file():
            catalog = load_catalog(Project(root))
            calculators += [
                calc
                for game in catalog.games
                for calc in game.scoring
                if root == GALLERY or calc.id in SITE_CALCULATORS
            ]
    return calculators


# --- Hand-written edge cases ---------------------------------------------------------------------

_LABEL = {"zh": "x", "en": "x"}


def calculator(calc_id: str, **fields: Any) -> Calculator:
    """A valid calculator from a few fields (labels, rules and examples filled in)."""
    calc = make_calculator(calc_id, **fields)
    problems = [p for p in calculator_problems(calc) if p[0][0] != "examples"]
    assert problems == [], (calc_id, problems)
    return calc


def make_calculator(calc_id: str, **fields: Any) -> Calculator:
    """A calculator from a few fields, checked for its record types only."""
    data: dict[str, Any] = {
        "id": calc_id,
        "title": _LABEL,
        "intro": _LABEL,
        "players": {"min": 1, "max": 6},
        "rule": "scoring",
        "when_tied": "shared",
        "examples": [
            {"id": "e", "note": _LABEL, "players": [{"name": "A"}], "totals": [0], "winners": ["A"]}
        ],
        **fields,
    }
    data["inputs"] = [{"label": _LABEL, "help": _LABEL, **spec} for spec in data["inputs"]]
    data["terms"] = [{"label": _LABEL, **term} for term in data["terms"]]
    data["settings"] = [{"label": _LABEL, **s} for s in data.get("settings", [])]
    for setting in data["settings"]:
        setting["options"] = [
            {"id": o, "label": _LABEL} for o in setting.get("options", [])
        ] or None
        if setting["options"] is None:
            del setting["options"]
    data["tiebreakers"] = [{"label": _LABEL, **tb} for tb in data.get("tiebreakers", [])]
    return Calculator.model_validate(data)


def rank_line(by: str, points: list[int], tie: str, **more: Any) -> dict[str, Any]:
    """A rank line's keys, with one award table for 1–6 players."""
    awards = [{"players": {"min": 1, "max": 6}, "points": points}]
    return {"rank": {"by": by, "awards": awards, "tie": tie, **more}}


def edge_calculators() -> list[Calculator]:
    """Calculators of the edge cases: the kinds' own (``LineKind.vectors``), then the rest."""
    kinds = [
        calculator(vector["id"], inputs=vector["inputs"], terms=vector["terms"])
        for kind in LINE_KINDS.values()
        for vector in kind.vectors
    ]
    x = {"id": "x", "max": 50}
    return [
        *kinds,
        calculator(
            "edge-missing-inputs",
            inputs=[
                {"id": "a", "max": 10},
                {"id": "b", "min": 2, "max": 5},
                {"id": "order", "min": 1, "max": 6, "unique": True},
            ],
            terms=[{"id": "t", "formula": "a + b"}],
            tiebreakers=[{"by": "order", "prefer": "lower"}],
        ),
        calculator(
            "edge-when",
            inputs=[x],
            settings=[
                {"id": "funded", "default": False},
                {"id": "side", "options": ["a", "b"], "default": "a"},
            ],
            terms=[
                {"id": "base", "formula": "x"},
                {"id": "bonus", "formula": "5", "when": "funded"},
                {"id": "solo", "formula": "-3 * side_b", "when": "max(0, 2 - players)"},
                {"id": "later", "formula": "bonus + solo"},
            ],
        ),
        calculator(
            "edge-helpers",
            inputs=[{"id": "a", "max": 9}, {"id": "b", "max": 9}],
            terms=[
                {"id": "sets", "formula": "min(a, b)", "helper": "shown"},
                {"id": "double", "formula": "2 * sets", "helper": "hidden"},
                {"id": "points", "formula": "double + a * b"},
            ],
            tiebreakers=[{"by": "sets", "prefer": "higher"}],
        ),
        calculator(
            "edge-conflicts",
            inputs=[
                {"id": "road", "max": 1, "at_most_one": True},
                {"id": "seat", "min": 1, "max": 6, "unique": True},
            ],
            terms=[{"id": "road_vp", "formula": "2 * road"}],
            when_tied="undecided",
        ),
        calculator(
            "edge-floor-and-zero",
            inputs=[{"id": "a", "min": -9, "max": 9}],
            terms=[{"id": "minus", "formula": "-a"}, {"id": "none", "formula": "0 * (0 - a)"}],
            total_min=0,
        ),
    ]


def kind_cases() -> list[Case]:
    """The line kinds' hand-worked cases (``LineKind.vectors``); players are named P0, P1..."""
    return [
        case(vector["id"], item["name"], players(*item["players"]), **{
            key: value for key, value in item.items() if key not in ("name", "players")
        })
        for kind in LINE_KINDS.values()
        for vector in kind.vectors
        for item in vector["cases"]
    ]  # fmt: skip


def edge_cases() -> list[Case]:
    """Inputs with results worked out by hand: totals, winners, and some lines."""
    p = players
    return [
        *kind_cases(),
        case("edge-missing-inputs", "missing-means-zero-or-range-or-position", p({}, {"a": 1}),
             totals=[2, 3], winners=["P1"], lines=[{"t": 2}, {"t": 3}]),
        case("edge-missing-inputs", "missing-turn-order-is-the-position", p({}, {}),
             totals=[2, 2], winners=["P0"], outcome="tiebreak"),
        case("edge-missing-inputs", "given-turn-order-wins-over-position", p({"order": 2}, {"order": 1}),  # noqa: E501
             totals=[2, 2], winners=["P1"]),
        case("edge-when", "unfunded-line-is-left-out", p({"x": 1}, {"x": 2}),
             totals=[1, 2], winners=["P1"], lines=[{"base": 1, "later": 0}, {"base": 2, "later": 0}],  # noqa: E501
             absent=["bonus", "solo"]),
        case("edge-when", "funded-yes", p({"x": 1}, {"x": 2}), settings={"funded": True},
             totals=[11, 12], winners=["P1"], lines=[{"bonus": 5, "later": 5}, {"bonus": 5, "later": 5}]),  # noqa: E501
        case("edge-when", "solo-line-only-alone", p({"x": 4}), settings={"side": "b"},
             totals=[-2], winners=["P0"], lines=[{"solo": -3, "later": -3}]),
        case("edge-when", "funded-no-is-false", p({"x": 4}), settings={"funded": False, "side": "a"},  # noqa: E501
             totals=[4], winners=["P0"], lines=[{"solo": 0, "later": 0}]),
        case("edge-helpers", "shown-helper-listed-hidden-not", p({"a": 2, "b": 3}, {"a": 3, "b": 1}),  # noqa: E501
             totals=[10, 5], winners=["P0"], helpers=[{"sets": 2}, {"sets": 1}],
             lines=[{"points": 10}, {"points": 5}], absent=["sets", "double"]),
        case("edge-helpers", "helper-breaks-the-tie", p({"a": 1, "b": 6}, {"a": 2, "b": 2}),
             totals=[8, 8], winners=["P1"], outcome="tiebreak"),
        case("edge-conflicts", "two-road-holders-and-one-seat", p({"road": 1, "seat": 1}, {"road": 1, "seat": 1}, {}),  # noqa: E501
             totals=[2, 2, 0], winners=["P0", "P1"], outcome="undecided",
             conflicts=[{"input": "road", "rule": "at_most_one", "players": [0, 1]},
                        {"input": "seat", "rule": "unique", "players": [0, 1]}]),
        case("edge-conflicts", "missing-seats-are-positions", p({}, {}, {"seat": 2}),
             totals=[0, 0, 0], winners=["P0", "P1", "P2"],
             conflicts=[{"input": "seat", "rule": "unique", "players": [1, 2]}]),
        case("edge-floor-and-zero", "lifted-to-the-floor", p({"a": 4}, {"a": -3}),
             totals=[0, 3], winners=["P1"], lines=[{"minus": -4, "floor": 4}, {"minus": 3}]),
        case("edge-floor-and-zero", "no-negative-zero", p({"a": 0}),
             totals=[0], winners=["P0"], lines=[{"minus": 0, "none": 0}]),
    ]  # fmt: skip


def players(*inputs: dict[str, int]) -> list[dict[str, Any]]:
    return [{"name": f"P{index}", **values} for index, values in enumerate(inputs)]


def case(model: str, name: str, players: list[dict[str, Any]], **expect: Any) -> Case:
    settings = expect.pop("settings", {})
    return {
        "name": f"{model}/{name}",
        "model": model,
        "settings": settings,
        "players": players,
        "expect": expect,
    }


# --- Random calculators --------------------------------------------------------------------------


def random_calculator(rng: random.Random, calc_id: str) -> Calculator | None:
    """A calculator of every kind of line, with random shapes; None when it breaks a check
    (a table whose value can fall below its first row, say): the caller draws another."""
    low_players = rng.randint(1, 4)
    counts = {"min": low_players, "max": rng.randint(max(low_players, 2), low_players + 4)}
    inputs: list[dict[str, Any]] = []
    for index in range(rng.randint(2, 5)):
        spec: dict[str, Any] = {
            "id": f"i{index}",
            "min": rng.choice([0, 0, -5]),
            "max": rng.choice([3, 9, 40]),
        }
        if index == 0 and rng.random() < 0.3:
            spec = {"id": "i0", "min": 1, "max": 12, "unique": True}
        elif rng.random() < 0.2:
            spec = {"id": f"i{index}", "max": 1, "at_most_one": True}
        inputs.append(spec)
    names = [spec["id"] for spec in inputs]
    settings: list[dict[str, Any]] = []
    flags: list[str] = []
    if rng.random() < 0.5:
        settings.append({"id": "yes", "default": rng.random() < 0.5})
        flags.append("yes")
    if rng.random() < 0.5:
        settings.append({"id": "face", "options": ["a", "b"], "default": "a"})
        flags += ["face_a", "face_b"]
    terms: list[dict[str, Any]] = []
    for index in range(rng.randint(2, 6)):
        term = _random_line(rng, f"t{index}", names, counts)
        if flags and rng.random() < 0.3:
            term["when"] = rng.choice([*flags, "max(0, 3 - players)", f"{flags[0]} + players - 2"])
        if rng.random() < 0.25:
            term["helper"] = rng.choice(["shown", "hidden"])
        if term.get("helper") == "hidden":  # a hidden helper must feed something: the next line
            terms.append(term)
            term = {"id": f"u{index}", "formula": f"{term['id']} + {rng.choice(names)}"}
        terms.append(term)
        names.append(term["id"])
    breakers = [
        {"by": rng.choice(names), "prefer": rng.choice(["higher", "lower"])}
        for _ in range(rng.randint(0, 2))
    ]
    calc = make_calculator(
        calc_id,
        players=counts,
        inputs=inputs,
        settings=settings,
        terms=terms,
        tiebreakers=breakers,
        total_min=rng.choice([None, None, 0]),
        when_tied=rng.choice(["shared", "undecided"]),
    )
    problems = [p for p in calculator_problems(calc) if p[0][0] != "examples"]
    return None if problems else calc


def _random_line(
    rng: random.Random, term_id: str, names: list[str], counts: dict[str, int]
) -> dict[str, Any]:
    a, b = rng.choice(names), rng.choice(names)
    kind = rng.choice(["formula", "formula", "fewer", "rank", "table", "rarity"])
    if kind == "formula":
        return {
            "id": term_id,
            "formula": rng.choice(
                [
                    f"{a} + {b}",
                    f"{a} * {b}",
                    f"max(0, {a} - {b}) // 2",
                    f"min({a}, {b}, 3) * 7",
                    f"-{a}",
                ]
            ),
        }
    if kind == "fewer":
        return {"id": term_id, "fewer": a}
    if kind == "rank":
        points = sorted(rng.sample(range(0, 20), 3), reverse=True)
        awards = [{"players": {"min": 1, "max": 12}, "points": points}]
        rank: dict[str, Any] = {
            "by": a,
            "awards": awards,
            "tie": rng.choice(["split", "none", "full"]),
        }
        if rng.random() < 0.5:
            rank["at_least"] = rng.randint(0, 3)
        return {"id": term_id, "rank": rank}
    if kind == "table":
        start = rng.choice([-1000, -100])
        steps = sorted(rng.sample(range(1, 30), 3))
        rows = [{"at_least": start, "points": -1}] + [
            {"at_least": s, "points": i + 1} for i, s in enumerate(steps)
        ]
        return {"id": term_id, "table": {"by": a, "rows": rows}}
    kinds = [n for n in names if n.startswith("i")][:3]
    if len(kinds) < 2:
        return {"id": term_id, "formula": a}
    return {
        "id": term_id,
        "rarity": {
            "kinds": kinds,
            "values": list(range(3, 3 + len(kinds))),
            "rarer_on_tie": kinds[::-1],
        },
    }


def random_players(
    rng: random.Random, model: Model, count: int | None = None
) -> list[dict[str, Any]]:
    """Players for a model: some inputs left out; unique inputs given, all different."""
    low, high = model["players"]
    count = count or rng.randint(low, high)
    result = []
    holder = rng.randrange(count)
    for index in range(count):
        player: dict[str, Any] = {"name": f"P{index}"}
        for spec in model["inputs"]:
            if spec["unique"]:
                player[spec["id"]] = spec["min"] + (index * 5 + 3) % count
            elif spec["at_most_one"]:
                if index == holder and rng.random() < 0.7:
                    player[spec["id"]] = spec["max"]
            elif rng.random() < 0.85:
                player[spec["id"]] = rng.randint(spec["min"], min(spec["max"], spec["min"] + 40))
        result.append(player)
    return result


def random_settings(rng: random.Random, model: Model) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for setting in model["settings"]:
        if rng.random() < 0.7:
            options = [True, False] if setting["kind"] == "yes_no" else setting["options"]
            settings[setting["id"]] = rng.choice(options)
    return settings


def random_calculators(seed: int, count: int) -> Iterator[Calculator]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        calc = random_calculator(rng, f"random-{seed}-{made}")
        if calc is not None:
            made += 1
            yield calc


# --- The file ------------------------------------------------------------------------------------


def build_vectors() -> dict[str, Any]:
    """The vectors file's content; raises AssertionError where Python breaks an expectation."""
    models: dict[str, Model] = {}
    cases: list[Case] = []
    for calc in project_calculators():
        models[calc.id] = compile_calculator(calc)
        for example in calc.examples:
            expect = {"totals": example.totals, "winners": example.winners}
            cases.append(
                {
                    "name": f"{calc.id}/{example.id}",
                    "model": calc.id,
                    "settings": example.settings,
                    "players": example.players,
                    "expect": expect,
                }
            )
    for calc in edge_calculators():
        models[calc.id] = compile_calculator(calc)
    cases += edge_cases()
    rng = random.Random(9)
    for calc in random_calculators(seed=2026, count=RANDOM_GAMES):
        model = models[calc.id] = compile_calculator(calc)
        for game in range(3):
            cases.append(
                {
                    "name": f"{calc.id}/{game}",
                    "model": calc.id,
                    "settings": random_settings(rng, model),
                    "players": random_players(rng, model),
                }
            )
    for item in cases:
        _settle(item, models[item["model"]])
    return {
        "about": "Shared scoring vectors; `python -m tests.scoring_vectors --write` writes them.",
        "kinds": list(LINE_KINDS),
        "schema": model_schema(),
        "models": models,
        "cases": cases,
    }


def _settle(item: Case, model: Model) -> None:
    """Add the Python engine's result and conflicts; check them against ``expect``."""
    result = score(model, item["players"], item["settings"]).as_json()
    found = conflicts(model, item["players"])
    expect = item.pop("expect", {})
    where = item["name"]
    totals = [p["total"] for p in result["players"]]
    assert totals == expect.get("totals", totals), (where, totals)
    assert result["winners"] == expect.get("winners", result["winners"]), (where, result["winners"])
    assert result["outcome"] == expect.get("outcome", result["outcome"]), (where, result["outcome"])
    assert found == expect.get("conflicts", found), (where, found)
    for player, lines in zip(result["players"], expect.get("lines", []), strict=False):
        assert {k: player["breakdown"].get(k) for k in lines} == lines, (where, player)
    for player, helpers in zip(result["players"], expect.get("helpers", []), strict=False):
        assert player["helpers"] == helpers, (where, player)
    for player in result["players"]:
        assert not set(expect.get("absent", [])) & set(player["breakdown"]), (where, player)
        assert player["total"] == sum(player["breakdown"].values()), (where, player)
    item["result"] = result
    item["conflicts"] = found


def vectors_text() -> str:
    """The file: one model or case per line, so a change shows as the lines it changes."""
    vectors = build_vectors()

    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    models = ",\n".join(f"  {line(key)}: {line(model)}" for key, model in vectors["models"].items())
    cases = ",\n".join(f"  {line(item)}" for item in vectors["cases"])
    return (
        f'{{"about": {line(vectors["about"])},\n"kinds": {line(vectors["kinds"])},\n'
        f'"schema": {line(vectors["schema"])},\n'
        f'"models": {{\n{models}\n}},\n"cases": [\n{cases}\n]}}\n'
    )


if __name__ == "__main__":
    text = vectors_text()
    if "--write" in sys.argv:
        VECTORS.write_text(text, encoding="utf-8")
        print(f"wrote {VECTORS.relative_to(REPO)}: {len(json.loads(text)['cases'])} cases")
    else:
        same = VECTORS.is_file() and VECTORS.read_text(encoding="utf-8") == text
        print("up to date" if same else "stale: run with --write")
        sys.exit(0 if same else 1)
