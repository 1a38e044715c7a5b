"""The order readers expect a list of names in, one key for every sorted list a page shows.

Chinese readers look names up by their reading (pinyin), as dictionaries and indexes do; a sort
by code point scatters them. Other languages sort case-insensitively, as Jinja's own ``sort``
filter does, so English lists keep the order they always had.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, TypeVar

Item = TypeVar("Item")


_SIGN = "\x00"
"""Marks a run of digits or signs: first, as in the browsers' Chinese collation."""
_HAN = "\x01"
"""Marks one Chinese character's syllable: after digits, before Latin letters, as the browsers'
Chinese collation (the games index's script, ``Intl.Collator``) orders them."""
_LATIN = "\x02"
"""Marks a run that starts with a letter of another script (a Latin title such as Nations)."""


def _run(run: str) -> list[str]:
    """A run of characters that are not Chinese, marked by what it starts with."""
    words = run.strip().lower()
    if not words:
        return []
    return [(_LATIN if words[0].isalpha() else _SIGN) + words]


@lru_cache(maxsize=65536)
def reading_key(text: str, lang: str) -> tuple[object, ...]:
    """The sort key of ``text`` in ``lang``: for Chinese its syllables in pinyin with tone numbers
    (read as whole words, so a character with two readings gets the one it has here), digits
    before them and Latin words after, then the text itself to part homophones; other languages
    case-insensitively."""
    if _by_pinyin(lang):
        from pypinyin import Style, lazy_pinyin  # loaded (once) by _by_pinyin

        items = lazy_pinyin(text, style=Style.TONE3, neutral_tone_with_five=True, errors=_run)
        marked = (i if i[:1] in (_SIGN, _LATIN) else _HAN + i for i in items)
        return (tuple(marked), text)
    return (text.lower(),)


def load_readings(lang: str) -> None:
    """Load now what ``reading_key`` needs for ``lang`` (pypinyin's dictionaries for Chinese,
    57 MB): a build whose language processes share a Chinese language's pages loads them
    before it forks, so those processes share one copy instead of each loading its own."""
    _by_pinyin(lang)


def _by_pinyin(lang: str) -> bool:
    """Whether ``lang`` sorts by pinyin; if so, pypinyin is loaded. Loaded only then: its
    dictionaries take 0.16 s to load, which every build process and the preview would pay
    even when nothing Chinese is sorted."""
    if lang != "zh":
        return False
    import pypinyin  # noqa: F401

    return True


def by_reading(items: Iterable[Item], attribute: str, lang: str) -> list[Item]:
    """``items`` sorted by the ``lang`` text of their bilingual ``attribute`` (stable)."""

    def key(item: Any) -> tuple[object, ...]:
        return reading_key(getattr(item, attribute).get(lang), lang)

    return sorted(items, key=key)
