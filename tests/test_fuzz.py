"""Fuzzing the loader: any YAML document gives a valid model or clean problems, nothing else."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesite import markup
from rulesite.catalog import load_catalog
from rulesite.errors import DataError
from rulesite.load.reader import load_yaml_bytes
from rulesite.model import LONG_TEXT, check_text
from rulesite.project import Project
from tests.projects import good_game_text, make_project

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.dates(),
)
KEYS = [
    "slug",
    "title",
    "zh",
    "en",
    "card",
    "players",
    "min",
    "max",
    "faq",
    "id",
    "rules",
    "scoring",
    "formula",
    "terms",
    "glossary",
    "aliases",
    "inputs",
    "examples",
    "totals",
    "tags",
    "weight",
]
documents = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_load_or_fail_cleanly(raw: bytes) -> None:
    try:
        load_yaml_bytes(raw, "fuzz.yaml")
    except DataError as error:
        assert error.lines() and all(line.startswith("fuzz.yaml") for line in error.lines())


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(documents)
def test_random_documents_validate_or_fail_cleanly(tmp_path: Path, document) -> None:
    root = tmp_path / "p"
    if not root.exists():
        make_project(root)
    text = yaml.safe_dump(document, allow_unicode=True)
    (root / "data" / "games" / "mini-game.yaml").write_text(text, encoding="utf-8")
    try:
        load_catalog(Project(root))
    except DataError as error:
        assert all(line.startswith("data/games/mini-game.yaml") for line in error.lines())


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.data())
def test_mutated_good_game_validates_or_fails_cleanly(tmp_path: Path, data) -> None:
    """Small edits of a real file (the kind editors make) never crash the validator."""
    root = tmp_path / "p"
    if not root.exists():
        make_project(root)
    lines = good_game_text().splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["delete", "duplicate", "mangle", "indent"]))
        if action == "delete":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif action == "indent":
            lines[index] = "  " + lines[index]
        else:
            lines[index] = lines[index].replace(
                ":", data.draw(st.sampled_from([": -1", ": [", ": x", ":", ": {}", ": 0"])), 1
            )
    (root / "data" / "games" / "mini-game.yaml").write_text("\n".join(lines), encoding="utf-8")
    try:
        load_catalog(Project(root))
    except DataError as error:
        assert error.lines()


markdownish = st.lists(
    st.sampled_from(["1. ", "- ", "> ", "+ ", "    ", "\n", "\n\n", "[", "](", "`", "``", "a", "*"])
    | st.text(max_size=3),
    max_size=400,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(markdownish)
def test_any_text_the_model_accepts_renders(text: str) -> None:
    """Texts are checked for what makes Markdown slow or recurse; what passes renders."""
    try:
        check_text(text, LONG_TEXT)
    except ValueError:
        return
    assert isinstance(markup.block(text), str)
    assert isinstance(markup.inline(text), str)
