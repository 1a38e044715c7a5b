"""The reader's fast path (load/fast.py) reads a file exactly as the careful builder does, or
leaves it to the careful builder."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesite.errors import DataError, Document
from rulesite.load import reader
from rulesite.load.fast import fast_document
from tests.test_fuzz import scalars

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    path
    for folder in ("data", "tests")
    for path in (ROOT / folder).rglob("*.yaml")
    if path.is_file() and not path.is_symlink()
)


def _careful(text: str) -> Document | list[str]:
    try:
        return reader._careful_document(text, "f.yaml")
    except DataError as error:
        return [str(problem) for problem in error.problems]


def _same(fast: Document, careful: Document) -> None:
    assert fast.data == careful.data
    # The same types too: 1 == 1.0 == True would hide a wrong construction.
    assert repr(fast.data) == repr(careful.data)
    assert fast.lines == careful.lines
    assert list(fast.lines) == list(careful.lines)
    assert fast.spellings == careful.spellings
    assert fast.refused == careful.refused == ()
    assert fast.refused_paths == careful.refused_paths


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_known_file_reads_the_same(path: Path) -> None:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return  # refused before either path
    fast = fast_document(text, "f.yaml", reader.PARSER_LOADER, reader.MAX_DEPTH)
    careful = _careful(text)
    if fast is not None:
        assert isinstance(careful, Document)
        _same(fast, careful)
    else:  # taken only where there is something to refuse, or might be
        assert not isinstance(careful, Document) or careful.refused or _maybe_unusual(text)


def _maybe_unusual(text: str) -> bool:
    """What the fast path leaves to the careful one although it may be fine."""
    return any(mark in text for mark in ("!", "&", "\\ud", "\\uD", "\\U0000"))


PLAIN = [
    "a: 1\nb: x\n",
    "- 1\n- 2.5\n- yes\n- ~\n- 2026-01-02\n- '3'\n- \"no\"\n",
    "x: {a: [1, {b: null}], c: []}\nd: {}\n",
    "7\n",
    "just text\n",
    "a:\n  - - 1\n    - 2\n  - b: |\n      block\n      text\n    c: >\n      folded\n",
    "1: one\ntrue: t\nnull: n\n2026-01-01: d\n",
    "'': empty key\n? x\n: y\n",
    "a: 0x1F\nb: 0o17\nc: .inf\nd: -.NaN\ne: 1_000\nf: 2026-01-02T10:00:00Z\n",
    "a: &x 1\nb: 2\n",  # an anchor alone is not refused
    "a: ''\nb:\nc: '-'\nd: -1\n",
    "%YAML 1.1\n---\na: 1\n...\n",
    'a: "x\\u00a0y"\n',  # an escape that cannot make a surrogate
]

UNUSUAL = [
    "a: &x 1\nb: *x\n",
    "a: 1\na: 2\n",
    "a: !!str 1\n",
    "a: !!python/object:os.system x\n",
    "? [1, 2]\n: x\n",
    "? {a: 1}\n: x\n",
    "a: 1\n---\nb: 2\n",
    "a: 2026-13-01\n",
    'a: "\\ud800"\n',
    'a: "\\U0000DC00"\n',
    "<<: {a: 1}\n",
    "a: [1, 2\n",
    "a:\n\t- 1\n",
    "[" * 40 + "]" * 40 + "\n",
    "",
    "# only a comment\n",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_yaml_takes_the_fast_path_and_reads_the_same(text: str) -> None:
    fast = fast_document(text, "f.yaml", reader.PARSER_LOADER, reader.MAX_DEPTH)
    careful = _careful(text)
    assert fast is not None and isinstance(careful, Document)
    _same(fast, careful)


@pytest.mark.parametrize("text", UNUSUAL)
def test_anything_to_refuse_is_left_to_the_careful_builder(text: str) -> None:
    assert fast_document(text, "f.yaml", reader.PARSER_LOADER, reader.MAX_DEPTH) is None


@pytest.mark.parametrize("text", UNUSUAL)
def test_parse_reports_what_the_careful_builder_reports(text: str) -> None:
    def outcome(parse: object) -> object:
        try:
            doc = parse(text, "f.yaml")  # type: ignore[operator]
        except DataError as error:
            return [str(problem) for problem in error.problems]
        return (repr(doc.data), doc.lines, doc.spellings, doc.refused, doc.refused_paths)

    def whole(text: str, display: str) -> Document:
        return reader.parse_yaml_bytes(text.encode(), display)

    assert outcome(whole) == outcome(reader._careful_document)


def test_the_nesting_shortcut_never_skips_a_line_that_nests_too_deep() -> None:
    """check_text looks at each line's nesting only when some line could nest too deep
    (model/base.py ``_MAYBE_DEEP``); random line starts, tabs and non-ASCII digits included."""
    import random

    from rulesite.model.base import _MAYBE_DEEP, MAX_NESTING, _nesting

    pieces = ["> ", "- ", "+ ", "* ", "1. ", "12) ", "٣. ", "\t", "    ", ">", " ", "-", "a"]
    rng = random.Random(17)
    deep = 0
    for _ in range(20_000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(6, 16))) + "x"
        if _nesting(line) > MAX_NESTING:
            deep += 1
            assert _MAYBE_DEEP.search(f"first line\n{line}"), line
    assert deep > 200


def _agrees(text: str) -> None:
    """The fast path reads ``text`` as the careful builder does, or leaves it to it."""
    fast = fast_document(text, "f.yaml", reader.PARSER_LOADER, reader.MAX_DEPTH)
    if fast is not None:
        careful = _careful(text)
        assert isinstance(careful, Document)
        _same(fast, careful)


_SCALARS = st.one_of(  # the fuzz tests' values, and strings YAML reads as something else
    scalars,
    st.sampled_from(["yes", "No", "~", "0x1F", "1_000", "2026-01-02", "-.inf", "TODO: x"]),
)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_DOCUMENTS, st.booleans())
def test_random_documents_read_the_same(document: object, flow: bool) -> None:
    _agrees(yaml.safe_dump(document, allow_unicode=True, default_flow_style=flow))


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=list("ab1:-[]{},'\"!&*?#|>~ \n\t.yn%<@\\u"), max_size=60))
def test_random_yaml_like_text_reads_the_same(text: str) -> None:
    _agrees(text)
