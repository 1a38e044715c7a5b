"""The catalog: the validated whole, built by :func:`load_catalog` and used by every later stage."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rulesite.check.fields import build_record, check_record
from rulesite.check.game import (
    check_game,
    check_modules,
    check_setup,
    check_slug_aliases,
    check_text_links,
)
from rulesite.check.images import ImageFile, check_game_images, image_references
from rulesite.check.partial import guarded
from rulesite.check.provenance import Freshness, measuring_day, stale_warnings
from rulesite.check.site import (
    check_site,
    declared_languages,
    language_list_problems,
    languages_context,
)
from rulesite.check.split import map_split, map_split_pickled, no_collection
from rulesite.check.stubs import find_stubs
from rulesite.check.terms import site_term_warnings, term_warnings
from rulesite.errors import DataError, Document, Problem, format_path
from rulesite.load.reader import parse_yaml_bytes, read_data_file, yaml_files
from rulesite.model import (
    Game,
    SiteData,
)
from rulesite.model.base import share_field_sets
from rulesite.project import Project
from rulesite.scoring.check import check_scoring
from rulesite.scoring.modules import with_module_settings


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
    ago, a ruling that cites no source (``provenance.stale_warnings``), a text using a variant
    a glossary term says to avoid (``terms.term_warnings``)."""


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
    """Keeps checked game files between runs (``render/cache.py``); ``key`` says what they
    depend on."""

    def get(self, kind: str, name: str, key: str, make: Callable[[], Any]) -> Any: ...


class CheckStore(Protocol):
    """Keeps checked game files on disk between builds (``publish/check_cache.py``): each by
    its file's name and a key of everything its check read (its bytes, ``data/site.yaml``,
    the date); the store adds what the process is (the code, the engines)."""

    def load(self, name: str, key: str) -> CheckedGame | None:
        """The kept result of ``name`` checked under ``key``; None when there is none."""
        ...

    def keep(self, name: str, key: str, pickled: bytes) -> None:
        """Keep ``name``'s result (pickled) as checked under ``key``."""
        ...

    def done(self) -> None:
        """Every file was loaded or kept: drop what this run did not use."""
        ...


def load_catalog(
    project: Project,
    today: dt.date | None = None,
    cache: GameFileCache | None = None,
    stored: CheckStore | None = None,
) -> Catalog:
    """Load and validate every data file; raise :class:`DataError` listing all problems.

    With ``cache`` (in memory) or ``stored`` (on disk), a game file whose bytes,
    ``data/site.yaml`` and date are those of an earlier run is not parsed or checked again; the
    checks across files (slugs, calculator ids, pictures, warnings) always run, and every file
    is read again. Otherwise the game files are checked on two cores where there are two
    (``check/split.py``), as are those ``stored`` lacks. With both (the preview's start), what
    ``stored`` gives or checks goes into ``cache`` for the loads that follow.
    """
    with no_collection():  # a million objects, none of them garbage: no collector passes
        return _load_catalog(project, today, cache, stored)


def _load_catalog(
    project: Project,
    today: dt.date | None,
    cache: GameFileCache | None,
    stored: CheckStore | None = None,
) -> Catalog:
    as_of = measuring_day(today)  # before `today` defaults: SOURCE_DATE_EPOCH must not move it
    today = today or dt.date.today()
    problems: list[Problem] = []
    site_display = _display(project, project.site_file)
    site_raw = _read(project, project.site_file, site_display, problems)
    site_doc = _parse(site_raw, site_display, problems)
    # A wrong language list (a duplicate code) is reported alone: every text checked against
    # it would be a false "unknown language" problem.
    wrong_languages = language_list_problems(site_doc) if site_doc else []
    problems.extend(wrong_languages)
    site, partial_site = (
        check_record(SiteData, site_doc, problems, declared_languages(site_doc))
        if site_doc and not wrong_languages
        else (None, None)
    )
    # A site file with a slip still lets the games be checked against what of it is sound.
    games_site = site or _sound_site(partial_site)
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
    # Every game file lies in the games folder: it and the project's root are resolved once for
    # all of them, not once for each (at 300 games a preview's update spent 40 % of loading the
    # catalog resolving the same folders again).
    folder, real_root = project.display(project.games_dir), project.root.resolve()
    files = [
        _GameFile.read(project, path, f"{folder}/{path.name}", real_root) for path in game_files
    ]
    # A store keeps only what was checked against a whole, valid site file.
    store = stored if site is not None else None
    check = _Check(games_site, site is None, today, cache, context, store)
    checked_files = iter(check.all([f for f in files if f.raw is not None]))
    for file in files:
        problems.extend(file.problems)
        if file.raw is None:
            continue
        checked = next(checked_files)
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
        digests[game.slug] = _with_images(file.digest, game, images)
        games.append(game)

    problems.extend(check_slug_aliases(games, documents))
    if site_doc is not None and (site or partial_site) is not None:
        checked_site = site or partial_site
        problems.extend(guarded(lambda: check_site(checked_site, site_doc), site is None))
    if problems or site is None:
        raise DataError(problems)
    freshness = Freshness(as_of, site.stale_after_days)
    warnings = [w for g in games for w in stale_warnings(g, documents[g.slug], freshness)]
    warnings += [w for g in games for w in term_warnings(g, documents[g.slug])]
    if site_doc is not None:
        warnings += site_term_warnings(site, site_doc, games)
    return Catalog(
        site,
        sorted(games, key=lambda g: g.slug),
        documents,
        digests,
        images,
        as_of=as_of,
        warnings=tuple(sorted(warnings)),
    )


