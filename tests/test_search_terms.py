"""jieba's user dictionary: each word added once per process, segmenting as a fresh process does.

Material's search splits Chinese with jieba's default tokenizer; the plugin adds the search terms
to it as Material's ``jieba_dict_user`` would (``engine/search_terms.py``), never resetting it.
Adding a word again would raise jieba's total frequency and change how other words split, so a
word already added is skipped. Every test runs jieba in a process of its own: the words a test
adds must not reach the builds of later tests in this process.
"""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = "本轮战争强度为三，迷你游戏的终局计分按牌数计算，另一游戏的手牌上限为七张。"
TERMS = "战争强度 100000\n迷你游戏 100000\n终局计分 100000\n"
OTHER_TERMS = "手牌上限 100000\n另一游戏 100000\n"

_PRELUDE = f"""
import json, sys, jieba
from rulesite.engine import search_terms
loads = []
real = jieba.load_userdict
def counting(words):
    loads.append(words)
    real(words)
jieba.load_userdict = counting
def words():
    return jieba.lcut({SAMPLE!r})
"""


def run(code: str, *args: str) -> object:
    """Run ``code`` (after the prelude) in a fresh Python; what it printed, as JSON."""
    result = subprocess.run(
        [sys.executable, "-c", _PRELUDE + code, *args], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def fresh_process_segments(terms: str) -> list[str]:
    """How a process that adds ``terms`` once segments the sample."""
    return run("search_terms.add_search_terms(sys.argv[1]); print(json.dumps(words()))", terms)


def test_the_same_words_are_added_once_and_split_as_in_a_fresh_process(tmp_path: Path) -> None:
    terms = write(tmp_path / "terms.txt", TERMS)
    copy = write(tmp_path / "copy.txt", TERMS)  # the words count, not the path
    loads, split = run(
        "for path in (sys.argv[1], sys.argv[1], sys.argv[2]):\n"
        "    search_terms.add_search_terms(path)\n"
        "print(json.dumps([len(loads), words()]))",
        terms,
        copy,
    )
    assert loads == 1
    assert split == fresh_process_segments(terms)
    assert "战争强度" in split and "迷你游戏" in split


def test_only_new_words_are_added(tmp_path: Path) -> None:
    terms = write(tmp_path / "terms.txt", TERMS)
    both = write(tmp_path / "both.txt", TERMS + OTHER_TERMS)
    loads, split = run(
        "search_terms.add_search_terms(sys.argv[1])\n"
        "search_terms.add_search_terms(sys.argv[2])\n"
        "print(json.dumps([[w.getvalue().decode() for w in loads], words()]))",
        terms,
        both,
    )
    assert loads == [TERMS.strip(), OTHER_TERMS.strip()]
    assert split == fresh_process_segments(both)


def test_a_word_changed_since_is_added_again(tmp_path: Path) -> None:
    terms = write(tmp_path / "terms.txt", TERMS)
    loads, split = run(
        "search_terms.add_search_terms(sys.argv[1])\n"
        "jieba.add_word('终局计分', 5)  # someone else changed it\n"
        "search_terms.add_search_terms(sys.argv[1])\n"
        "print(json.dumps([[w.getvalue().decode() for w in loads], words()]))",
        terms,
    )
    assert loads == [TERMS.strip(), "终局计分 100000"]
    assert "终局计分" in split


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_a_forked_build_of_a_warmed_up_parent_splits_as_a_fresh_process(tmp_path: Path) -> None:
    # serve loads jieba's stock table before it forks the language builds; the builds add the
    # words, the parent never does.
    terms = write(tmp_path / "terms.txt", TERMS)
    child, parent = run(
        "import multiprocessing\n"
        "search_terms.warm_up()\n"
        "def build(sender):\n"
        "    search_terms.add_search_terms(sys.argv[1])\n"
        "    sender.send(words())\n"
        "receiver, sender = multiprocessing.get_context('fork').Pipe(duplex=False)\n"
        "process = multiprocessing.get_context('fork').Process(target=build, args=(sender,))\n"
        "process.start(); child = receiver.recv(); process.join()\n"
        "print(json.dumps([child, words()]))",
        terms,
    )
    assert child == fresh_process_segments(terms)
    assert "战争强度" not in parent  # the parent's table is jieba's own


def test_a_dictionary_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    from rulesite.engine.search_terms import add_search_terms

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe not utf-8 100\n")
    with pytest.raises(ValueError, match=r"bad\.txt"):
        add_search_terms(str(bad))


def test_jiebas_cached_table_is_read_whole_and_unchanged(tmp_path: Path) -> None:
    # jieba initializes from the cache in the project's folder when there is one
    # (engine/search_terms.py reads that file whole, then decodes it).
    table = ({"迷你": 5, "迷": 3, "你": 4, "游戏": 9, "游": 2, "戏": 2}, 25)
    (tmp_path / "jieba").mkdir(mode=0o700)
    (tmp_path / "jieba" / "jieba.cache").write_bytes(marshal.dumps(table))
    loaded, load = run(
        "import marshal\n"
        "search_terms.use_cache_root(sys.argv[1])\n"
        "search_terms.prepare_jieba()\n"
        "print(json.dumps([[jieba.dt.FREQ, jieba.dt.total], type(marshal.load).__name__]))",
        str(tmp_path),
    )
    assert loaded == [table[0], table[1]]
    assert load == "builtin_function_or_method"  # Python's own again
