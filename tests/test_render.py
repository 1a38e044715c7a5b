"""Rendering: golden Markdown per page kind and language, strict templates, escaping."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from rulesite import markup
from rulesite.catalog import load_catalog
from rulesite.check.labels import LABEL_PLACEHOLDERS, SINGULAR
from rulesite.errors import BuildError
from rulesite.project import Project
from rulesite.render.renderer import (
    Labels,
    Renderer,
    format_range,
    join_sentences,
    make_environment,
    render_pages,
)
from tests.golden import GOLDEN, rendered_fixture_pages
from tests.projects import REAL, good_game_text, make_project

PAGES = rendered_fixture_pages()


def test_golden_set_is_complete() -> None:
    golden = {
        p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.suffix in (".md", ".json")
    }
    assert golden == set(PAGES), "run `make golden` and review the diff"


@pytest.mark.parametrize("relative", sorted(PAGES))
def test_page_matches_golden(relative: str) -> None:
    expected = (GOLDEN / relative).read_text(encoding="utf-8")
    assert PAGES[relative] == expected, f"{relative} changed: run `make golden` and review"


def test_both_languages_have_the_same_anchors() -> None:
    import re

    for relative in PAGES:
        if relative.startswith("zh/"):
            zh_ids = re.findall(r"\{#([a-z0-9-]+)\}", PAGES[relative])
            en_ids = re.findall(r"\{#([a-z0-9-]+)\}", PAGES["en/" + relative[3:]])
            assert zh_ids == en_ids, relative


@pytest.mark.parametrize(
    ("template_name", "addition", "message"),
    [
        ("faq.md.j2", "{{ t('no_such_label') }}", r"faq\.md\.j2.*no label 'no_such_label'"),
        (
            "faq.md.j2",
            "{{ t('faq_lead') }}",
            r"faq\.md\.j2.*label 'faq_lead' takes the values: count",
        ),
        ("rules.md.j2", "{{ game.no_such_field }}", r"rules\.md\.j2"),
    ],
    ids=["missing-label", "label-without-its-values", "undefined-field"],
)
def test_template_mistakes_fail_naming_the_template(
    tmp_path: Path, template_name: str, addition: str, message: str
) -> None:
    root = make_project(tmp_path / "p")
    template = root / "templates" / "pages" / template_name
    template.write_text(template.read_text() + addition + "\n", encoding="utf-8")
    project = Project(root)
    with pytest.raises(BuildError, match=message):
        render_pages(project, load_catalog(project))


def test_raw_html_in_data_never_opens_a_tag(tmp_path: Path) -> None:
    text = good_game_text().replace(
        "en: Each player takes 5 cards.", 'en: "<script>alert(1)</script> takes 5 cards."'
    )
    project = Project(make_project(tmp_path / "p", games={"mini-game.yaml": text}))
    rules = render_pages(project, load_catalog(project))["en/games/mini-game/rules.md"]
    assert "<script>" not in rules and "&#60;script&#62;alert(1)&#60;/script&#62;" in rules


def test_helpers(tmp_path: Path) -> None:
    from rulesite.model import IntRange

    # A range never breaks across lines: "3–" / "4 人" on a phone.
    assert format_range(IntRange(min=1, max=5)) == '<span class="rs-nowrap">1–5</span>'
    assert format_range(IntRange(min=4, max=4)) == '<span class="rs-nowrap">4</span>'
    site = load_catalog(Project(make_project(tmp_path / "p"))).site
    chinese, english = site.language("zh"), site.language("en")
    assert join_sentences(["一。", "二。"], chinese) == "一。二。"
    assert join_sentences(["One.", "", "Two."], english) == "One. Two."


def test_related_lines_are_classed_as_paragraphs() -> None:
    # `{: .rs-related }` on its own line classes the paragraph; at the end of a line, the link.
    for relative, text in PAGES.items():
        for line in text.splitlines():
            assert not (line.endswith("{: .rs-related }") and line != "{: .rs-related }"), relative


# --- Singular labels ----------------------------------------------------------------------------

REAL_CATALOG = load_catalog(Project(REAL))
REAL_SITE = REAL_CATALOG.site
SINGULAR_KEYS = sorted(k for k in LABEL_PLACEHOLDERS if k.endswith(SINGULAR))


def test_some_labels_have_a_singular() -> None:
    assert SINGULAR_KEYS


@pytest.mark.parametrize("key", SINGULAR_KEYS)
def test_a_singular_label_matches_its_plural(key: str) -> None:
    base = key.removesuffix(SINGULAR)
    assert LABEL_PLACEHOLDERS[key] == LABEL_PLACEHOLDERS[base] >= {"count"}
    # Chinese has no plural: the singular twin says the same words.
    assert REAL_SITE.labels[key].get("zh") == REAL_SITE.labels[base].get("zh")


@pytest.mark.parametrize("key", SINGULAR_KEYS)
def test_a_count_of_one_takes_the_singular(key: str) -> None:
    base = key.removesuffix(SINGULAR)
    values = {name: 1 for name in LABEL_PLACEHOLDERS[base]}
    for lang in ("zh", "en"):
        t = Labels(REAL_SITE, lang)
        one = str(t(base, **values))
        assert one == markup.fill(REAL_SITE.labels[key].get(lang), values)
        two = {**values, "count": 2}
        assert str(t(base, **two)) == markup.fill(REAL_SITE.labels[base].get(lang), two)
    english = Labels(REAL_SITE, "en")
    assert str(english(base, **values)) != markup.fill(REAL_SITE.labels[base].get("en"), values)


def test_calls_in_templates_get_a_context_only_when_they_ask_for_one() -> None:
    env = make_environment(Project(REAL))
    title = REAL_CATALOG.games[0].title
    source = (
        "{{ wants() }}|{% for i in [1, 2] %}{{ title.get('en') }}{{ t.raw('page_rules') }}"
        "{{ plain(i) }}{{ wants() }}{{ d.get(i) }}{% endfor %}|{{ t('page_rules') }}"
    )
    shown = env.from_string(source).render(
        wants=jinja2.pass_context(lambda context: context["x"]),
        x="X",
        title=title,
        t=Labels(REAL_SITE, "en"),
        plain=lambda i: i * 10,
        d={1: "one", 2: "two"},
    )
    name, label = title.get("en"), REAL_SITE.labels["page_rules"].get("en")
    row = f"{markup.inert_text(name)}{label}"
    assert shown == f"X|{row}10Xone{row}20Xtwo|{markup.fill(label, {})}"


def test_page_paths_name_every_page_in_the_order_it_is_rendered() -> None:
    """What a build that starts before its pages are rendered is given (engine/arriving.py)."""
    project = Project(REAL)
    renderer = Renderer(project, load_catalog(project))
    for lang in renderer.catalog.site.codes:
        rendered = [path for path, _ in renderer.language_pages(lang)]
        assert renderer.page_paths(lang) == rendered
        assert len(set(rendered)) == len(rendered)
