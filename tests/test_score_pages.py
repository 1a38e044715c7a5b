"""Score pages say what their calculators leave out (issue 9, item 5), in both languages."""

from __future__ import annotations

import pytest

from rulesite import markup
from rulesite.catalog import load_catalog
from rulesite.project import Project
from rulesite.render.renderer import render_pages
from tests.projects import REAL

PROJECT = Project(REAL)
CATALOG = load_catalog(PROJECT)
PAGES = render_pages(PROJECT, CATALOG)
LANGUAGES = CATALOG.site.codes


@pytest.mark.parametrize(
    ("slug", "link"),
    [("nations", "rules.md#solo"), ("clans-of-caledonia", "faq.md#solo-vs-industria-automa")],
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_solo_scoring_is_said_to_be_left_out_with_a_link(slug: str, link: str, lang: str) -> None:
    game = next(g for g in CATALOG.games if g.slug == slug)
    notes = [note for calc in game.scoring for note in calc.leaves_out]
    assert len(notes) == 1
    page = PAGES[f"{lang}/games/{slug}/score.md"]
    paragraph = next(line for line in page.splitlines() if f"]({link})" in line)
    assert paragraph.startswith(str(markup.inline(notes[0].text.get(lang))))
    assert ("单人" if lang == "zh" else "solo") in paragraph


def test_every_note_is_on_its_page_in_every_language() -> None:
    for game in CATALOG.games:
        for calc in game.scoring:
            for note in calc.leaves_out:
                target = f"rules.md#{note.rule}" if note.rule else f"faq.md#{note.ruling}"
                for lang in LANGUAGES:
                    assert f"]({target})" in PAGES[f"{lang}/games/{game.slug}/score.md"]
