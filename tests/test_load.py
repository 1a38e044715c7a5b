"""The YAML loader: lines of keys, and refusal of everything but plain safe YAML."""

from __future__ import annotations

import pytest

from rulesite.errors import DataError
from rulesite.load import format_path, load_yaml_bytes


def load(text: str | bytes):
    return load_yaml_bytes(text.encode() if isinstance(text, str) else text, "f.yaml")


def messages(text: str | bytes) -> list[str]:
    with pytest.raises(DataError) as caught:
        load(text)
    return caught.value.lines()


def test_records_the_line_of_every_key() -> None:
    doc = load("a: 1\nb:\n  - x: 2\n    y: 3\n")
    assert doc.data == {"a": 1, "b": [{"x": 2, "y": 3}]}
    assert doc.lines[("a",)] == 1
    assert doc.lines[("b", 0, "y")] == 4
    assert doc.line_of(("b", 0, "y", "missing")) == 4


def test_path_formatting() -> None:
    assert format_path(("faq", 3, "answer", "en")) == "faq[3].answer.en"
    assert format_path(()) == ""


def test_duplicate_keys_are_refused_with_both_lines() -> None:
    assert messages("a: 1\nb: 2\na: 3\n") == [
        "f.yaml:3: a: duplicate key 'a' (first defined on line 1)"
    ]


def test_aliases_are_refused_before_expansion() -> None:
    bomb = "a: &a [1, 2]\nb: [*a, *a]\n"
    assert messages(bomb) == [
        "f.yaml:2: YAML aliases (*name) are not allowed (2 in this file); write values out"
    ]


@pytest.mark.parametrize(
    "tag", ["!!python/object/apply:os.system ['true']", "!!binary aGk=", "!custom x"]
)
def test_tags_outside_plain_yaml_are_refused(tag: str) -> None:
    (line,) = messages(f"a: {tag}\n")
    assert line.startswith("f.yaml:1: a: tag ") and "not allowed" in line


def test_non_utf8_bytes_name_the_line() -> None:
    assert messages(b"a: 1\nb: caf\xe9\n") == [
        "f.yaml:2: not valid UTF-8 (byte 0xe9); save as UTF-8"
    ]


@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n"])
def test_empty_files_are_reported(text: str) -> None:
    assert messages(text) == ["f.yaml: file is empty"]


def test_oversized_files_are_refused_unread() -> None:
    (line,) = messages(b"a: " + b"x" * 10_000_000)
    assert line == "f.yaml: file is 10.0 MB; data files must be under 1 MB"


def test_tabs_in_indentation_say_what_to_do() -> None:
    (line,) = messages("a:\n\tb: 1\n")
    assert line.startswith("f.yaml:2: YAML syntax error:") and "not tabs" in line


def test_dates_and_numbers_keep_their_types() -> None:
    import datetime as dt

    doc = load("d: 2026-09-27\nn: 3.54\ni: 7\n")
    assert doc.data == {"d": dt.date(2026, 9, 27), "n": 3.54, "i": 7}
