"""Setup tables by player count (issue 10, item 7): typed rows, rendered as tables in every
language, in the rule section they name or in a section of their own. Bad data files are in
tests/data/bad/setup-*."""

from __future__ import annotations

from pathlib import Path

from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.projects import REAL, extra_game_text, make_project


def rendered(tmp_path: Path) -> dict[str, str]:
    project = Project(make_project(tmp_path / "p", games={"extra-game.yaml": extra_game_text()}))
    return render_pages(project, load_catalog(project))


def section(page: str, heading: str) -> str:
    """The Markdown of the page from ``heading`` to the next heading of that level."""
    level = heading.split(" ", 1)[0] + " "
    start = page.index(heading + " ")
    end = page.find("\n" + level, start + 1)
    return page[start : end if end != -1 else len(page)]


def test_a_table_is_shown_in_its_rule_section_in_every_language(tmp_path: Path) -> None:
    pages = rendered(tmp_path)
    en = section(pages["en/games/extra-game/rules.md"], "## Setup")
    assert (
        "### Hand size by player count {#hand-size}\n\n"
        '<div class="rs-setup" role="region" tabindex="0" '
        'aria-label="Hand size by player count" markdown="1">\n\n'
        "| Players | Cards per player | Draft | Note |\n"
        "|---:|---:|---|---|\n"
        "| 2 | 5 | No | Draw your <em>own</em> |\n"
        "| 3 | 5 | Yes | Pass left |\n"
    ) in en
    assert "<p>Four players play as three.</p>" in en
    zh = section(pages["zh/games/extra-game/rules.md"], "## 准备")
    assert (
        "### 各人数的手牌 {#hand-size}\n\n"
        '<div class="rs-setup" role="region" tabindex="0" '
        'aria-label="各人数的手牌" markdown="1">\n\n'
        "| 人数 | 每人手牌 | 轮抽 | 说明 |\n"
        "|---:|---:|---|---|\n"
        "| 2 | 5 | 否 | 各自抽牌 |\n"
        "| 3 | 5 | 是 | 向左传 |\n"
    ) in zh


def test_a_table_without_a_rule_has_a_section_of_its_own(tmp_path: Path) -> None:
    pages = rendered(tmp_path)
    en = pages["en/games/extra-game/rules.md"]
    table = (
        "## Target score by player count {#scores-by-count}\n\n"
        '<div class="rs-setup" role="region" tabindex="0" '
        'aria-label="Target score by player count" markdown="1">\n\n'
        "| Players | Target |\n|---:|---:|\n| 4 | 12 |\n\n</div>"
    )
    # After the last rule section (and before anything the page adds after the rules).
    assert en.index(table) > en.index("## Scoring {#scoring}")
    assert "## 各人数的目标分 {#scores-by-count}" in pages["zh/games/extra-game/rules.md"]


def test_hostile_cells_stay_text(tmp_path: Path) -> None:
    hostile = "<script>x</script> | {: #evil } [a](javascript:x)"
    text = extra_game_text().replace(
        "note: {zh: 向左传, en: Pass left}", f"note: {{zh: 左, en: '{hostile}'}}"
    )
    project = Project(make_project(tmp_path / "p", games={"extra-game.yaml": text}))
    lines = [line for line in load_catalog_lines(project) if "javascript" in line]
    assert lines  # the link is refused by validation, like any text's
    safe = text.replace("[a](javascript:x)", "[a]")
    (project.games_dir / "extra-game.yaml").write_text(safe, encoding="utf-8")
    page = render_pages(project, load_catalog(project))["en/games/extra-game/rules.md"]
    row = next(line for line in page.splitlines() if line.startswith("| 3 |"))
    assert "<script>" not in row and "{:" not in row
    assert row.count("|") == 5  # four cells: the text's | cannot split one


def load_catalog_lines(project: Project) -> list[str]:
    try:
        load_catalog(project)
    except DataError as error:
        return error.lines()
    return []


def test_the_real_games_tables_cover_only_counts_their_cards_allow() -> None:
    for game in load_catalog(Project(REAL)).games:
        for table in game.setup:
            counts = [row.players for row in table.rows]
            assert counts == sorted(set(counts))
            assert all(game.card.players.min <= c <= game.card.players.max for c in counts)
