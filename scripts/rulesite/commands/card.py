"""`rulesite card refresh [SLUG ...] [--all]`: a game's parameter card from BoardGameGeek.

What BGG knows (player counts, the best counts from its players' poll, play time, minimum
age, year, weight, rank, mechanics) is written into the card; everything about the rules stays
the editor's. The command:

1. reads each chosen game file (valid or not: a new game's stubs do not stop it, only its
   ``card.bgg_id`` must be a number) and ``data/site.yaml`` (the mechanics);
2. fetches every game from BGG (``commands/bgg.py``), or reads ranks from BGG's ranks dump
   (``--ranks-csv``, no token); a network failure stops here, every file as it was;
3. edits each file as an editor would (``commands/card_yaml.py``: comments, order, quoting
   kept): only the card's keys, ``card.verified`` set to the day of the fetch, and BGG recorded
   as the card's source with that date;
4. shows each file's diff, then writes with ``--yes`` or after a yes at the prompt (never with
   ``--dry-run``). Mechanics BGG lists that ``data/site.yaml`` does not define, designers,
   publishers and BGG's other names for the game are listed for the editor, never written.
"""

from __future__ import annotations

import csv
import datetime as dt
import difflib
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from rulesite.catalog import load_site
from rulesite.commands.bgg import TOKEN_VARIABLE, BggClient, Thing, Transport
from rulesite.commands.card_yaml import RoundTrip, set_list, set_range, set_value
from rulesite.errors import UsageError
from rulesite.model import SiteData
from rulesite.project import Project
from rulesite.terminal import printable

BGG_SOURCE_ID = "bgg"
BGG_HOST = "boardgamegeek.com"
MAX_CSV_BYTES = 100_000_000
"""BGG's ranks dump is about 25 MB; a file far larger is not it."""
_HAN = re.compile(r"[\u3400-\u9fff]")


@dataclass
class Edit:
    """One game file: its text before and after, and what the editor should know."""

    path: Path
    display: str
    before: str
    after: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.after) and self.after != self.before

    def diff(self) -> str:
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            f"a/{self.display}",
            f"b/{self.display}",
        )
        return "".join(lines)


@dataclass
class Options:
    slugs: list[str]
    every: bool = False
    yes: bool = False
    dry_run: bool = False
    ranks_csv: Path | None = None


