"""jieba's user dictionary: loaded once per process while nothing changes it, same words as fresh.

The plugin skips jieba's half-second reset and reload when the process already holds the same
words on a fresh table; these tests hold it to segmenting exactly as a fresh process does.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

import jieba
import pytest

from rulesite.engine import plugin
from rulesite.engine.plugin import load_search_terms

SAMPLE = "本轮战争强度为三，迷你游戏的终局计分按牌数计算，另一游戏的手牌上限为七张。"
TERMS = "战争强度 100000\n迷你游戏 100000\n终局计分 100000\n"
OTHER_TERMS = "手牌上限 100000\n另一游戏 100000\n"


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every time the plugin really loads a dictionary into jieba (from a state it never saw)."""
    monkeypatch.setattr(plugin, "_jieba_holds", None)
    calls: list[object] = []
    real = jieba.load_userdict

    def counting(words: object) -> None:
        calls.append(words)
        real(words)

    monkeypatch.setattr(jieba, "load_userdict", counting)
    return calls


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def fresh_process_segments(terms: str) -> list[str]:
    """How a process that loads ``terms`` once segments the sample."""
    code = (
        "import json, sys, jieba\n"
        "from rulesite.engine.plugin import load_search_terms\n"
        "load_search_terms(sys.argv[1])\n"
        f"print(json.dumps(jieba.lcut({SAMPLE!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, terms], capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def test_the_same_words_are_loaded_once(tmp_path: Path, loads: list[object]) -> None:
    terms = write(tmp_path / "terms.txt", TERMS)
    load_search_terms(terms)
    load_search_terms(terms)
    load_search_terms(write(tmp_path / "copy.txt", TERMS))  # the content counts, not the path
    assert len(loads) == 1


def test_other_words_are_loaded_on_a_fresh_table(tmp_path: Path, loads: list[object]) -> None:
    load_search_terms(write(tmp_path / "terms.txt", TERMS))
    load_search_terms(write(tmp_path / "other.txt", OTHER_TERMS))
    assert len(loads) == 2
    assert "战争强度" not in jieba.lcut(SAMPLE)  # the first words are gone
    assert "手牌上限" in jieba.lcut(SAMPLE)


def test_a_change_to_jieba_since_is_noticed(tmp_path: Path, loads: list[object]) -> None:
    terms = write(tmp_path / "terms.txt", TERMS)
    load_search_terms(terms)
    jieba.add_word("为三")  # someone else changed the table
    load_search_terms(terms)
    jieba.del_word("终局计分")
    load_search_terms(terms)
    assert len(loads) == 3
    assert jieba.lcut(SAMPLE) == fresh_process_segments(terms)


def test_segmentation_is_that_of_a_fresh_process(tmp_path: Path) -> None:
    terms = write(tmp_path / "terms.txt", TERMS)
    load_search_terms(write(tmp_path / "other.txt", OTHER_TERMS))
    load_search_terms(terms)
    load_search_terms(terms)  # kept, not reloaded
    assert jieba.lcut(SAMPLE) == fresh_process_segments(terms)
    assert "战争强度" in jieba.lcut(SAMPLE) and "迷你游戏" in jieba.lcut(SAMPLE)


def _load_in_child(sender, terms: str) -> None:
    calls = []
    real = jieba.load_userdict
    jieba.load_userdict = lambda words: (calls.append(words), real(words))
    load_search_terms(terms)
    sender.send((len(calls), jieba.lcut(SAMPLE)))


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_a_forked_worker_keeps_what_its_parent_loaded(tmp_path: Path) -> None:
    # serve loads the words before it forks the language builds.
    terms = write(tmp_path / "terms.txt", TERMS)
    load_search_terms(terms)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_load_in_child, args=(sender, terms))
    child.start()
    loaded, words = receiver.recv()
    child.join()
    assert loaded == 0
    assert words == fresh_process_segments(terms)


def test_a_failed_load_is_not_remembered(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe not utf-8 100\n")
    with pytest.raises(ValueError, match=r"bad\.txt"):
        load_search_terms(str(bad))
    assert plugin._jieba_holds is None
