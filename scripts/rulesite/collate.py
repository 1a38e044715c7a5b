"""The order readers expect a list of names in, one key for every sorted list a page shows.

Chinese readers look names up by their reading (pinyin), as dictionaries and indexes do; a sort
by code point scatters them. Other languages sort case-insensitively, as Jinja's own ``sort``
filter does, so English lists keep the order they always had.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, TypeVar

from pypinyin import Style, lazy_pinyin

Item = TypeVar("Item")


@lru_cache(maxsize=65536)
def reading_key(text: str, lang: str) -> tuple[str, ...]:
    """The sort key of ``text`` in ``lang``: for Chinese its pinyin with tone numbers, syllable by
    syllable (letters and digits stay as they are), then the text itself to part homophones."""
    if lang == "zh":
        syllables = lazy_pinyin(text, style=Style.TONE3, neutral_tone_with_five=True)
        return (" ".join(syllables).lower(), text)
    return (text.lower(),)


def by_reading(items: Iterable[Item], attribute: str, lang: str) -> list[Item]:
    """``items`` sorted by the ``lang`` text of their bilingual ``attribute`` (stable)."""

    def key(item: Any) -> tuple[str, ...]:
        return reading_key(getattr(item, attribute).get(lang), lang)

    return sorted(items, key=key)
