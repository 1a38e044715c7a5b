"""One term per thing (issue 18, item 11): a text using a variant that a glossary term lists
under ``avoid`` is a located warning of `rulesite validate`, and an error with ``--strict``;
the shipped data has none."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

from rulesite.catalog import load_catalog
from rulesite.project import Project
from tests.helpers import REPO
from tests.projects import good_game_text, make_project

GLOSSARY = "glossary: [{id: tie, name: {zh: 平手, en: tie}, aliases: {zh: [平局]}, "


def rulesite(*args: str, cwd: Path, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "rulesite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def epoch_of(day: dt.date) -> dict[str, str]:
    """SOURCE_DATE_EPOCH for ``day``: verification dates age on it, not on today."""
    seconds = int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp())
    return {"SOURCE_DATE_EPOCH": str(seconds)}


FIXTURE_DAY = epoch_of(dt.date(2026, 1, 15))


def game_avoiding(words: str, text_change: tuple[str, str] | None = None) -> str:
    text = good_game_text()
    assert GLOSSARY in text
    text = text.replace(GLOSSARY, GLOSSARY + f"avoid: {{{words}}}, ")
    if text_change:
        assert text_change[0] in text
        text = text.replace(*text_change)
    return text


def test_a_text_using_an_avoided_variant_is_a_located_warning(tmp_path: Path) -> None:
    text = game_avoiding("zh: [打平]", ("得分相同的情形", "得分相同、也叫打平的情形"))
    project = make_project(tmp_path / "p", games={"mini-game.yaml": text})
    result = rulesite("validate", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 0, result.stderr
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("glossary:"))
    assert result.stderr.splitlines() == [
        f"data/games/mini-game.yaml:{line}: glossary[0].definition.zh: 打平 — the glossary "
        "term is 平手 (glossary[tie])"
    ]
    assert result.stdout.strip() == "ok: 1 games valid; 1 warning"


def test_strict_makes_the_warning_an_error(tmp_path: Path) -> None:
    text = game_avoiding("zh: [打平]", ("得分相同的情形", "得分相同、也叫打平的情形"))
    project = make_project(tmp_path / "p", games={"mini-game.yaml": text})
    result = rulesite("validate", "--strict", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 1
    assert "glossary[0].definition.zh: 打平 — the glossary term is 平手" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_warning_without_the_variant_or_inside_the_terms_own_words(tmp_path: Path) -> None:
    # 平 is part of 平手 and 平局 (an alias): those words are the term, not the variant.
    text = game_avoiding("zh: [平], en: [draw]", ("不破平", "不破除平手"))
    project = make_project(tmp_path / "p", games={"mini-game.yaml": text})
    result = rulesite("validate", "--strict", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 0, result.stderr


def test_a_word_to_avoid_may_not_name_a_term(tmp_path: Path) -> None:
    text = game_avoiding("zh: [平局], fr: [égalité]")
    project = make_project(tmp_path / "p", games={"mini-game.yaml": text})
    result = rulesite("validate", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 1
    assert "glossary[0].avoid.zh[0]: '平局' names glossary[0] (tie)" in result.stderr
    assert "glossary[0].avoid.fr: unknown language 'fr'" in result.stderr


def test_the_shipped_data_passes_strict_validation() -> None:
    # Aged on the card's check day, so a later date cannot turn staleness into a failure here.
    card_day = max(game.card.verified for game in load_catalog(Project(REPO)).games)
    result = rulesite("validate", "--strict", cwd=REPO, env=epoch_of(card_day))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_real_text_using_the_shadow_players_variant_is_reported(tmp_path: Path) -> None:
    """The issue's own example: 影子玩家 in a Nations text names 影子对手."""
    project = make_project(tmp_path / "p", games={}, real_games=True)
    path = project / "data" / "games" / "nations.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("影子玩家") == 1, "only the glossary's avoid list names it"
    rows = text.splitlines()
    # The first rule body in Chinese that names the shadow player: use the variant there.
    index = next(
        i for i, row in enumerate(rows) if "影子对手" in row and row.startswith("        ")
    )
    rows[index] = rows[index].replace("影子对手", "影子玩家", 1)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    catalog = load_catalog(Project(project))
    warnings = [str(w) for w in catalog.warnings if "影子玩家" in str(w)]
    assert len(warnings) == 1, warnings
    assert re.fullmatch(
        r"data/games/nations\.yaml:\d+: rules\[\d+\]\.body\.zh: 影子玩家 — the glossary term is "
        r"影子对手 \(glossary\[shadow-player\]\)",
        warnings[0],
    ), warnings[0]