@dataclass(frozen=True)
class _GameFile:
    """One game file as read: its bytes (None when it could not be read) and why not."""

    display: str
    stem: str
    raw: bytes | None
    problems: list[Problem]
    digest: str
    """SHA-256 of the bytes, once: the cache's key and the game's digest both use it."""

    @classmethod
    def read(cls, project: Project, path: Path, display: str, real_root: Path) -> _GameFile:
        problems: list[Problem] = []
        raw = _read(project, path, display, problems, real_root)
        return cls(display, path.stem, raw, problems, _digest(raw or b""))


@dataclass(frozen=True)
class _Check:
    """What every game file is checked against; checks them, on two cores without a cache."""

    site: SiteData | None
    site_partial: bool
    today: dt.date
    cache: GameFileCache | None
    context: str
    store: CheckStore | None = None

    def all(self, files: list[_GameFile]) -> list[CheckedGame]:
        if self.store is not None:
            checked = self.stored(self.store, files)
            if self.cache is not None:  # the preview's start: kept for its edits' loads too
                return [
                    self.cache.get("checked", file.display, self.key(file), lambda c=c: c)
                    for file, c in zip(files, checked, strict=True)
                ]
            return checked
        if self.cache is not None:  # the preview: few files change, each looked up
            return [self.one(file) for file in files]
        return map_split(self.one, files, [len(file.raw or b"") for file in files])

    def key(self, file: _GameFile) -> str:
        """What a file's check is kept under: its bytes and everything it was checked against."""
        return file.digest + self.context

    def stored(self, store: CheckStore, files: list[_GameFile]) -> list[CheckedGame]:
        """Each file's result from ``store``; those it lacks checked (on two cores) and kept."""
        found = [store.load(file.display, self.key(file)) for file in files]
        missing = [index for index, checked in enumerate(found) if checked is None]
        sizes = [len(files[index].raw or b"") for index in missing]
        made = map_split_pickled(self.one, [files[index] for index in missing], sizes)
        results = dict(zip(missing, made, strict=True))
        checked_files: list[CheckedGame] = []
        for index, file in enumerate(files):
            kept = found[index]
            if kept is None:
                kept, pickled = results[index]
                store.keep(file.display, self.key(file), pickled)
            checked_files.append(kept)
        store.done()
        return checked_files

    def one(self, file: _GameFile) -> CheckedGame:
        raw = file.raw or b""

        def check() -> CheckedGame:
            return check_game_file(
                raw, file.display, file.stem, self.site, self.today, self.site_partial
            )

        if self.cache is None:
            return check()
        return self.cache.get("checked", file.display, self.key(file), check)


