"""Pages that arrive while MkDocs builds (``engine/arriving.py``): a file for every page before
it is written; a build that waits for each until it is counted written, and stops when they
will not all come; Chinese search words segmented ahead exactly as the build would."""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

import pytest

from rulesite import forked
from rulesite.engine import arriving, search_sections, search_terms


def _arrivals(monkeypatch: pytest.MonkeyPatch, order: list[str]) -> arriving.Arrivals:
    """This process expects ``order``'s pages, none written yet."""
    ctx = forked.context()
    arrivals = arriving.Arrivals(ctx.RawValue("i", 0), ctx.Event())
    monkeypatch.setattr(arriving, "_arrivals", None)
    monkeypatch.setattr(arriving, "_order", {})
    arriving.expect(arrivals, order)
    return arrivals


def test_every_page_has_its_file_before_it_is_written(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    arriving.place_holders(docs, ["index.md", "games/a/index.md", "games/a/faq.md"])
    files = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file())
    assert files == ["games/a/faq.md", "games/a/index.md", "index.md"]
    assert all((docs / name).stat().st_size == 0 for name in files)


def test_without_arriving_pages_nothing_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arriving, "_arrivals", None)
    assert arriving.arrived("faq.md")
    arriving.wait_for("faq.md")  # a build that expects nothing reads what is there


def test_a_page_arrives_once_the_pages_before_it_and_it_are_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arrivals = _arrivals(monkeypatch, ["index.md", "games/a/index.md", "games/a/faq.md"])
    assert not arriving.arrived("index.md")
    arrivals.written.value = 2
    assert arriving.arrived("index.md") and arriving.arrived("games/a/index.md")
    assert not arriving.arrived("games/a/faq.md")
    assert arriving.arrived("about.md")  # not one of the pages that arrive: there


def test_a_build_waits_for_its_page_until_it_arrives(monkeypatch: pytest.MonkeyPatch) -> None:
    arrivals = _arrivals(monkeypatch, ["index.md", "faq.md"])

    def write() -> None:
        arrivals.written.value = 2

    started = time.monotonic()
    threading.Timer(0.2, write).start()
    arriving.wait_for("faq.md")
    assert time.monotonic() - started >= 0.15


def test_a_build_stops_when_its_pages_will_not_all_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arrivals = _arrivals(monkeypatch, ["faq.md"])
    threading.Timer(0.1, arrivals.lost.set).start()
    with pytest.raises(arriving.PagesLost):
        arriving.wait_for("faq.md")


def test_runs_segmented_ahead_reach_the_builder_until_it_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(arriving, "_ahead", {})
    monkeypatch.setattr(arriving, "_stop", None)
    assert arriving.runs_ahead() is None
    receiver, sender = forked.context().Pipe(duplex=False)
    arriving.receive_runs(receiver)
    ahead = arriving.runs_ahead()
    assert ahead is not None
    sender.send({"计分": "\u200b计分\u200b"})
    deadline = time.monotonic() + 5
    while "计分" not in ahead and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ahead == {"计分": "\u200b计分\u200b"}
    arriving.stop_receiving()
    time.sleep(0.2)  # the thread looks every 0.05 s
    with pytest.raises(OSError):  # the builder closed its end: the sender stops
        for _ in range(100):
            sender.send({"x": "x"})


def _segment_in_fresh_process(docs: Path, pages: list[str], terms: Path, sender: object) -> None:
    """In a fresh process: segment ahead, sending every batch."""
    batches: list[dict[str, str]] = []
    arriving.segment_ahead(docs, pages, terms, batches.append)
    sender.send(batches)  # type: ignore[attr-defined]


def _segment_as_the_build_does(texts: list[str], terms: Path, sender: object) -> None:
    """In a fresh process: the build's own segmentation of ``texts``, after its terms."""
    import jieba

    search_terms.add_search_terms(str(terms))
    segment = search_sections.Segmenter(jieba.cut)
    sender.send([segment(text) for text in texts])  # type: ignore[attr-defined]


def _in_fresh_process(target: object, *args: object) -> object:
    """``target(*args, sender)`` in a fresh interpreter (a word table no test changed); what
    it sends."""
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=target, args=(*args, sender), daemon=True)
    process.start()
    sender.close()
    value = receiver.recv()
    process.join()
    return value


def test_runs_segmented_ahead_are_what_the_build_would_make(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    pages = {
        "index.md": "# 规则速查\n\n平局时比较剩余资源，资源多者胜。",
        "games/a/faq.md": "**胜利点**计分板上的分数\n\n平局时比较剩余资源",
    }
    for relative, text in pages.items():
        (docs / relative).parent.mkdir(parents=True, exist_ok=True)
        (docs / relative).write_text(text, encoding="utf-8")
    terms = tmp_path / "search-terms.txt"
    terms.write_text("计分板 300000\n剩余资源 300000\n", "utf-8")
    batches = _in_fresh_process(_segment_in_fresh_process, docs, list(pages), terms)
    assert isinstance(batches, list)
    ahead = {run: words for batch in batches for run, words in batch.items()}
    runs = sorted({run for text in pages.values() for run in search_sections.han_runs(text)})
    assert sorted(ahead) == runs  # each run once
    texts = list(pages.values())
    own = _in_fresh_process(_segment_as_the_build_does, texts, terms)

    def never(run: str) -> list[str]:
        raise AssertionError(f"{run} was not segmented ahead")

    assert [search_sections.Segmenter(never, ahead)(text) for text in texts] == own
    assert "\u200b计分板\u200b" in ahead["计分板上的分数"]  # the terms were added first
