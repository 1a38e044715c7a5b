"""Site-wide data: languages, mechanics, topics, labels (``data/site.yaml``)."""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import quote

from pydantic import (
    AfterValidator,
    Field,
    Strict,
)

from rulesite.model.base import (
    NonBlank,
    Record,
    ShortText,
    Slug,
    WholeNumber,
    one_line,
    short_text,
)


class Mechanic(Record):
    """A BGG mechanic tag with its label in both languages."""

    id: Slug
    """Id used in game files."""
    label: ShortText
    """Label; the English one is BGG's own name."""
    special_mode: Annotated[bool, Strict()] = False
    """True for tags that mean a special mode (e.g. solo); the player-count answer mentions them."""


class Topic(Record):
    """A topic tag for rulings."""

    id: Slug
    """Id used in ``faq[].tags``."""
    label: ShortText
    """Label shown on the FAQ page."""


def _no_markup(value: str) -> str:
    if any(c in value for c in '<>&"'):
        raise ValueError('must not contain < > & or " (the theme prints it as it is)')
    return value


PlainText = Annotated[
    str,
    Strict(),
    AfterValidator(short_text),
    AfterValidator(one_line),
    AfterValidator(_no_markup),
]
"""One line of text that is printed as it is (no Markdown, no markup characters)."""


_LANGUAGE_TAG = r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$"
_URL_FOLDER = r"^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$"


def _language_tag(value: str) -> str:
    if len(value) > 35 or not re.fullmatch(_LANGUAGE_TAG, value):
        raise ValueError(
            f"{value!r} is not a language tag: write one such as zh, en, zh-Hant or ja"
        )
    return value


def _url_folder(value: str) -> str:
    if len(value) > 35 or not re.fullmatch(_URL_FOLDER, value):
        raise ValueError(
            f"{value!r} is not a URL folder: lowercase letters, digits and single hyphens, "
            'no slashes (e.g. en or zh-hant; "" for the root language)'
        )
    return value


LanguageCode = Annotated[
    str,
    Strict(),
    AfterValidator(_language_tag),
    Field(json_schema_extra={"pattern": _LANGUAGE_TAG, "maxLength": 35}),
]
"""A BCP 47 language tag such as ``zh``, ``en`` or ``zh-Hant``."""

UrlFolder = Annotated[
    str,
    Strict(),
    AfterValidator(_url_folder),
    Field(json_schema_extra={"pattern": _URL_FOLDER, "maxLength": 35}),
]
"""A folder name in URLs: lowercase letters, digits and single hyphens; empty for the root."""


class SearchSettings(Record):
    """How the search of one language's pages splits text into words."""

    lang: list[LanguageCode] = Field(min_length=1, max_length=10)
    """Languages of Material's search (its ``search.lang``: word stemming and stop words), e.g.
    ``[en, zh]``."""
    jieba: Annotated[bool, Strict()] = False
    """True when the pages are Chinese: the games' ``terms`` and titles become a jieba user
    dictionary, so search keeps them whole words."""


class Language(Record):
    """One language of the site: its pages, address and search."""

    code: LanguageCode
    """Code used as the key of every text (``zh``, ``en``, ``zh-Hant``) and in
    ``rulesite build --language``; it names the folder ``content/<code>/``."""
    name: PlainText
    """Name in the language menu, in the language itself (简体中文, English, 繁體中文)."""
    html_lang: LanguageCode
    """The pages' ``<html lang>`` and Material's interface language (Material must translate
    it: ``zh``, ``en``, ``zh-Hant``, ``ja``...)."""
    prefix: UrlFolder
    """URL folder of the language's pages (``en`` → ``/en/``); empty for the first language,
    which is published at the site root."""
    site_name: PlainText
    """Site name in this language (browser title, header); plain text."""
    tagline: NonBlank
    """One line under the site name on the home page."""
    sentence_space: Annotated[bool, Strict()]
    """True when sentences are separated by a space (English); false when they run on
    (Chinese)."""
    search: SearchSettings
    """Search settings of this language's pages."""


