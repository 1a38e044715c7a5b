"""Cross checks of ``data/site.yaml``: the languages first, then ids and labels."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from rulesite.check.fields import duplicate_ids, reserved_page_name
from rulesite.check.game import check_text_links
from rulesite.check.labels import check_labels
from rulesite.errors import Document, Problem
from rulesite.model import (
    LANGUAGES_CONTEXT,
    Language,
    SiteData,
    and_list,
)


def check_site(site: SiteData, doc: Document) -> list[Problem]:
    """Cross checks of ``data/site.yaml``."""
    return (
        duplicate_ids(doc, "mechanics", [m.id for m in site.mechanics], "mechanic id")
        + duplicate_ids(doc, "topics", [t.id for t in site.topics], "topic id")
        + [
            problem
            for index, topic in enumerate(site.topics)
            for problem in reserved_page_name(doc, ("topics", index, "id"), topic.id, "topic id")
        ]
        + check_languages(site, doc)
        + check_labels(site.labels, doc, site.codes)
        + check_text_links(site, doc)
    )


def declared_languages(doc: Document) -> dict[str, Any] | None:
    """The validation context of ``data/site.yaml``: its own language codes, when its
    ``languages:`` list is valid (otherwise that list's problems are reported, and the texts'
    languages are not checked against it)."""
    data = doc.data.get("languages") if isinstance(doc.data, dict) else None
    try:
        languages = _LANGUAGE_LIST.validate_python(data)
    except ValidationError:
        return None
    return languages_context(languages)


def languages_context(languages: list[Language]) -> dict[str, Any]:
    return {LANGUAGES_CONTEXT: {language.code: language.name for language in languages}}


_LANGUAGE_LIST = TypeAdapter(list[Language])

RESERVED_URL_FOLDERS = frozenset(
    {"api", "assets", "games", "glossary", "history", "images", "search", "topics"}
)
"""The root language's own folders: a language published under one of them would be moved into
it, its home page replacing that folder's page, and the root's offline worker would leave the
folder to the other language (tests/test_hostile_languages.py checks the list against a build)."""


def language_list_problems(doc: Document) -> list[Problem]:
    """The problems of a well-typed ``languages:`` list (a duplicate code...), checked before
    anything else: while the list is wrong, every text would be reported against it (hundreds
    of "unknown language" lines hiding the one that matters), so the caller stops there."""
    data = doc.data.get("languages") if isinstance(doc.data, dict) else None
    try:
        languages = _LANGUAGE_LIST.validate_python(data)
    except ValidationError:
        return []  # its own problems are reported where the list is built
    problems = check_language_list(languages, doc)
    names = doc.data.get("names_language")
    if problems and isinstance(names, str):  # the one other check of the list, still made
        problems.extend(_names_language(names, tuple(lang.code for lang in languages), doc))
    return problems


def check_languages(site: SiteData, doc: Document) -> list[Problem]:
    """The languages: codes and URL folders unique, the first at the site root and only it,
    the BGG names' language one of them."""
    return check_language_list(site.languages, doc) + _names_language(
        site.names_language, site.codes, doc
    )


def _names_language(names: str, codes: tuple[str, ...], doc: Document) -> list[Problem]:
    if names in codes:
        return []
    message = (
        f"no language with code {names!r} "
        f"(the site's languages are {and_list(tuple(dict.fromkeys(codes)))})"
    )
    return [doc.problem(("names_language",), message)]


def check_language_list(languages: list[Language], doc: Document) -> list[Problem]:
    """Codes and URL folders unique, the first language at the site root and only it."""
    problems = []
    codes: set[str] = set()
    folders: set[str] = set()
    for index, language in enumerate(languages):
        # Language tags are case-insensitive (BCP 47), and so are some file systems' folders
        # (content/<code>/): zh-Hant and zh-hant are one language.
        if language.code.casefold() in codes:
            message = f"duplicate language code {language.code!r}"
            problems.append(doc.problem(("languages", index, "code"), message))
        codes.add(language.code.casefold())
        where = ("languages", index, "prefix")
        if index == 0 and language.prefix:
            message = (
                "the first language is published at the site root: its prefix must be empty "
                f'(""), not {language.prefix!r}'
            )
            problems.append(doc.problem(where, message))
        elif index > 0 and not language.prefix:
            message = (
                "only the first language is published at the site root: give this one a URL "
                f"folder (e.g. {language.code.lower()!r})"
            )
            problems.append(doc.problem(where, message))
        elif language.prefix in folders:
            problems.append(doc.problem(where, f"duplicate URL folder {language.prefix!r}"))
        elif language.prefix in RESERVED_URL_FOLDERS:
            message = (
                f"URL folder {language.prefix!r} is a folder of the site itself (reserved: "
                f"{', '.join(sorted(RESERVED_URL_FOLDERS))}); use the language's code, "
                f"e.g. {language.code.lower()!r}"
            )
            problems.append(doc.problem(where, message))
        folders.add(language.prefix)
    return problems
