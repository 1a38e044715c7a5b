"""collate: the order lists of names are shown in."""

from __future__ import annotations

from dataclasses import dataclass

from rulesite.collate import by_reading, reading_key


@dataclass
class Named:
    title: dict[str, str]

    def __post_init__(self) -> None:
        self.title = _Text(self.title)


class _Text(dict):
    def get(self, lang: str) -> str:  # type: ignore[override]
        return self[lang]


def test_chinese_sorts_by_pinyin_not_code_point() -> None:
    # 卡 (U+5361, kǎ) < 国 (U+56FD, guó) < 奇 (U+5947, qí) by code point; by reading it is
    # guó, kǎ, qí.
    names = ["卡坦岛", "国家", "奇迹世界"]
    assert sorted(names) == names
    assert sorted(names, key=lambda n: reading_key(n, "zh")) == ["国家", "卡坦岛", "奇迹世界"]


def test_tones_order_same_syllables_and_homophones_keep_apart() -> None:
    # mā (妈) before mǎ (马); two names with the same reading still get a fixed order.
    assert reading_key("妈", "zh") < reading_key("马", "zh")
    assert reading_key("市", "zh") != reading_key("事", "zh")


def test_other_languages_sort_without_case_and_stably() -> None:
    items = [Named({"en": "b"}), Named({"en": "A"}), Named({"en": "a"})]
    assert [i.title["en"] for i in by_reading(items, "title", "en")] == ["A", "a", "b"]


def test_digits_then_chinese_then_latin_names_as_the_browser_orders_them() -> None:
    # Chromium's Intl.Collator("zh") (the games index's script) gives this very order.
    names = ["美丽新世界", "Nations", "加勒多尼亚", "7大奇迹"]
    ordered = sorted(names, key=lambda n: reading_key(n, "zh"))
    assert ordered == ["7大奇迹", "加勒多尼亚", "美丽新世界", "Nations"]


def test_a_shorter_name_comes_before_a_longer_one_it_begins() -> None:
    assert reading_key("妈", "zh") < reading_key("妈妈", "zh")


def test_a_character_is_read_as_it_is_in_its_word() -> None:
    # 行 reads háng in 银行 and xíng in 行动.
    assert reading_key("银行", "zh")[0][1].endswith("hang2")
    assert reading_key("行动", "zh")[0][0].endswith("xing2")
