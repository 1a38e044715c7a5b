"""What the language processes keep less of gives what they gave before.

The search split of a language's build (``rulesite`` plugin, ``on_post_build``) was the peak of
its process's memory: a string per word occurrence in the tokenizer's kept words, a tuple per
posting, every document's word counts until the end. Each leaner structure is held here to the
plain one it replaced.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from rulesite.engine import search_chunks, search_split
from rulesite.publish import workers


def _postings_as_tuples(
    counts: list[dict[str, dict[str, int]]],
    places: list[tuple[int, int]],
    boosts: dict[str, float],
    rulings: list[bool],
) -> dict[str, list[int]]:
    """The reading ``_postings`` replaced: a tuple per posting, flattened at the end."""
    lengths: dict[str, list[int]] = {name: [] for name in boosts}
    for fields in counts:
        for name, counted in fields.items():
            lengths[name].append(sum(counted.values()))
    average = {name: (sum(v) / len(v) if v else 1.0) for name, v in lengths.items()}
    found: dict[str, list[tuple[int, int, int]]] = {}
    for number, fields in enumerate(counts):
        scores: dict[str, float] = {}
        for name, counted in fields.items():
            size = sum(counted.values()) / average[name]
            norm = search_chunks.K1 * (1 - search_chunks.B + search_chunks.B * size)
            for word, tf in counted.items():
                part = tf * (search_chunks.K1 + 1) / (tf + norm)
                scores[word] = scores.get(word, 0.0) + boosts[name] * part
        page, section = places[number]
        marked = -1 - section if rulings[number] else section
        for word, score in scores.items():
            found.setdefault(word, []).append((page, marked, search_chunks.weight(score)))
    limit = search_chunks.POSTINGS_LIMIT
    result = {}
    for word, rows in found.items():
        if len(rows) > limit:
            kept = sorted(rows, key=lambda row: -row[2])[:limit]
            rows = sorted(kept, key=lambda row: (row[0], row[1] if row[1] >= 0 else -1 - row[1]))
        result[word] = _flat(rows)
    return result


def _flat(rows: list[tuple[int, int, int]]) -> list[int]:
    """Postings as one list of numbers, each page as its difference from the one before."""
    flat: list[int] = []
    previous = 0
    for page, section, value in rows:
        flat += [page - previous, section, value]
        previous = page
    return flat


@pytest.mark.parametrize("seed", range(5))
def test_flat_postings_are_the_tuples_flattened(seed: int, monkeypatch) -> None:
    # A small limit, so that many words have more postings than it and are cut to it.
    monkeypatch.setattr(search_chunks, "POSTINGS_LIMIT", 7)
    rng = random.Random(seed)
    vocabulary = [f"w{n}" for n in range(40)]
    boosts = {"title": 1000.0, "text": 1.0, "words": 1.0}
    counts, places, rulings = [], [], []
    page, section = 0, 0
    for _ in range(300):
        if rng.random() < 0.2:
            page, section = page + rng.randint(1, 3), 0
        else:
            section += 1
        # A page's documents are mostly together; now and then one comes back to an earlier page.
        places.append((rng.randint(0, page) if rng.random() < 0.05 else page, section))
        rulings.append(rng.random() < 0.3)
        counts.append(
            {
                name: Counter(rng.choices(vocabulary, k=rng.randint(1, 30)))
                for name in boosts
                if rng.random() < 0.8
            }
        )
    expected = _postings_as_tuples(counts, places, boosts, rulings)
    found = search_chunks._postings(counts, places, boosts, rulings)
    assert found == expected
    assert any(len(flat) == 3 * 7 for flat in found.values())  # some words were cut
    assert counts == [{}] * len(places)  # each document's counts dropped once weighed


def test_the_tokenizer_keeps_one_string_per_word() -> None:
    tokens = search_split.Tokenizer("[\\s\\u200b]+")
    first = tokens.words("Generals win ties")
    second = tokens.words("<b>ties</b> and GENERALS")
    assert second == ("ties", "and", "generals")
    assert second[0] is first[2] and second[2] is first[0]


# --- the catalog: let go of in the build's process and in each language's -------------------


def test_the_whole_catalog_is_let_go_of_before_mkdocs_runs_and_while_it_runs(
    tmp_path: Path, monkeypatch
) -> None:
    """The catalog as loaded (records and documents) is freed in the build's process once the
    rest of content/ is written, and in each language's process once its pages are rendered:
    no frame of the build keeps it (the language processes inherit the build's frames)."""
    import gc
    import weakref

    from rulesite.errors import BuildError
    from rulesite.project import Project
    from rulesite.publish import build as build_module
    from rulesite.publish import workers
    from tests.projects import make_project

    loaded: list[weakref.ref] = []
    in_languages: list[str] = []
    real_load, real_problems, real_mkdocs = (
        build_module.load_catalog,
        workers.problems_of,
        workers.run_mkdocs,
    )

    def load(project, **options):
        catalog = real_load(project, **options)
        loaded.append(weakref.ref(catalog))
        return catalog

    def mkdocs(*args, **kwargs):  # in a language's process, before its MkDocs build
        gc.collect()
        if loaded[0]() is not None:
            raise BuildError("the language process still holds the catalog")
        return real_mkdocs(*args, **kwargs)

    def problems(outcomes):  # in the build's process, once every language has finished
        gc.collect()
        in_languages.append("alive" if loaded[0]() is not None else "freed")
        return real_problems(outcomes)

    monkeypatch.setattr(build_module, "load_catalog", load)
    monkeypatch.setattr(workers, "run_mkdocs", mkdocs)
    monkeypatch.setattr(workers, "problems_of", problems)
    report = build_module.build(Project(make_project(tmp_path / "p")))
    assert in_languages == ["freed"]
    assert report.games == 1 and report.pages > 0


# --- the build's process while the languages build -------------------------------------------


def _quiet(sender) -> None:
    sender.send(workers.Outcome(0.0, None))
    sender.close()


def test_the_build_process_collects_none_of_what_its_forks_share_while_they_run() -> None:
    """Objects that existed at the fork stay out of this process's collections until the
    language processes end: collecting them would write to (and so copy) the memory pages
    those processes share with it."""
    import gc

    frozen_meanwhile: list[int] = []
    before = gc.get_freeze_count()
    outcomes = workers.run(
        [("zh", _quiet, ()), ("en", _quiet, ())],
        meanwhile=lambda: frozen_meanwhile.append(gc.get_freeze_count()),
    )
    assert set(outcomes) == {"zh", "en"}
    assert frozen_meanwhile and frozen_meanwhile[0] > before
    assert gc.get_freeze_count() == before  # and collected again afterwards


def test_the_c_heap_is_trimmed_before_the_fork_and_when_the_catalog_goes(monkeypatch) -> None:
    """What the build freed (the catalog's documents before the fork, the catalog once
    released) goes back to the system, not into every language process's memory."""
    calls: list[str] = []
    monkeypatch.setattr(workers, "trim", lambda: calls.append("trim"))
    workers.run([("zh", _quiet, ())], meanwhile=lambda: calls.append("meanwhile"))
    assert calls == ["trim", "meanwhile"]
    held = workers.Held(object())  # type: ignore[arg-type]
    held.release()
    assert calls[-1] == "trim"
