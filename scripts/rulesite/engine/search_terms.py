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

import contextlib
import io
import logging
import marshal
import os
import stat
import tempfile
from collections.abc import Iterator

log = logging.getLogger(f"mkdocs.plugins.{__name__}")

_added: dict[str, int] = {}
"""The words this process added to jieba, and their frequency."""


CACHE_ENV = "RULESITE_CACHE_DIR"
"""Where a plain ``mkdocs build`` of a generated project may keep jieba's cache (read, never
written: ``rulesite build`` and ``serve`` name the project's cache with :func:`use_cache_root`)."""

_cache_root: str | None = None
"""The project's cache folder, named by ``rulesite build`` or ``serve`` before their builds fork
(the forked builds inherit it)."""
_prepared = False
"""Whether this process has initialized jieba (forked builds inherit a preview's)."""


def use_cache_root(folder: str | os.PathLike[str]) -> None:
    """Keep jieba's cache in ``folder``/jieba (the project's ``.cache/``) in this process and the
    builds it forks."""
    global _cache_root
    _cache_root = os.fspath(folder)


def prepare_jieba() -> None:
    """Quiet jieba and initialize it with its word-table cache out of the shared temporary folder.

    jieba reads a cache of its stock word table (a marshal dump) from ``jieba.cache`` in the
    temporary folder when it initializes: a file anyone can plant in ``/tmp``, which would change
    the published Chinese search index. So jieba is initialized here, once per process, with
    Python's documented ``tempfile.tempdir`` pointing, for that call only, at the project's own
    ``.cache/jieba/`` when that is a private folder of this user, else at a private folder of
    this user's (no shared cache). Its messages (``Building prefix dict...``) are debug output.
    """
    global _prepared
    import jieba

    jieba.setLogLevel(logging.WARNING)
    if _prepared:
        return
    folder = _private_folder(_cache_root or os.environ.get(CACHE_ENV))
    previous, tempfile.tempdir = tempfile.tempdir, folder
    try:
        with _whole_file_marshal():
            jieba.initialize()
    finally:
        tempfile.tempdir = previous
    _prepared = True


@contextlib.contextmanager
def _whole_file_marshal() -> Iterator[None]:
    """``marshal.load`` reading its file whole, then decoding the bytes (``marshal.loads``).

    jieba reads its word-table cache (9 MB, 498,113 words) with ``marshal.load`` on the open
    file, which reads through the file object once per value, half a million times: 0.47 s
    against 0.15 s for the whole initialization this way (the same table), in every build
    process that splits Chinese, twice a build. Only for the call that initializes jieba;
    put back at once. The cache file holds that one value, so reading it whole reads nothing
    more."""
    load = marshal.load
    marshal.load = lambda file: marshal.loads(file.read())
    try:
        yield
    finally:
        marshal.load = load


def _private_folder(wanted: str | None) -> str:
    if wanted:
        folder = os.path.join(wanted, "jieba")
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            status = os.lstat(folder)
            if (
                stat.S_ISDIR(status.st_mode)
                and status.st_uid == os.getuid()
                and not status.st_mode & 0o022
            ):
                return folder
        except OSError:
            pass
        log.debug("not using %s as jieba's cache (not a private folder of this user)", folder)
    # Without a project (plain `mkdocs build`): a folder of this user's alone, or none at all.
    own = os.path.join(tempfile.gettempdir(), f"rulesite-jieba-{os.getuid()}")
    try:
        os.makedirs(own, mode=0o700, exist_ok=True)
        status = os.lstat(own)
        mine = stat.S_ISDIR(status.st_mode) and status.st_uid == os.getuid()
        if mine and not status.st_mode & 0o077:
            return own
    except OSError:
        pass
    return tempfile.mkdtemp(prefix="rulesite-jieba-")


def add_search_terms(path: str) -> None:
    """Add the words of the jieba user dictionary ``path`` (``word frequency`` per line) that
    this process has not added yet, as Material's ``jieba_dict_user`` would."""
    import jieba

    prepare_jieba()
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
    """Load jieba's stock word table now (0.15 s), so processes forked afterwards (a
    preview's builds) start with it, as a fresh process would have it once loaded."""

    prepare_jieba()


def fresh() -> bool:
    """Whether this process's jieba word table is jieba's own (not loaded yet, or loaded with
    no word added)."""
    return not _added
