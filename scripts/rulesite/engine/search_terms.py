"""The search terms (the plugin's ``search_terms``, a jieba user dictionary) given to the
Chinese word segmentation of Material's search.

Material's search plugin splits Chinese with jieba's default tokenizer: it calls ``jieba.cut``,
which jieba binds to that tokenizer when it is imported, so a tokenizer of our own would never
be asked. Material's own door to it is the ``jieba_dict_user`` search option, which calls
``jieba.load_userdict`` on that default tokenizer; but it reads its path as given, relative to
the folder MkDocs runs in, never to the config file, and refuses MkDocs' ``!relative`` tag (it
takes a plain string), so a generated project that builds from any folder cannot name its own
dictionary there. The plugin therefore does what that option does, through jieba's public
functions, with the path resolved from the config file: ``jieba.load_userdict``.

Adding a word twice raises jieba's total frequency and so changes how other words are split;
a word this process already added, at the frequency it still holds, is not added again, so a
second build in one process splits like the first, and like a fresh process. Nothing is reset:
the words a build adds stay in its process, which is why every build runs in a process of its
own (``publish/build.py`` forks one per language; ``mkdocs build`` is a process of its own).
"""

from __future__ import annotations

import io
import logging

log = logging.getLogger(f"mkdocs.plugins.{__name__}")

_added: dict[str, int] = {}
"""The words this process added to jieba, and their frequency."""


def add_search_terms(path: str) -> None:
    """Add the words of the jieba user dictionary ``path`` (``word frequency`` per line) that
    this process has not added yet, as Material's ``jieba_dict_user`` would."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    try:
        with open(path, encoding="utf-8-sig") as file:
            lines = [line.strip() for line in file]
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 ({error})") from None
    pending = []
    for line in lines:
        word, _, frequency = line.partition(" ")
        if not word:
            continue
        wanted = int(frequency) if frequency.strip().isdigit() else None
        if wanted is not None and _added.get(word) == wanted == jieba.get_FREQ(word):
            continue
        pending.append(line)
    if not pending:
        log.debug("jieba already holds every word of %s", path)
        return
    words = io.BytesIO("\n".join(pending).encode("utf-8"))
    words.name = path  # jieba names the file in its errors
    jieba.load_userdict(words)
    for line in pending:
        word, _, frequency = line.partition(" ")
        if frequency.strip().isdigit():
            _added[word] = int(frequency)
    log.debug("added %d words of %s to jieba", len(pending), path)


def warm_up() -> None:
    """Load jieba's stock word table now (half a second), so processes forked afterwards (a
    preview's builds) start with it, as a fresh process would have it once loaded."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
