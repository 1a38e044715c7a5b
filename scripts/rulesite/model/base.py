"""Building blocks of every record: texts in every language, ids, numbers and dates."""

from __future__ import annotations

import datetime as dt
import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    RootModel,
    Strict,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

Slug = Annotated[str, Strict(), Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
"""A lowercase ASCII id: letters, digits and single hyphens (safe in URLs and file names)."""

# --- Text ----------------------------------------------------------------------------------------
# Every text is Markdown, rendered by Python-Markdown, whose link and code-span parsers scan ahead
# from each `[` and each backtick: n characters with k of them cost about k·n steps, so a 100 KB
# text of `[a](` took minutes. The caps below keep the worst valid text under 40 ms, so the time
# to build a file grows with its size only. Deeply nested lists or quotes make Markdown recurse
# until Python gives up, so nesting is capped too. List caps bound how often a short text is
# repeated (a question is listed under each rule section it explains).


@dataclass(frozen=True)
class TextLimits:
    """How much of each thing one text of a kind may hold."""

    chars: int
    """Characters."""
    brackets: int
    """``[`` characters: each link needs one."""
    backticks: int
    """Backticks: each code span needs two."""


SHORT_TEXT = TextLimits(chars=300, brackets=3, backticks=10)
"""Titles, questions, names and labels: shown in many places (a question is also listed under
each rule section it explains), so they are kept small."""
TEXT = TextLimits(chars=2_000, brackets=10, backticks=40)
"""Paragraphs: summaries, introductions, notes."""
LONG_TEXT = TextLimits(chars=10_000, brackets=10, backticks=40)
"""Rule sections and FAQ answers (several screens on a phone)."""
MAX_NESTING = 10
"""Levels of nested lists and quotes on one line of a text."""

_FORBIDDEN_CHARS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)
"""Control characters (C0 but tab and newline, DEL, C1), line and paragraph separators, and the
bidirectional embeddings, overrides and isolates that can make a text display as something else
than it says; lone surrogates cannot even be written to a page, and U+FFFE and U+FFFF are not
characters XML allows (one would make the Atom feeds unreadable)."""

_CHAR_REFERENCE = re.compile(
    r"&(?:#[0-9]{1,12};?|#[xX][0-9a-fA-F]{1,10};?|[A-Za-z][A-Za-z0-9]{1,31};?)"
)
"""A character reference as HTML reads it (the semicolon is optional there): the sanitizer and
every browser decode ``&#x1b;`` into the character it names, so it is checked as that character."""

_INVISIBLE = frozenset("\u115f\u1160\u2800\u3164\uffa0\u034f")
"""Fillers that show as nothing but are letters or symbols to Unicode."""

_BLOCK_MARKER = re.compile(r" {0,3}(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))[ \t]?")
"""One list or quote marker at the start of a (remaining) line."""
_MAYBE_DEEP = re.compile(rf"^[ \t>\-+*\d.)]{{{MAX_NESTING + 1}}}", re.MULTILINE)
"""A line that could nest past MAX_NESTING: each level takes at least one character at its
start (four columns of indent, a tab among them, or a marker such as ``>`` or ``1.``)."""


def describe_value(value: Any) -> str:
    """A value as a message names it: ``boolean false``, ``number 1.0``, ``text 'x'``..."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"number {value!r}"[:60]
    if isinstance(value, dt.date):
        return f"date {value.isoformat()}"
    if isinstance(value, str):
        return f"text {value!r}"[:60]
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def describe_char(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``."""
    unnamed = "not a character" if unicodedata.category(char) == "Cn" else "a control character"
    return f"U+{ord(char):04X} ({unicodedata.name(char, unnamed)})"