FEEDBACK_PLACEHOLDERS = ("game", "ruling")
"""What a feedback address may contain in braces: the game's slug and the ruling's id."""
_FEEDBACK_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _feedback_url(value: str) -> str:
    # Only https: the link is printed under every ruling, and a reader's report must not travel
    # in the clear or to another scheme (javascript:, mailto:...).
    if not value.startswith("https://") or len(value) <= len("https://"):
        raise ValueError(f"{value!r} is not an https address: write one starting with https://")
    if any(c.isspace() or c in '<>"\\`' for c in value):
        raise ValueError("must not contain spaces, quotes, < > \\ or ` (URL-encode them)")
    known = ", ".join("{" + name + "}" for name in FEEDBACK_PLACEHOLDERS)
    for found in _FEEDBACK_PLACEHOLDER.finditer(value):
        if found.group(1) not in FEEDBACK_PLACEHOLDERS:
            raise ValueError(
                f"{found.group(0)!r} is not a placeholder (this address can use: {known})"
            )
    rest = _FEEDBACK_PLACEHOLDER.sub("", value)
    if "{" in rest or "}" in rest:
        raise ValueError(f"braces only surround a placeholder (this address can use: {known})")
    return value


FeedbackUrl = Annotated[
    str, Strict(), AfterValidator(one_line), AfterValidator(_feedback_url), Field(max_length=500)
]
"""An https address with optional ``{game}`` and ``{ruling}`` placeholders."""


class Feedback(Record):
    """Where readers report a mistake in a ruling or ask about it."""

    url: FeedbackUrl
    """An https address (e.g. a new-issue form) shown as a link under every ruling;
    ``{game}`` and ``{ruling}`` are replaced by the game's slug and the ruling's id
    (URL-encoded)."""

    def href(self, game: str, ruling: str) -> str:
        """The address for one ruling: the placeholders replaced by the URL-encoded ids."""
        values = {"game": quote(game, safe=""), "ruling": quote(ruling, safe="")}
        return _FEEDBACK_PLACEHOLDER.sub(lambda found: values[found.group(1)], self.url)


class SiteData(Record):
    """Site-wide data (``data/site.yaml``)."""

    languages: list[Language] = Field(min_length=1, max_length=20)
    """The site's languages, the one published at the root first. Every text in the data has
    one entry per language, keyed by its ``code``."""
    names_language: LanguageCode
    """Code of the language of the games' and mechanics' BoardGameGeek names: the other
    languages' pages show those names beside their own."""

    @property
    def codes(self) -> tuple[str, ...]:
        """The language codes, the root language's first."""
        return tuple(language.code for language in self.languages)

    @property
    def root_language(self) -> Language:
        """The language published at the site root."""
        return self.languages[0]

    def language(self, code: str) -> Language:
        """The language with ``code`` (a KeyError for an undeclared code)."""
        for language in self.languages:
            if language.code == code:
                return language
        raise KeyError(code)

    platform: ShortText
    """Name of the online-play platform the card reports on (e.g. WANGO)."""
    mechanics: list[Mechanic] = Field(min_length=1, max_length=500)
    """Every mechanic tag games may use."""
    topics: list[Topic] = Field(min_length=1, max_length=200)
    """Every topic tag rulings may use."""
    labels: dict[str, ShortText]
    """Interface wording by key; ``{name}`` placeholders are filled in by the templates."""
    stale_after_days: WholeNumber = Field(default=365, ge=1, le=36_500)
    """Days after which a verification date is old: the card or a ruling last verified longer
    ago is flagged on its page and listed by `rulesite validate` as a warning."""
    feedback: Feedback | None = None
    """Optional: where readers report a mistake in a ruling or ask about it. Without it, the
    rulings carry no such link."""