def refresh_cards(
    project: Project,
    options: Options,
    *,
    transport: Transport | None = None,
    today: dt.date | None = None,
    environ: dict[str, str] | None = None,
    ask: Callable[[str], str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """Run the command; the exit status (0, or 1 when a game could not be refreshed)."""
    out, err = out or sys.stdout, err or sys.stderr
    environ = os.environ if environ is None else environ
    today = today or dt.date.today()
    site = load_site(project)
    edits, games = _read_games(project, _chosen(project, options))
    failed = False
    if options.ranks_csv is not None:
        ranks = read_ranks(options.ranks_csv)
        for edit, (trip, bgg_id) in zip(edits, games, strict=True):
            failed |= not _apply_rank(edit, trip, bgg_id, ranks)
    else:
        extra: dict[str, Any] = {} if sleep is None else {"sleep": sleep}

        def progress(line: str) -> None:  # waits and, for more than 20 games, each request
            print(line, file=err, flush=True)

        client = BggClient(environ.get(TOKEN_VARIABLE), transport, progress=progress, **extra)
        fetched = client.things(bgg_id for _, bgg_id in games)  # all fetched before any write
        for edit, (trip, bgg_id) in zip(edits, games, strict=True):
            thing = fetched.things.get(bgg_id)
            if thing is None:
                edit.notes.append(f"not refreshed: {fetched.missing.get(bgg_id, 'no reply')}")
                failed = True
                continue
            apply_thing(edit, trip, thing, site, today)
    return _show_and_write(edits, options, out, err, ask) or (1 if failed else 0)


def _chosen(project: Project, options: Options) -> list[Path]:
    if options.every == bool(options.slugs):
        raise UsageError("name the games to refresh (rulesite card refresh SLUG ...) or --all")
    folder = project.games_dir
    if options.every:
        return sorted(folder.glob("*.yaml"))
    paths = []
    for slug in dict.fromkeys(options.slugs):
        path = folder / f"{slug}.yaml"
        if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug) or not path.is_file():
            raise UsageError(f"no game {printable(slug)!r}: {project.display(path)} does not exist")
        paths.append(path)
    return paths


def _read_games(project: Project, paths: list[Path]) -> tuple[list[Edit], list[tuple[Any, int]]]:
    edits, games, problems = [], [], []
    for path in paths:
        display = project.display(path)
        text = path.read_text(encoding="utf-8")
        try:
            trip = RoundTrip(text)
        except YAMLError as error:
            problems.append(f"{display}: cannot be read as YAML ({str(error).splitlines()[0]})")
            continue
        card = trip.data.get("card") if isinstance(trip.data, CommentedMap) else None
        bgg_id = card.get("bgg_id") if isinstance(card, CommentedMap) else None
        if not isinstance(bgg_id, int) or isinstance(bgg_id, bool) or bgg_id <= 0:
            line = _line(card, "bgg_id") if isinstance(card, CommentedMap) else None
            where = f"{display}:{line}" if line else display
            problems.append(
                f"{where}: card.bgg_id: write the game's BoardGameGeek id first (the number in "
                "its address, boardgamegeek.com/boardgame/<id>/...)"
            )
            continue
        edits.append(Edit(path, display, text))
        games.append((trip, bgg_id))
    if problems:
        raise UsageError(problems)
    return edits, games


def _line(mapping: CommentedMap, key: str) -> int | None:
    try:
        return int(mapping.lc.key(key)[0]) + 1
    except (KeyError, TypeError, AttributeError):
        return None


# --- Applying what BGG says --------------------------------------------------------------------


def apply_thing(edit: Edit, trip: RoundTrip, thing: Thing, site: SiteData, today: dt.date) -> None:
    """Write ``thing``'s figures into the card of ``trip`` and describe what was left out."""
    card = trip.data["card"]
    for problem in thing.problems:
        edit.notes.append(f"BGG's reply: {problem}; left as it was")
    read = " ".join(thing.problems)
    for key, figure, words in (
        ("players", thing.players, "players"),
        ("play_time", thing.play_time, "play time"),
        ("min_age", thing.min_age, "minage"),
        ("year", thing.year, "yearpublished"),
    ):
        if figure is None and words not in read:  # absent, rather than unreadable
            edit.notes.append(f"BGG's reply has no {words}; card.{key} left as it was")
    if thing.players:
        set_range(card, "players", *thing.players)
    if thing.best_players:
        set_range(card, "best_players", *thing.best_players)
    else:
        edit.notes.append(
            "BGG's player-count poll has no 'best' votes; best_players left as it was"
        )
    if thing.play_time:
        set_range(card, "play_time", *thing.play_time)
    if thing.min_age and 1 <= thing.min_age <= 99:
        set_value(card, "min_age", thing.min_age)
    if thing.year and 1800 <= thing.year <= 2100:
        set_value(card, "year", thing.year)
    if thing.weight is not None and 1 <= thing.weight <= 5:
        set_value(card, "weight", round(thing.weight, 2))
    elif thing.weight is not None:
        edit.notes.append("BGG has no weight votes for this game; weight left as it was")
    if thing.rank:
        set_value(card, "bgg_rank", thing.rank)
    else:
        edit.notes.append("BGG lists the game as not ranked; bgg_rank left as it was")
    _apply_mechanics(edit, card, thing, site)
    set_value(card, "verified", today)
    _record_source(edit, trip, thing.id, site, today)
    edit.after = trip.text()
    _offer_names(edit, thing, site)


def _apply_mechanics(edit: Edit, card: CommentedMap, thing: Thing, site: SiteData) -> None:
    by_name = {m.label.root.get(site.names_language, "").casefold(): m.id for m in site.mechanics}
    ids, unmapped = [], []
    for name in thing.mechanics:
        mechanic = by_name.get(name.casefold())
        if mechanic is None:
            unmapped.append(name)
        elif mechanic not in ids:
            ids.append(mechanic)
    if ids:
        set_list(card, "mechanics", ids)
    for name in unmapped:
        slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
        edit.notes.append(
            f"BGG mechanic {name!r} is not in data/site.yaml, so it was left out; to show it, "
            f"add `{{id: {slug}, label: {{..., {site.names_language}: {name}}}}}` under "
            "mechanics: there and run the refresh again"
        )
    if thing.designers:
        edit.notes.append("designers (not in the card): " + ", ".join(thing.designers))
    if thing.publishers:
        edit.notes.append("publishers (not in the card): " + ", ".join(thing.publishers[:8]))


def _record_source(edit: Edit, trip: RoundTrip, bgg_id: int, site: SiteData, day: dt.date) -> None:
    """BGG as the card's source, checked on ``day``: its ``verified`` moves only when no
    citation takes its date from it (no other date may move)."""
    sources = trip.data.get("sources")
    if not isinstance(sources, CommentedSeq):
        return
    found = next(
        (
            s
            for s in sources
            if isinstance(s, CommentedMap)
            and (s.get("id") == BGG_SOURCE_ID or BGG_HOST in str(s.get("url", "")))
        ),
        None,
    )
    if found is None:
        source = CommentedMap()
        taken = {s.get("id") for s in sources if isinstance(s, CommentedMap)}
        if BGG_SOURCE_ID not in taken:
            source["id"] = BGG_SOURCE_ID
        source["kind"] = "reference"
        name = CommentedMap((language.code, "BoardGameGeek") for language in site.languages)
        name.fa.set_flow_style()
        source["name"] = name
        source["url"] = f"https://{BGG_HOST}/boardgame/{bgg_id}"
        source["verified"] = day
        sources.append(source)
        return
    if found.get("id") and _cited_without_date(trip.data, str(found["id"])):
        edit.notes.append(
            f"source {found['id']!r}: its verified date stays, since citations without a date "
            "of their own take it (card.verified says when the card was checked)"
        )
        return
    set_value(found, "verified", day)


def _cited_without_date(value: Any, source_id: str) -> bool:
    if isinstance(value, dict):
        if value.get("source") == source_id and "verified" not in value:
            return True
        return any(_cited_without_date(item, source_id) for item in value.values())
    if isinstance(value, list):
        return any(_cited_without_date(item, source_id) for item in value)
    return False


def _offer_names(edit: Edit, thing: Thing, site: SiteData) -> None:
    """BGG's other names for the game, by the language they are likely in: search aliases to
    consider, never written over a title."""
    han = [lang.code for lang in site.languages if lang.search.jieba]
    offers: dict[str, list[str]] = {}
    for name in thing.alternate_names:
        codes = han if _HAN.search(name) else [site.names_language] if name.isascii() else []
        for code in codes:
            offers.setdefault(code, []).append(name)
    for code, names in offers.items():
        shown = "; ".join(names[:10])
        edit.notes.append(f"BGG's other names ({code}), aliases to consider for search: {shown}")


# --- Ranks without a token ---------------------------------------------------------------------


def read_ranks(path: Path) -> dict[int, int]:
    """BGG's ranks dump (``boardgames_ranks.csv``: id, name, ..., rank, average, ...): the rank
    of every ranked game by id."""
    try:
        size = path.stat().st_size
        if size > MAX_CSV_BYTES:
            raise UsageError(f"{path}: {size:,} bytes is more than a ranks dump")
        with path.open(encoding="utf-8-sig", newline="") as file:
            reader = csv.DictReader(file)
            columns = set(reader.fieldnames or ())
            if not {"id", "rank"} <= columns:
                raise UsageError(
                    f"{path}: not BGG's ranks dump (it needs the columns id and rank; found "
                    f"{', '.join(sorted(columns)) or 'none'})"
                )
            ranks = {}
            for row in reader:
                game, rank = row.get("id", ""), row.get("rank", "")
                if game.isdigit() and rank.isdigit() and int(rank) > 0:
                    ranks[int(game)] = int(rank)
            return ranks
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise UsageError(f"{path}: cannot read the ranks dump ({error})") from None


def _apply_rank(edit: Edit, trip: RoundTrip, bgg_id: int, ranks: dict[int, int]) -> bool:
    rank = ranks.get(bgg_id)
    if rank is None:
        edit.notes.append(f"not refreshed: the ranks dump has no ranked game with id {bgg_id}")
        return False
    set_value(trip.data["card"], "bgg_rank", rank)
    edit.after = trip.text()
    edit.notes.append("only the rank was checked (a ranks dump): card.verified left as it was")
    return True


# --- Showing and writing -----------------------------------------------------------------------


def _show_and_write(
    edits: list[Edit],
    options: Options,
    out: TextIO,
    err: TextIO,
    ask: Callable[[str], str] | None,
) -> int:
    changed = [edit for edit in edits if edit.changed]
    for edit in edits:
        if edit.changed:
            out.write(edit.diff())
        for note in edit.notes:
            print(f"{edit.display}: {note}", file=err)
        if edit.after and not edit.changed:
            print(f"{edit.display}: the card is up to date", file=err)
    if not changed:
        return 0
    if options.dry_run:
        print(f"dry run: {len(changed)} file(s) would change; nothing written", file=err)
        return 0
    if not options.yes:
        if ask is None and not sys.stdin.isatty():
            print("not written: confirm with --yes (no terminal to ask)", file=err)
            return 2
        answer = (ask or input)(f"Write these changes to {len(changed)} file(s)? [y/N] ")
        if answer.strip().casefold() not in ("y", "yes"):
            print("nothing written", file=err)
            return 0
    for edit in changed:
        _write_atomically(edit.path, edit.after)
        print(f"wrote {edit.display}", file=out)
    return 0


def _write_atomically(path: Path, text: str) -> None:
    scratch = path.with_name(f".{path.name}.rulesite-card")
    scratch.write_text(text, encoding="utf-8", newline="")
    os.replace(scratch, path)