def test_the_lower_case_spelling_of_a_capitalised_term_is_reported(tmp_path: Path) -> None:
    """Issue 18, item 12: Clans writes *Export contract* as its rulebook does; a text that goes
    back to ``export contract`` is reported, the capitalised spelling is not."""
    project = make_project(tmp_path / "p", games={}, real_games=True)
    path = project / "data" / "games" / "clans-of-caledonia.yaml"
    text = path.read_text(encoding="utf-8")
    assert "avoid: {en: [export contract]}" in text
    rows = text.splitlines()
    index = next(i for i, row in enumerate(rows) if "an Export contract demands" in row)
    rows[index] = rows[index].replace("an Export contract demands", "an export contract demands")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    warnings = [str(w) for w in load_catalog(Project(project)).warnings]
    assert len(warnings) == 1, warnings
    assert re.fullmatch(
        r"data/games/clans-of-caledonia\.yaml:\d+: intro\[\d+\]\.en: export contract — the "
        r"glossary term is Export contract \(glossary\[export-contract\]\)",
        warnings[0],
    ), warnings[0]


def test_a_lower_case_variant_is_matched_as_written_at_word_starts(tmp_path: Path) -> None:
    # A capitalised term may declare its own lower-case spelling (it names no other term); the
    # spelling is matched as written at the start of a word: "victory" is found, "Victory" and
    # "convictory" are not.
    term = (
        "{id: victory, name: {zh: 胜利, en: Victory}, avoid: {en: [victory]}, "
        "definition: {zh: 总分最高者胜利。, en: The win of the highest total.}, "
        "rules: [scoring]}, "
    )
    base = good_game_text().replace("glossary: [", "glossary: [" + term, 1)
    assert base.count("share the victory") == 2
    project = make_project(tmp_path / "p", games={"mini-game.yaml": base})
    result = rulesite("validate", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 0, result.stderr
    found = [row.split(": ", 1)[1] for row in result.stderr.splitlines()]
    message = "victory — the glossary term is Victory (glossary[victory])"
    assert found == [f"rules[1].body.en: {message}", f"glossary[1].definition.en: {message}"]
    clean = base.replace("share the victory", "share the Victory (no convictory rule)")
    project = make_project(tmp_path / "q", games={"mini-game.yaml": clean})
    result = rulesite("validate", "--strict", cwd=project, env=FIXTURE_DAY)
    assert result.returncode == 0, result.stderr


class _Name:
    def __init__(self, **texts: str) -> None:
        self.texts = texts

    def get(self, lang: str, default=None):
        return self.texts.get(lang, default)

    def languages(self) -> tuple[str, ...]:
        return tuple(self.texts)


def _variant(lang: str, word: str, name: str, aliases: tuple[str, ...] = ()):
    from types import SimpleNamespace

    from rulesite.check.terms import Variant

    term = SimpleNamespace(name=_Name(**{lang: name}), aliases={lang: list(aliases)})
    return Variant(lang, word, term, "glossary[x]")  # type: ignore[arg-type]


def test_the_screen_never_hides_a_variant_a_search_per_variant_finds() -> None:
    """The check screens a text with one alternation per language (check/terms.Screen) before
    looking for each variant: it must find exactly what one search per variant finds."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rulesite.check.terms import Screen

    variants = [
        _variant("zh", "影子", "影子对手", ("影子玩家",)),  # inside the term's own name: cut out
        _variant("zh", "打平", "平手"),
        _variant("en", "export contract", "Export contract"),  # lower-case spelling, as written
        _variant("en", "Tie", "draw"),  # any case
        _variant("en", "ss", "Straße"),  # folding: ß is "ss"
    ]
    screen = Screen(variants)
    pieces = ["影子", "对手", "玩家", "打", "平", "export ", "Export ", "contract", "tie", "TIE"]
    pieces += ["ß", "s", " ", "x", "ex"]

    @settings(max_examples=400, deadline=None)
    @given(st.lists(st.sampled_from(pieces), max_size=12), st.lists(st.sampled_from(pieces)))
    def same(zh: list[str], en: list[str]) -> None:
        text = _Name(zh="".join(zh), en="".join(en))
        slow = [v for v in variants if v.found_in(text.get(v.lang))]
        fast = [v for v in screen.suspects(text) if v.found_in(text.get(v.lang))]  # type: ignore[arg-type]
        assert fast == slow

    same()
