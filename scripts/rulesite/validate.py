"""Stage 2: field checks (pydantic), then cross checks; every problem collected, raised once."""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from rulesite import markup
from rulesite.errors import DataError, Problem
from rulesite.glossary import check_glossary
from rulesite.images import ImageFile, check_game_images, image_references
from rulesite.labels import check_labels
from rulesite.load import Document, KeyPath, load_yaml_bytes, read_data_file, yaml_files
from rulesite.model import (
    LANGUAGES_CONTEXT,
    UNION_TAGS,
    Game,
    Language,
    SetupColumnType,
    SiteData,
    Text,
    and_list,
    describe_value,
)
from rulesite.project import Project
from rulesite.provenance import Freshness, check_provenance, measuring_day, stale_warnings
from rulesite.scaffold import find_stubs, is_stub
from rulesite.scoring.check import check_scoring
from rulesite.scoring.modules import module_setting_problems, with_module_settings

ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class Catalog:
    """Every validated record of a project, in a stable order."""

    site: SiteData
    """Site-wide data."""
    games: list[Game]
    """Games sorted by slug."""
    documents: dict[str, Document]
    """Source document of each game by slug (for locating later problems)."""
    digests: dict[str, str] = field(default_factory=dict)
    """SHA-256 of each game file's bytes (and of the pictures it shows) by slug, and of
    ``data/site.yaml`` under ``""``: what a cache of rendered pages keys on."""
    images: dict[str, ImageFile] = field(default_factory=dict)
    """Every picture the games show, checked, by its path under ``data/images/``."""
    as_of: dt.date = field(default_factory=dt.date.today)
    """The day verification dates are aged on (``provenance.measuring_day``)."""
    warnings: tuple[Problem, ...] = ()
    """What is valid but wants an editor's attention: the card or a ruling verified too long
    ago, a ruling that cites no source (``provenance.stale_warnings``)."""


@dataclass(frozen=True)
class CheckedGame:
    """One game file after its field checks and its own cross checks (not those across files)."""

    document: Document | None
    """The parsed file; None when it could not be read or parsed."""
    game: Game | None
    """The record; None when the field checks failed."""
    problems: tuple[Problem, ...]
    """Everything wrong with the file on its own."""


class GameFileCache(Protocol):
    """Keeps checked game files between runs (``cache.py``); ``key`` says what they depend on."""

    def get(self, kind: str, name: str, key: str, make: Callable[[], Any]) -> Any: ...


def load_catalog(
    project: Project, today: dt.date | None = None, cache: GameFileCache | None = None
) -> Catalog:
    """Load and validate every data file; raise :class:`DataError` listing all problems.

    With ``cache``, a game file whose bytes, ``data/site.yaml`` and date are those of an earlier
    run is not parsed or checked again; the checks across files (slugs, calculator ids) always
    run, and every file is read again.
    """
    as_of = measuring_day(today)  # before `today` defaults: SOURCE_DATE_EPOCH must not move it
    today = today or dt.date.today()
    problems: list[Problem] = []
    site_display = _display(project, project.site_file)
    site_raw = _read(project, project.site_file, site_display, problems)
    site_doc = _parse(site_raw, site_display, problems)
    site = _build(SiteData, site_doc, problems, _site_languages(site_doc)) if site_doc else None
    site_digest = _digest(site_raw) if site is not None and site_raw is not None else ""
    # What a game's own checks depend on besides its bytes: the site's mechanics and topics, and
    # today (no verification date in the future).
    context = f"site={site_digest};today={today.isoformat()}"

    games: list[Game] = []
    documents: dict[str, Document] = {}
    digests = {"": site_digest}
    calculator_files: dict[str, str] = {}  # calculator id → file that defines it
    images: dict[str, ImageFile] = {}
    game_files, strays = yaml_files(project.games_dir, _display(project, project.games_dir))
    problems.extend(strays)
    if not game_files:
        problems.append(Problem(project.display(project.games_dir), None, "", "no game files"))
    for path in game_files:
        display = _display(project, path)
        raw = _read(project, path, display, problems)
        if raw is None:
            continue
        digest = _digest(raw)
        checked = _checked(raw, display, path.stem, site, today, cache, digest + context)
        problems.extend(checked.problems)
        doc, game = checked.document, checked.game
        if doc is None or game is None:
            continue
        problems.extend(_calculator_clashes(game, doc, calculator_files))
        # Pictures are files of their own, so they are checked on every run, never cached.
        problems.extend(check_game_images(project, game, doc, images))
        if game.slug in documents:
            other = documents[game.slug].file
            problems.append(doc.problem(("slug",), f"slug {game.slug!r} is also used by {other}"))
            continue
        documents[game.slug] = doc
        digests[game.slug] = _with_images(digest, game, images)
        games.append(game)

    if site is not None and site_doc is not None:
        problems.extend(check_site(site, site_doc))
    if problems or site is None:
        raise DataError(problems)
    freshness = Freshness(as_of, site.stale_after_days)
    warnings = [w for g in games for w in stale_warnings(g, documents[g.slug], freshness)]
    return Catalog(
        site,
        sorted(games, key=lambda g: g.slug),
        documents,
        digests,
        images,
        as_of=as_of,
        warnings=tuple(sorted(warnings)),
    )