def check_game_file(
    raw: bytes,
    display: str,
    stem: str,
    site: SiteData | None,
    today: dt.date,
    site_partial: bool = False,
) -> CheckedGame:
    """Parse one game file's bytes and run every check that needs only this file and the site
    (``site_partial``: the site's record is the sound part of a site file that failed)."""
    problems: list[Problem] = []
    doc = _parse(raw, display, problems)
    if doc is not None:
        # Stubs of `rulesite new` are listed all at once, even while they break the types.
        problems.extend(find_stubs(doc))
    languages = languages_context(site.languages) if site is not None else None
    field_problems: list[Problem] = []
    game, partial = check_record(Game, doc, field_problems, languages) if doc else (None, None)
    problems.extend(field_problems)
    subject = game or partial
    if doc is not None and subject is not None:
        # A game that failed a field check is still cross-checked, as far as it is sound
        # (check/partial.py): every problem in one run. Where a field check or the reader
        # refused a value, nothing more is said (a duplicate key's first value is kept, and
        # checked).
        field_paths = {p.path for p in field_problems} | {
            format_path(path) for path in doc.refused_paths
        }
        # A calculator is checked by compiling and running it: only a sound one can be.
        scoring = not any(_under(path, {"scoring"}) for path in field_paths)
        partial_run = game is None or site_partial
        cross, settled = _cross_checks(subject, doc, stem, site, today, partial_run, scoring)
        problems.extend(p for p in cross if game is not None or not _under(p.path, field_paths))
        game = settled if game is not None else None
    if game is not None:
        share_field_sets(game)
    return CheckedGame(doc, game, tuple(problems))


def _cross_checks(
    game: Game,
    doc: Document,
    stem: str,
    site: SiteData | None,
    today: dt.date,
    partial: bool,
    scoring: bool,
) -> tuple[list[Problem], Game]:
    """Every check of one game that needs more than its types, and the game with its
    calculators' module settings; on a partial game (or site), each check that meets a refused
    part is skipped, and the calculators' checks run only when ``scoring`` says they are
    sound."""

    def run(check: Callable[[], list[Problem]]) -> list[Problem]:
        return guarded(check, partial)

    problems = check_game(game, doc, stem, site, today, run)
    module_problems = run(lambda: check_modules(game, doc))
    problems.extend(module_problems)
    if not module_problems:  # the calculators' module settings need modules that resolve
        with_settings = run(lambda: [with_module_settings(game)])
        game = with_settings[0] if with_settings else game
    problems.extend(run(lambda: check_setup(game, doc)))
    if scoring:
        problems.extend(run(lambda: check_scoring(game, doc)))
    problems.extend(run(lambda: check_text_links(game, doc)))
    return problems, game


def _under(path: str, places: set[str]) -> bool:
    """Whether ``path`` is one of ``places`` or inside one (``faq[1].rules[0]`` in ``faq[1]``)."""
    return any(
        path == place or (place and path.startswith(place) and path[len(place)] in ".[")
        for place in places
    )


def _sound_site(partial: SiteData | None) -> SiteData | None:
    """A partial site's record when the parts the games are checked against are sound."""
    if partial is None:
        return None
    try:
        {m.id for m in partial.mechanics} | {t.id for t in partial.topics}
        {language.code for language in partial.languages}
    except AttributeError:
        return None
    return partial


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


def _read(
    project: Project,
    path: Path,
    display: str,
    problems: list[Problem],
    real_root: Path | None = None,
) -> bytes | None:
    """``path``'s bytes, or None with its problems added; ``real_root``: the project's root
    already resolved (else it is resolved here)."""
    try:
        return read_data_file(path, display, real_root or project.root.resolve())
    except DataError as error:
        problems.extend(error.problems)
        return None


def _parse(raw: bytes | None, display: str, problems: list[Problem]) -> Document | None:
    if raw is None:
        return None
    try:
        doc = parse_yaml_bytes(raw, display)
    except DataError as error:
        problems.extend(error.problems)
        return None
    problems.extend(doc.refused)  # a duplicate key, a bad date: the rest is still checked
    return doc


def _site_record(doc: Document | None, problems: list[Problem]) -> SiteData | None:
    """The site's record, or None with its problems added; a wrong language list alone."""
    if doc is None:
        return None
    wrong_languages = language_list_problems(doc)
    if wrong_languages:
        problems.extend(wrong_languages)
        return None
    return build_record(SiteData, doc, problems, declared_languages(doc))


def load_site(project: Project) -> SiteData:
    """Only ``data/site.yaml``, validated with its own checks (for commands that need the
    languages without the games); raise :class:`DataError` listing all problems."""
    problems: list[Problem] = []
    display = _display(project, project.site_file)
    doc = _parse(_read(project, project.site_file, display, problems), display, problems)
    site = _site_record(doc, problems)
    if site is not None and doc is not None:
        problems.extend(check_site(site, doc))
    if problems or site is None:
        raise DataError(problems)
    return site