def _char_label(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``."""
    return f"U+{ord(char):04X} {unicodedata.name(char, '')}".strip()


def _is_invisible(char: str) -> bool:
    return (
        char.isspace()
        or unicodedata.category(char) in ("Cf", "Zs")
        or char in _INVISIBLE
        or ("\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef")
    )


def _nesting(line: str) -> int:
    """How deep lists and quotes nest at the start of one line (4 spaces of indent = 1 level)."""
    expanded = line.expandtabs(4)
    stripped = expanded.lstrip(" ")
    depth = (len(expanded) - len(stripped)) // 4
    while (marker := _BLOCK_MARKER.match(stripped)) and marker.end() > 0:
        depth += 1
        stripped = stripped[marker.end() :]
    return depth


def check_text(value: str, limits: TextLimits) -> str:
    """A text fit to print: not too long, no hidden characters, not pathological Markdown."""
    if len(value) > limits.chars:
        raise ValueError(f"text is {len(value):,} characters; at most {limits.chars:,} here")
    bad = _FORBIDDEN_CHARS.search(value)
    if bad is not None:
        where = bad.start() + 1
        raise ValueError(
            f"text contains {describe_char(bad.group())} at character {where}; remove it"
        )
    if "&" in value:  # every reference starts with one
        _check_references(value)
    if not value.strip():
        raise ValueError("text is empty")
    decoded = _CHAR_REFERENCE.sub(lambda m: _decode(m.group()), value) if "&" in value else value
    if all(_is_invisible(char) for char in decoded):
        shown = ", ".join(_char_label(c) for c in dict.fromkeys(decoded) if c not in " \t\n")
        how = "" if decoded == value else ", some written as character references"
        raise ValueError(f"text has only invisible characters ({shown}{how}); write the text")
    for char, limit, what in (("[", limits.brackets, "links"), ("`", limits.backticks, "code")):
        count = value.count(char)
        if count > limit:
            raise ValueError(f"text has {count} '{char}' ({what}); at most {limit} here")
    if _MAYBE_DEEP.search(value) is None:
        return value  # no line starts with enough indent or markers to nest too deep
    for number, line in enumerate(value.split("\n"), start=1):
        depth = _nesting(line)
        if depth > MAX_NESTING:
            raise ValueError(
                f"text nests lists or quotes {depth} levels deep on its line {number}; "
                f"at most {MAX_NESTING}"
            )
    return value


def _check_references(value: str) -> None:
    # What a reference names reaches the pages, the feed and search as that character (the
    # sanitizer decodes it), so it is refused as the character typed literally would be.
    for reference in _CHAR_REFERENCE.finditer(value):
        bad = _FORBIDDEN_CHARS.search(_decode(reference.group()))
        if bad is not None:
            raise ValueError(
                f"text contains {describe_char(bad.group())}, written as the character "
                f"reference {reference.group()!r}, at character {reference.start() + 1}; remove it"
            )


_WINDOWS_1252 = {0x80: "\u20ac", 0x82: "\u201a", 0x83: "\u0192", 0x84: "\u201e", 0x85: "\u2026",
                 0x86: "\u2020", 0x87: "\u2021", 0x88: "\u02c6", 0x89: "\u2030", 0x8A: "\u0160",
                 0x8B: "\u2039", 0x8C: "\u0152", 0x8E: "\u017d", 0x91: "\u2018", 0x92: "\u2019",
                 0x93: "\u201c", 0x94: "\u201d", 0x95: "\u2022", 0x96: "\u2013", 0x97: "\u2014",
                 0x98: "\u02dc", 0x99: "\u2122", 0x9A: "\u0161", 0x9B: "\u203a", 0x9C: "\u0153",
                 0x9E: "\u017e", 0x9F: "\u0178"}  # fmt: skip
"""What HTML makes of a reference to a C1 code (the browser's and the sanitizer's reading)."""


def _decode(reference: str) -> str:
    """The character(s) a reference names as an HTML parser reads it.

    Unlike :func:`html.unescape`, which drops a reference to a control character, HTML (and so
    the sanitizer) keeps the character: that is what the checks must see.
    """
    if not reference.startswith("&#"):
        return html.unescape(reference)
    digits = reference[2:].rstrip(";")
    number = int(digits[1:], 16) if digits[:1] in "xX" else int(digits)
    if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return "\ufffd"
    return _WINDOWS_1252.get(number, chr(number))


def short_text(value: str) -> str:
    return check_text(value, SHORT_TEXT)


def one_line(value: str) -> str:
    # A search term becomes a line of the jieba dictionary, a site name a line of the page head:
    # a line break would split it in two.
    if "\n" in value or "\t" in value:
        raise ValueError("must be one line: remove the line break or tab")
    return value


NonBlank = Annotated[str, Strict(), AfterValidator(short_text), AfterValidator(one_line)]
"""One line of text in one language (at most 300 characters)."""

# --- Numbers and dates ---------------------------------------------------------------------------

WholeNumber = Annotated[int, Strict()]
"""An integer written as a YAML number: ``"8"``, ``8.0`` and ``true`` are refused, not converted."""


def _calendar_date(value: Any) -> dt.date:
    """A YAML date, or the same quoted; never a number (``0`` would become 1970-01-01)."""
    if isinstance(value, dt.datetime):
        raise ValueError("expected a date (YYYY-MM-DD), got a date and time; leave out the time")
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError as exc:
            raise ValueError(f"invalid date {value!r}: {exc}") from None
    raise ValueError(f"expected a date (YYYY-MM-DD), got {describe_value(value)}")


CalendarDate = Annotated[dt.date, BeforeValidator(_calendar_date)]
"""A date written YYYY-MM-DD."""


def check_ordered(low: int, high: int) -> None:
    """Shared by every record with a ``min`` and a ``max``."""
    if low > high:
        raise ValueError(f"min ({low}) is greater than max ({high})")


Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
"""A name usable in formulas: lowercase letters, digits and underscores, starting with a letter."""


Formula = Annotated[str, Strict()]
"""A scoring formula: integers, names, + - *, // by a positive constant, min(...), max(...); at
most 500 characters. Records keep its text: the scoring layer parses and checks it."""


class Record(BaseModel):
    """Base of every record: unknown keys are errors, docstrings become schema descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


def share_field_sets(record: BaseModel) -> None:
    """Give the records of ``record``'s tree (itself, and the records in its fields, lists,
    tuples and dicts, all the way down) that set the same fields one set of those names.

    pydantic keeps, per record, the set of the fields its input gave: at 1,000 games 300,000
    records held 72 MB of sets, of 58 different contents; every language process of a build
    shares the catalog's memory with the process that loaded it. Each record is frozen (its
    set is never added to) and a copy (``model_copy``) copies the set it is given, so one
    set serves them all; a pickled game keeps the sharing (the build's check cache)."""
    shared: dict[frozenset[str], set[str]] = {}
    stack: list[object] = [record]
    while stack:
        value = stack.pop()
        if isinstance(value, BaseModel):
            own = value.__pydantic_fields_set__
            one = shared.setdefault(frozenset(own), own)
            if one is not own:
                object.__setattr__(value, "__pydantic_fields_set__", one)
            stack.extend(value.__dict__.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())


LANGUAGES_CONTEXT = "languages"
"""Validation context key holding the site's languages (code → name); every text must have
each."""


def language_errors(written: tuple[str, ...], declared: dict[str, str]) -> list[InitErrorDetails]:
    """Each language a text lacks, and each it has that the site does not declare, located at
    the language's key: ``title.zh-Hant: missing 繁體中文 (zh-Hant) text; every text needs zh,
    en and zh-Hant``."""
    if len(written) == len(declared) and all(code in declared for code in written):
        return []  # the common case, for every text of every game: nothing to word
    every = and_list(tuple(declared))
    errors = [
        _language_error(code, f"missing {name} ({code}) text; every text needs {every}")
        for code, name in declared.items()
        if code not in written
    ]
    errors += [
        _language_error(
            code,
            f"unknown language {code!r}: the site's languages are {every} "
            "(languages: in data/site.yaml)",
        )
        for code in written
        if code not in declared
    ]
    return errors


def _language_error(code: str, message: str) -> InitErrorDetails:
    # The message goes in as a value, so braces in a language's name are not a template.
    error = PydanticCustomError("text_language", "{message}", {"message": message})
    return InitErrorDetails(type=error, loc=(code,), input=code)


def and_list(words: tuple[str, ...]) -> str:
    """``zh and en``, ``zh, en and zh-Hant``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _language_texts(limits: TextLimits) -> Any:
    """A text per language code: each checked against ``limits``; which codes are required
    comes from ``data/site.yaml`` (``languages:``), checked after the field checks."""
    checked = Annotated[str, Strict(), AfterValidator(lambda value: check_text(value, limits))]
    return dict[str, checked]


class Text(RootModel[_language_texts(TEXT)]):  # type: ignore[misc]
    """A paragraph in every site language (at most 2,000 characters each), in Markdown:
    paragraphs, **bold**, *italic*, `code`, lists, quotes, tables and links to http:// or
    https:// addresses (at most 10). No headings, images or raw HTML: a heading is shown as
    text, an image or a link elsewhere is an error, HTML tags are shown as typed."""

    model_config = ConfigDict(frozen=True)

    limits: ClassVar[TextLimits] = TEXT
    """What the text in any language may hold."""

    @model_validator(mode="after")
    def _every_language(self, info: ValidationInfo) -> Text:
        # The site's language codes come from data/site.yaml, given as the validation context.
        declared = (info.context or {}).get(LANGUAGES_CONTEXT)
        if declared:
            errors = language_errors(tuple(self.root), declared)
            if errors:
                # Raised as a ValidationError, the errors keep their own keys in the location.
                raise ValidationError.from_exception_data(type(self).__name__, errors)
        return self

    def get(self, lang: str) -> str:
        """The text in the language with code ``lang``."""
        return self.root[lang]

    def __getitem__(self, lang: str) -> str:
        # Templates reach a language by key: ``text[lang]``, ``map(attribute=lang)``.
        return self.root[lang]

    def languages(self) -> tuple[str, ...]:
        """The language codes this text has, as written."""
        return tuple(self.root)


class ShortText(Text):
    """A title, question, name or label in every site language (at most 300 characters each):
    one line of Markdown with **bold**, *italic*, `code` and links to http(s) addresses (at
    most 3) only; line breaks are joined into spaces, and lists, quotes, tables, headings,
    images and raw HTML are not available."""

    limits: ClassVar[TextLimits] = SHORT_TEXT
    root: _language_texts(SHORT_TEXT)  # type: ignore[valid-type]


class LongText(Text):
    """A rule section or an answer in every site language (at most 10,000 characters each), in the
    same Markdown as a paragraph text: paragraphs, **bold**, *italic*, `code`, lists, quotes,
    tables and links to http(s) addresses (at most 10); no headings, images or raw HTML."""

    limits: ClassVar[TextLimits] = LONG_TEXT
    root: _language_texts(LONG_TEXT)  # type: ignore[valid-type]


class IntRange(Record):
    """An inclusive range of whole numbers; ``min`` may equal ``max``."""

    min: WholeNumber = Field(ge=0, le=100_000)
    """Lower bound."""
    max: WholeNumber = Field(ge=0, le=100_000)
    """Upper bound (at least ``min``)."""

    @model_validator(mode="after")
    def _ordered(self) -> IntRange:
        check_ordered(self.min, self.max)
        return self