def check_game_file(
    raw: bytes, display: str, stem: str, site: SiteData | None, today: dt.date
) -> CheckedGame:
    """Parse one game file's bytes and run every check that needs only this file and the site."""
    problems: list[Problem] = []
    doc = _parse(raw, display, problems)
    if doc is not None:
        # Stubs of `rulesite new` are listed all at once, even while they break the types.
        problems.extend(find_stubs(doc))
    languages = _languages_context(site.languages) if site is not None else None
    game = _build(Game, doc, problems, languages) if doc else None
    if doc is not None and game is not None:
        problems.extend(check_game(game, doc, stem, site, today))
        module_problems = check_modules(game, doc)
        problems.extend(module_problems)
        if not module_problems:  # the calculators' module settings need modules that resolve
            game = with_module_settings(game)
        problems.extend(check_setup(game, doc))
        problems.extend(check_scoring(game, doc))
        problems.extend(check_text_links(game, doc))
    return CheckedGame(doc, game, tuple(problems))


def _checked(
    raw: bytes,
    display: str,
    stem: str,
    site: SiteData | None,
    today: dt.date,
    cache: GameFileCache | None,
    key: str,
) -> CheckedGame:
    def check() -> CheckedGame:
        return check_game_file(raw, display, stem, site, today)

    return check() if cache is None else cache.get("checked", display, key, check)


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _with_images(digest: str, game: Game, images: dict[str, ImageFile]) -> str:
    """A game's digest that also changes when a picture it shows does (its size is on a page)."""
    shown = sorted({image.file for _, image in image_references(game)})
    if not shown:
        return digest
    parts = [digest] + [f"{file}={images[file].digest}" for file in shown if file in images]
    return _digest(";".join(parts).encode())


def _calculator_clashes(game: Game, doc: Document, taken: dict[str, str]) -> list[Problem]:
    """Calculator ids are public (`rulesite score <id>`), so they are unique across games.

    ``taken`` maps the ids seen so far to their files; this game's ids are added to it.
    """
    problems = []
    for index, calc in enumerate(game.scoring):
        if calc.id in taken:
            message = f"calculator id {calc.id!r} is also used in {taken[calc.id]}"
            problems.append(doc.problem(("scoring", index, "id"), message))
        else:
            taken[calc.id] = doc.file
    return problems


def _display(project: Project, path: Path) -> str:
    """``path`` as shown in messages: relative to the project, its own symlink not followed."""
    return f"{project.display(path.parent)}/{path.name}"


def _read(project: Project, path: Path, display: str, problems: list[Problem]) -> bytes | None:
    try:
        return read_data_file(path, display, project.root)
    except DataError as error:
        problems.extend(error.problems)
        return None


def _parse(raw: bytes | None, display: str, problems: list[Problem]) -> Document | None:
    if raw is None:
        return None
    try:
        return load_yaml_bytes(raw, display)
    except DataError as error:
        problems.extend(error.problems)
        return None


def _build(
    model: type[ModelT],
    doc: Document,
    problems: list[Problem],
    context: dict[str, Any] | None = None,
) -> ModelT | None:
    """The record ``doc`` holds, or None with its problems added; ``context`` carries the
    site's language codes, which every text must have."""
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__ if doc.data is not None else "nothing"
        problems.append(doc.problem((), f"expected a mapping of keys at the top level, got {kind}"))
        return None
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as error:
        problems.extend(_pydantic_problems(error, doc))
        return None


def _pydantic_problems(error: ValidationError, doc: Document) -> Iterable[Problem]:
    for item in error.errors(include_url=False):
        loc: KeyPath = tuple(part for part in item["loc"] if part not in UNION_TAGS)
        if is_stub(item.get("input")):
            continue  # find_stubs reports it
        yield doc.problem(loc, _message(item, loc, doc.spellings.get(loc)))


_EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "float_type": "a number",
    "bool_type": "true or false",
}
"""What a field of each pydantic type error wanted, in words."""


def _message(item: Any, loc: KeyPath, spelled: str | None = None) -> str:
    """One pydantic error in words; ``spelled`` is how an unquoted YAML value was written."""
    kind = item["type"]
    last = loc[-1] if loc else ""
    value = item.get("input")
    if kind == "missing":
        return "missing required key"
    if kind == "extra_forbidden":
        return f"unknown key {last!r}"
    if kind == "setup_cell":  # model.SetupCell: the column says which, checked after this
        wanted = "expected a whole number, true or false, or a text in every language"
        return f"{wanted}, got {describe_value(value)}{_yaml_reading(value, spelled)}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"expected a mapping, got {describe_value(value)}"
    if kind == "list_type":
        return f"expected a list, got {describe_value(value)}"
    if kind == "string_type" and value is None and not spelled:
        return "is empty; write the text"
    if kind == "string_pattern_mismatch":
        return f"{value!r} is not a valid id: use lowercase letters, digits and hyphens"
    if kind in _EXPECTED:
        return _wrong_type(_EXPECTED[kind], value, spelled)
    if kind == "too_long" and "actual_length" in item.get("ctx", {}):
        ctx = item["ctx"]
        return f"has {ctx['actual_length']:,} entries; at most {ctx['max_length']:,} here"
    if kind == "string_too_long":
        return f"text is {len(value):,} characters; at most {item['ctx']['max_length']:,} here"
    message = str(item["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    message = message[0].lower() + message[1:] if message else "invalid value"
    if kind in ("enum", "literal_error") and not isinstance(value, str):
        message += f", got {describe_value(value)}{_yaml_reading(value, spelled)}"
    return message


def _wrong_type(expected: str, value: Any, spelled: str | None) -> str:
    """``expected text, got boolean false (YAML reads unquoted no/off/false as a boolean)...``"""
    message = f"expected {expected}, got {describe_value(value)}{_yaml_reading(value, spelled)}"
    if expected == "text" and spelled:
        return f'{message}; quote it: "{spelled}"'
    if isinstance(value, str) and expected != "text" and _is_number(value):
        return f"{message}; remove the quotes"
    return message


def _yaml_reading(value: Any, spelled: str | None) -> str:
    """Why YAML made ``value`` of what was written: YAML 1.1 turns ``no`` into false."""
    if not spelled:
        return ""
    if isinstance(value, bool):
        words = "yes/on/true" if value else "no/off/false"
        return f" (YAML reads unquoted {words} as a boolean)"
    kind = "nothing" if value is None else "a date" if isinstance(value, dt.date) else "a number"
    return f" (YAML reads unquoted {spelled} as {kind})"


def _is_number(text: str) -> bool:
    return re.fullmatch(r"[-+]?[0-9]+(?:\.[0-9]+)?", text.strip()) is not None


def check_game(
    game: Game, doc: Document, stem: str, site: SiteData | None, today: dt.date
) -> list[Problem]:
    """Cross checks of one game that types alone cannot express."""
    problems: list[Problem] = []
    if game.slug != stem:
        problems.append(
            doc.problem(("slug",), f"slug {game.slug!r} must equal the file name {stem!r}")
        )
    problems += _duplicates(doc, "rules", [r.id for r in game.rules], "rule section id")
    problems += _duplicates(doc, "faq", [r.id for r in game.faq], "ruling id")
    problems += _duplicates(doc, "glossary", [term.id for term in game.glossary], "glossary id")
    problems += _glossary_anchors_taken(game, doc)
    problems += check_glossary(game, doc, site.codes if site is not None else None)
    problems += check_changes(game, doc, today)
    rule_ids = {r.id for r in game.rules}
    known = ", ".join(sorted(rule_ids))
    for path, ref in _rule_references(game):
        if ref not in rule_ids:
            problems.append(doc.problem(path, f"no rule section with id {ref!r} (known: {known})"))
    problems += check_provenance(game, doc, today)
    if game.card.verified > today:
        problems.append(
            doc.problem(
                ("card", "verified"), f"date {game.card.verified.isoformat()} is in the future"
            )
        )
    if game.card.best_players.min < game.card.players.min or (
        game.card.best_players.max > game.card.players.max
    ):
        problems.append(
            doc.problem(
                ("card", "best_players"),
                "best player count lies outside the supported player count",
            )
        )
    if site is not None:
        problems += _unknown(
            doc,
            ("card", "mechanics"),
            game.card.mechanics,
            {m.id for m in site.mechanics},
            "mechanic",
        )
        for index, ruling in enumerate(game.faq):
            problems += _unknown(
                doc, ("faq", index, "tags"), ruling.tags, {t.id for t in site.topics}, "topic"
            )
    return problems


MAX_MODULE_ID = 40
"""Longest module id: a calculator that uses the module gets a setting of that name."""


def check_modules(game: Game, doc: Document) -> list[Problem]:
    """Module ids are unique and can name a setting; every ``module:`` tag names a module the
    pages cover (one that is not covered is listed, never summarised or scored)."""
    problems = _duplicates(doc, "modules", [m.id for m in game.modules], "module id")
    for index, module in enumerate(game.modules):
        if not module.id[0].isalpha() or len(module.id) > MAX_MODULE_ID:
            message = (
                f"module id {module.id!r} must start with a letter and have at most "
                f"{MAX_MODULE_ID} characters (a calculator gets a setting of that name)"
            )
            problems.append(doc.problem(("modules", index, "id"), message))
    modules = {m.id: m for m in game.modules}
    for path, ref in _module_tags(game):
        module = modules.get(ref)
        if module is None:
            problems.append(doc.problem(path, _unknown_module(ref, sorted(modules))))
        elif not module.in_scope:
            message = (
                f"module {ref!r} is not covered (in_scope: false): nothing may be tagged with "
                "it; set in_scope: true if the pages cover it, or remove the tag"
            )
            problems.append(doc.problem(path, message))
    for index, calc in enumerate(game.scoring):
        for where, message in module_setting_problems(calc):
            problems.append(doc.problem(("scoring", index, *where), message))
    return problems


def _module_tags(game: Game) -> Iterator[tuple[KeyPath, str]]:
    """Every ``module:`` tag of a game, with its key path."""
    for index, section in enumerate(game.rules):
        if section.module is not None:
            yield ("rules", index, "module"), section.module
    for index, ruling in enumerate(game.faq):
        if ruling.module is not None:
            yield ("faq", index, "module"), ruling.module
    for index, calc in enumerate(game.scoring):
        for term_index, term in enumerate(calc.terms):
            if term.module is not None:
                yield ("scoring", index, "terms", term_index, "module"), term.module


def _unknown_module(ref: str, known: list[str]) -> str:
    if not known:
        return f"no module with id {ref!r}: define it under modules: first"
    close = difflib.get_close_matches(ref, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
    return f"no module with id {ref!r} ({hint})"


def check_text_links(record: BaseModel, doc: Document, path: KeyPath = ()) -> list[Problem]:
    """Links in data text go to web addresses and there are no images: the page drops others."""
    problems = []
    for text_path, text in _texts(record, path):
        for target in markup.unsafe_links(text):
            message = (
                f"link or image {target[:80]!r}: texts may only link to http:// or https:// "
                "addresses and show no images (link rule sections with a ruling's `rules:`)"
            )
            problems.append(doc.problem(text_path, message))
    return problems


def _texts(value: Any, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    """Every text of every language in a record, with its key path."""
    if isinstance(value, Text):
        for lang, text in value.root.items():
            yield (*path, lang), text
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _texts(getattr(value, name), (*path, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _texts(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, (*path, key))


def _rule_references(game: Game) -> Iterator[tuple[KeyPath, str]]:
    """Every place a game points at one of its rule sections, with the id it names."""
    for index, ruling in enumerate(game.faq):
        for ref_index, ref in enumerate(ruling.rules):
            yield ("faq", index, "rules", ref_index), ref
    for index, calc in enumerate(game.scoring):
        yield ("scoring", index, "rule"), calc.rule
        for kind, items in (("inputs", calc.inputs), ("terms", calc.terms)):
            for item_index, item in enumerate(items):
                if item.rule is not None:
                    yield ("scoring", index, kind, item_index, "rule"), item.rule
    for index, table in enumerate(game.setup):
        if table.rule is not None:
            yield ("setup", index, "rule"), table.rule
    for index, change in enumerate(game.changes):
        for ref_index, ref in enumerate(change.rules):
            yield ("changes", index, "rules", ref_index), ref
    for index, term in enumerate(game.glossary):
        for ref_index, ref in enumerate(term.rules):
            yield ("glossary", index, "rules", ref_index), ref


GLOSSARY_ANCHOR = "glossary"
"""Anchor of the rules page's glossary; each of its terms is ``#term-<id>``."""


def _glossary_anchors_taken(game: Game, doc: Document) -> list[Problem]:
    """Rule sections and setup tables are anchors on the rules page, beside the glossary's: an
    id among those would make two elements share an anchor, and links land on the first."""
    anchored: list[tuple[KeyPath, str]] = [
        *((("rules", index, "id"), section.id) for index, section in enumerate(game.rules)),
        *((("setup", index, "id"), table.id) for index, table in enumerate(game.setup)),
    ]
    problems = []
    for path, anchor in anchored:
        if anchor == GLOSSARY_ANCHOR:
            message = f"{anchor!r} is the anchor of the rules page's glossary; choose another id"
            problems.append(doc.problem(path, message))
        elif anchor.startswith("term-"):
            message = (
                f"{anchor!r}: ids starting with 'term-' are the glossary terms' anchors on the "
                "rules page; choose another id"
            )
            problems.append(doc.problem(path, message))
    return problems


def check_changes(game: Game, doc: Document, today: dt.date) -> list[Problem]:
    """A game's "What changed" list: ids unique, newest first, no date in the future, and every
    ruling it names exists (rule sections are checked with the other rule references)."""
    problems = _duplicates(doc, "changes", [c.id for c in game.changes], "change id")
    ruling_ids = {r.id for r in game.faq}
    known = ", ".join(sorted(ruling_ids)) or "none"
    for index, change in enumerate(game.changes):
        where = ("changes", index)
        if change.date > today:
            problems.append(
                doc.problem((*where, "date"), f"date {change.date.isoformat()} is in the future")
            )
        # Editors add an entry at the top, as in a changelog; the page and the feeds show the
        # list as written, so an entry out of place is a mistake to point at, not to hide.
        if index > 0 and change.date > game.changes[index - 1].date:
            before = game.changes[index - 1].date.isoformat()
            problems.append(
                doc.problem(
                    (*where, "date"),
                    f"{change.date.isoformat()} is newer than changes[{index - 1}] ({before}); "
                    "list changes newest first",
                )
            )
        for ref_index, ref in enumerate(change.faq):
            if ref not in ruling_ids:
                problems.append(
                    doc.problem(
                        (*where, "faq", ref_index),
                        f"no FAQ ruling with id {ref!r} (known: {known})",
                    )
                )
    return problems


def check_site(site: SiteData, doc: Document) -> list[Problem]:
    """Cross checks of ``data/site.yaml``."""
    return (
        _duplicates(doc, "mechanics", [m.id for m in site.mechanics], "mechanic id")
        + _duplicates(doc, "topics", [t.id for t in site.topics], "topic id")
        + check_languages(site, doc)
        + check_labels(site.labels, doc, site.codes)
        + check_text_links(site, doc)
    )


def _site_languages(doc: Document) -> dict[str, Any] | None:
    """The validation context of ``data/site.yaml``: its own language codes, when its
    ``languages:`` list is valid (otherwise that list's problems are reported, and the texts'
    languages are not checked against it)."""
    data = doc.data.get("languages") if isinstance(doc.data, dict) else None
    try:
        languages = _LANGUAGE_LIST.validate_python(data)
    except ValidationError:
        return None
    return _languages_context(languages)


def _languages_context(languages: list[Language]) -> dict[str, Any]:
    return {LANGUAGES_CONTEXT: {language.code: language.name for language in languages}}


_LANGUAGE_LIST = TypeAdapter(list[Language])

RESERVED_URL_FOLDERS = frozenset(
    {"api", "assets", "games", "glossary", "images", "search", "topics"}
)
"""The root language's own folders: a language published under one of them would be moved into
it, its home page replacing that folder's page, and the root's offline worker would leave the
folder to the other language (tests/test_hostile_languages.py checks the list against a build)."""


def check_languages(site: SiteData, doc: Document) -> list[Problem]:
    """The languages: codes and URL folders unique, the first at the site root and only it,
    the BGG names' language one of them."""
    problems = []
    codes: set[str] = set()
    folders: set[str] = set()
    for index, language in enumerate(site.languages):
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
    if site.names_language not in site.codes:
        message = (
            f"no language with code {site.names_language!r} "
            f"(the site's languages are {and_list(tuple(dict.fromkeys(site.codes)))})"
        )
        problems.append(doc.problem(("names_language",), message))
    return problems


def load_site(project: Project) -> SiteData:
    """Only ``data/site.yaml``, validated with its own checks (for commands that need the
    languages without the games); raise :class:`DataError` listing all problems."""
    problems: list[Problem] = []
    display = _display(project, project.site_file)
    doc = _parse(_read(project, project.site_file, display, problems), display, problems)
    site = _build(SiteData, doc, problems, _site_languages(doc)) if doc else None
    if site is not None and doc is not None:
        problems.extend(check_site(site, doc))
    if problems or site is None:
        raise DataError(problems)
    return site


def _duplicates(doc: Document, key: str, ids: list[str], what: str) -> list[Problem]:
    counts = Counter(ids)
    seen: set[str] = set()
    problems = []
    for index, value in enumerate(ids):
        if counts[value] > 1 and value in seen:
            problems.append(doc.problem((key, index, "id"), f"duplicate {what} {value!r}"))
        seen.add(value)
    return problems


def _unknown(
    doc: Document, path: KeyPath, values: list[str], known: set[str], what: str
) -> list[Problem]:
    return [
        doc.problem((*path, index), f"unknown {what} {value!r}; define it in data/site.yaml")
        for index, value in enumerate(values)
        if value not in known
    ]


# --- Setup tables ------------------------------------------------------------------------------

_CELL_TYPES: dict[SetupColumnType, tuple[type, str]] = {
    SetupColumnType.integer: (int, "a whole number"),
    SetupColumnType.text: (Text, "a text in every language"),
    SetupColumnType.yes_no: (bool, "true or false"),
}
"""What each column type's cells hold, and how a message names it."""


def check_setup(game: Game, doc: Document) -> list[Problem]:
    """Setup tables: ids unique, one row per player count within the card's, every cell typed."""
    problems = _duplicates(doc, "setup", [table.id for table in game.setup], "setup table id")
    rule_ids = {section.id for section in game.rules}
    for index, table in enumerate(game.setup):
        path: KeyPath = ("setup", index)
        if table.id in rule_ids:
            message = (
                f"setup table id {table.id!r} is also a rule section's id; both are anchors on "
                "the rules page: choose another"
            )
            problems.append(doc.problem((*path, "id"), message))
        column_ids = [column.id for column in table.columns]
        problems += [
            doc.problem((*path, "columns", number, "id"), f"duplicate column id {column!r}")
            for number, column in enumerate(column_ids)
            if column in column_ids[:number]
        ]
        columns = {column.id: column.type for column in table.columns}
        problems += _check_rows(doc, path, table.rows, game.card.players)
        for number, row in enumerate(table.rows):
            problems += _check_cells(doc, (*path, "rows", number, "cells"), row.cells, columns)
    return problems


def _check_rows(doc: Document, path: KeyPath, rows: list[Any], players: Any) -> list[Problem]:
    problems = []
    seen: dict[int, int] = {}
    for number, row in enumerate(rows):
        where = (*path, "rows", number, "players")
        if row.players in seen:
            message = f"{row.players} players already has a row (rows[{seen[row.players]}])"
            problems.append(doc.problem(where, message))
        elif seen and row.players < max(seen):
            message = f"rows go from fewest to most players; {row.players} comes after {max(seen)}"
            problems.append(doc.problem(where, message))
        seen.setdefault(row.players, number)
        if not players.min <= row.players <= players.max:
            message = (
                f"{row.players} players is outside the card's player count "
                f"({players.min}–{players.max})"
            )
            problems.append(doc.problem(where, message))
    return problems


def _check_cells(
    doc: Document, path: KeyPath, cells: dict[str, Any], columns: dict[str, SetupColumnType]
) -> list[Problem]:
    problems = []
    for column_id, column_type in columns.items():
        if column_id not in cells:
            problems.append(doc.problem(path, f"missing the cell of column {column_id!r}"))
            continue
        value = cells[column_id]
        kind, wanted = _CELL_TYPES[column_type]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            got = "a text" if isinstance(value, Text) else describe_value(value)
            message = f"column {column_id!r} holds {wanted}, got {got}"
            problems.append(doc.problem((*path, column_id), message))
    for column_id in cells:
        if column_id not in columns:
            known = ", ".join(columns)
            message = f"no column {column_id!r} in this table (its columns: {known})"
            problems.append(doc.problem((*path, column_id), message))
    return problems
