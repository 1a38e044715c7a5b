"""The YAML loader: lines of keys, and refusal of everything but plain safe YAML."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
import yaml

from rulesite.errors import DataError, format_path
from rulesite.load import reader as load_module
from rulesite.load.reader import load_yaml_bytes, load_yaml_file, yaml_files
from tests.helpers import GOOD


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
    assert line == "f.yaml: file is 10.0 MB; data files must be under 256 KB"


def test_tabs_in_indentation_say_what_to_do() -> None:
    (line,) = messages("a:\n\tb: 1\n")
    assert line.startswith("f.yaml:2: YAML syntax error:") and "not tabs" in line


def test_dates_and_numbers_keep_their_types() -> None:
    import datetime as dt

    doc = load("d: 2026-09-27\nn: 3.54\ni: 7\n")
    assert doc.data == {"d": dt.date(2026, 9, 27), "n": 3.54, "i": 7}


# --- One pass over the event stream, with libyaml or without --------------------------------------


@pytest.fixture(params=["libyaml", "python"])
def parser(request, monkeypatch) -> str:
    """Runs a test with libyaml's C parser and with PyYAML's pure-Python fallback."""
    if request.param == "python":
        monkeypatch.setattr(load_module, "PARSER_LOADER", yaml.SafeLoader)
    else:
        assert yaml.__with_libyaml__, "PyYAML was built without libyaml"
        monkeypatch.setattr(load_module, "PARSER_LOADER", yaml.CSafeLoader)
    return request.param


def test_both_parsers_give_the_same_data_and_lines(parser: str) -> None:
    text = (GOOD / "games" / "mini-game.yaml").read_text(encoding="utf-8")
    doc = load(text)
    assert doc.data == yaml.safe_load(text)
    assert doc.lines[("faq", 1, "rules", 0)] == 55
    assert doc.lines[("scoring", 0, "examples", 0, "winners")] == 109


def test_nesting_is_limited_with_a_located_error(parser: str) -> None:
    deep = "a:\n  b: " + "[" * 40 + "]" * 40 + "\n"
    path = "a.b" + "[0]" * 30
    assert messages(deep) == [
        f"f.yaml:2: {path}: nested more than 32 levels deep; data files need far fewer"
    ]


@pytest.mark.parametrize("opening", ["[", "{a: ", "- "])
def test_thousands_of_levels_end_in_a_located_error_not_a_recursion_error(
    parser: str, opening: str
) -> None:
    (line,) = messages(opening * 50_000)
    assert line.startswith("f.yaml:1: ") and line.endswith(
        "nested more than 32 levels deep; data files need far fewer"
    )


def test_an_alias_is_refused_where_it_stands(parser: str) -> None:
    assert messages("a: &x 1\nb:\n  - 2\n  - *x\n") == [
        "f.yaml:4: YAML aliases (*name) are not allowed; write values out"
    ]
    assert messages("a: &x 1\n? *x\n: 2\n") == [
        "f.yaml:2: YAML aliases (*name) are not allowed; write values out"
    ]


def test_a_million_laughs_are_counted_not_expanded(parser: str) -> None:
    levels = ['l0: &l0 "lol"'] + [
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 7)
    ]
    assert messages("\n".join(levels) + "\n") == [
        "f.yaml:2: YAML aliases (*name) are not allowed (60 in this file); write values out"
    ]


def test_keys_that_are_lists_or_mappings_are_refused_with_their_value(parser: str) -> None:
    assert messages("? [a, b]\n: 1\nc: 2\n? {d: 3}\n: [4]\n") == [
        "f.yaml:1: keys must be plain text",
        "f.yaml:4: keys must be plain text",
    ]


def test_tags_on_lists_and_mappings_are_refused(parser: str) -> None:
    assert messages("a: !!set {x}\nb: !!omap [c: 1]\nc: !!map {d: 1}\n") == [
        "f.yaml:1: a: tag 'tag:yaml.org,2002:set' is not allowed (plain YAML only)",
        "f.yaml:2: b: tag 'tag:yaml.org,2002:omap' is not allowed (plain YAML only)",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!bool maybe\n", "f.yaml:1: a: invalid value: 'maybe' is not a valid !!bool"),
        ("a: !!timestamp soon\n", "f.yaml:1: a: invalid value: 'soon' is not a valid !!timestamp"),
        ("a: !!int x\n", "f.yaml:1: a: invalid value: invalid literal for int() with base 10: 'x'"),
        ("a: 2026-13-01\n", "f.yaml:1: a: invalid value: month must be in 1..12"),
    ],
)
def test_values_that_do_not_fit_their_tag_are_located(parser: str, text: str, message: str) -> None:
    """PyYAML raises KeyError or AttributeError for some of these; they used to crash."""
    assert messages(text) == [message]


def test_a_second_document_is_refused(parser: str) -> None:
    assert messages("a: 1\n---\nb: 2\n---\nc: 3\n") == [
        "f.yaml:2: YAML syntax error: found a second document (---); a file holds one"
    ]


def test_characters_yaml_does_not_allow_are_located(parser: str) -> None:
    assert messages("a: 1\nb: x\x07y\n") == [
        "f.yaml:2: U+0007 (a control character) is not allowed in YAML; remove it"
    ]


def test_lone_surrogates_never_reach_the_data(parser: str) -> None:
    (line,) = messages('a: "\\ud800"\n')
    assert line.startswith("f.yaml:1: ")


def test_unquoted_values_remember_how_they_were_written(parser: str) -> None:
    doc = load("a: no\nb: 1.0\nc: 2026-01-15\nd: 1:30\ne: '1.0'\nf: [on, ~]\ng:\n")
    assert doc.data["a"] is False and doc.data["d"] == 90
    assert doc.spellings == {
        ("a",): "no",
        ("b",): "1.0",
        ("c",): "2026-01-15",
        ("d",): "1:30",
        ("f", 0): "on",
        ("f", 1): "~",
        ("g",): "",
    }


def test_syntax_errors_say_where_the_construct_began(parser: str) -> None:
    (line,) = messages("a: {b: 1, c: 2\nd: 3\n")
    assert line.startswith("f.yaml:2: YAML syntax error: ")
    assert line.endswith("(in the { } mapping that starts on line 1)")


# --- Reading files --------------------------------------------------------------------------------


def read_problems(path: Path, root: Path | None = None) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_yaml_file(path, "d.yaml", root)
    return caught.value.lines()


def test_a_symlink_inside_the_project_is_read(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text("a: 1\n", encoding="utf-8")
    (tmp_path / "link.yaml").symlink_to("real.yaml")
    assert load_yaml_file(tmp_path / "link.yaml", "link.yaml", tmp_path).data == {"a": 1}


def test_a_symlink_out_of_the_project_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "secret.yaml").write_text("a: 1\n", encoding="utf-8")
    (tmp_path / "p" / "d.yaml").symlink_to(tmp_path / "secret.yaml")
    assert read_problems(tmp_path / "p" / "d.yaml", tmp_path / "p") == [
        f"d.yaml: links to {tmp_path.resolve() / 'secret.yaml'}, outside the project; "
        "data files must be inside it"
    ]


def test_a_device_is_refused_unread() -> None:
    assert read_problems(Path("/dev/zero")) == ["d.yaml: is a character device, not a regular file"]


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "d.yaml"
    os.mkfifo(fifo)
    result: list[list[str]] = []
    reader = threading.Thread(target=lambda: result.append(read_problems(fifo)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert result == [["d.yaml: is a named pipe (FIFO), not a regular file"]]


def test_a_folder_a_broken_link_and_a_loop_are_refused(tmp_path: Path) -> None:
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "broken.yaml").symlink_to("nowhere.yaml")
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    assert read_problems(tmp_path / "folder.yaml") == ["d.yaml: is a folder, not a file"]
    assert read_problems(tmp_path / "broken.yaml") == [
        "d.yaml: is a symlink to nowhere.yaml, which does not exist"
    ]
    assert read_problems(tmp_path / "loop.yaml") == ["d.yaml: is a symlink loop"]


def test_an_oversized_file_is_refused_by_its_size_unread(tmp_path: Path, monkeypatch) -> None:
    big = tmp_path / "d.yaml"
    with big.open("wb") as file:
        file.truncate(50_000_000)  # sparse: 50 MB that take no disk
    monkeypatch.setattr(os, "read", None)  # reading it would fail the test
    assert read_problems(big) == ["d.yaml: file is 50.0 MB; data files must be under 256 KB"]


def test_at_most_one_byte_over_the_limit_is_read(tmp_path: Path, monkeypatch) -> None:
    """A file that grows after it was measured is still read only up to the limit."""
    path = tmp_path / "d.yaml"
    path.write_bytes(b"a: " + b"x" * (load_module.MAX_FILE_BYTES + 10))
    real_fstat = os.fstat
    monkeypatch.setattr(
        os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:]))
    )
    assert read_problems(path) == ["d.yaml: file is 256,001 bytes; data files must be under 256 KB"]


def test_only_yaml_files_belong_in_a_data_folder(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.yaml", "c.yml", "D.YAML", "notes.txt", ".DS_Store", ".b.yaml.swp"):
        (tmp_path / name).write_text("x: 1\n", encoding="utf-8")
    (tmp_path / "old").mkdir()
    files, problems = yaml_files(tmp_path, "data/games")
    assert [f.name for f in files] == ["a.yaml", "b.yaml"]
    assert [str(p) for p in problems] == [
        "data/games/D.YAML: only <slug>.yaml files belong in data/games/; rename it to D.yaml",
        "data/games/c.yml: only <slug>.yaml files belong in data/games/; rename it to c.yaml",
        "data/games/notes.txt: only <slug>.yaml files belong in data/games/; move this file "
        "elsewhere",
        "data/games/old: is a folder; only <slug>.yaml files belong in data/games/",
    ]
