"""A small client of BoardGameGeek's XML API 2 ``thing`` command, for ``rulesite card refresh``.

It follows the API's rules: a registered application's bearer token on every request, at most
20 ids a request, requests spaced (:data:`MIN_INTERVAL` seconds), "queued" (202) and "too many
requests" (429) answered by waiting longer each time, a server error (5xx) retried a few times.
A reply is read whole only up to :data:`MAX_REPLY_BYTES` and parsed with ``defusedxml`` (no
entity expansion, no external entities, no DTD). The network sits behind :class:`Transport`,
so the tests answer with recorded replies and never go online.

The token is sent and never printed, logged or written: errors name the variable, not its value.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeXML
from defusedxml import DefusedXmlException

from rulesite.errors import RulesiteError

API = "https://boardgamegeek.com/xmlapi2/thing"
TOKEN_VARIABLE = "RULESITE_BGG_TOKEN"
"""The environment variable that holds the application's token."""
APPLICATIONS_PAGE = "https://boardgamegeek.com/applications"
"""Where a BGG user registers an application and creates its token."""
MAX_IDS = 20
"""The API's limit of ids per ``thing`` request."""
MIN_INTERVAL = 5.0
"""Seconds between two requests (BGG asks for a few; it answers 429 to hurried clients)."""
MAX_REPLY_BYTES = 4_000_000
"""Twenty games with their stats are about 600 KB; anything far larger is refused."""
RETRIES = 5
"""How often a queued, throttled or failed request is asked again before giving up."""
TIMEOUT = 30.0


class BggError(RulesiteError):
    """The API could not be used at all (no token, refused token, network down): nothing is
    written. Exit code 2 (the input to the command, its environment, is not usable)."""

    exit_code = 2


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    retry_after: float | None = None


class Transport(Protocol):
    """Fetches one URL; raises OSError when the network fails."""

    def get(self, url: str, headers: dict[str, str], limit: int) -> Reply: ...


class UrllibTransport:
    """The real network, through the standard library."""

    def get(self, url: str, headers: dict[str, str], limit: int) -> Reply:
        request = urllib.request.Request(url, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return Reply(response.status, response.read(limit + 1), _retry_after(response))
        except urllib.error.HTTPError as error:
            return Reply(error.code, error.read(limit + 1), _retry_after(error))


def _retry_after(response: object) -> float | None:
    value = getattr(response, "headers", {}).get("Retry-After", "")
    return float(value) if value and value.strip().isdigit() else None


@dataclass
class Thing:
    """What a ``thing`` reply says about one game, each figure None when the reply lacks it."""

    id: int
    primary_name: str | None = None
    alternate_names: list[str] = field(default_factory=list)
    year: int | None = None
    players: tuple[int, int] | None = None
    best_players: tuple[int, int] | None = None
    play_time: tuple[int, int] | None = None
    min_age: int | None = None
    weight: float | None = None
    rank: int | None = None
    mechanics: list[str] = field(default_factory=list)
    designers: list[str] = field(default_factory=list)
    publishers: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Fields the reply had in a shape we could not read ("minage: 'ten' is not a number")."""


@dataclass
class Fetched:
    """Each asked id's thing, or why there is none."""

    things: dict[int, Thing] = field(default_factory=dict)
    missing: dict[int, str] = field(default_factory=dict)


class BggClient:
    """Fetches things, spaced and retried as the API asks."""

    def __init__(
        self,
        token: str | None,
        transport: Transport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        if not token or not token.strip():
            raise BggError(missing_token())
        self._token = token.strip()
        self._transport = transport or UrllibTransport()
        self._sleep = sleep
        self._clock = clock
        self._last: float | None = None
        self._progress = progress or (lambda line: None)

    def __repr__(self) -> str:  # never the token
        return "BggClient(token=<hidden>)"

    def things(self, ids: Iterable[int]) -> Fetched:
        wanted = list(dict.fromkeys(ids))
        fetched = Fetched()
        batches = [wanted[i : i + MAX_IDS] for i in range(0, len(wanted), MAX_IDS)]
        for number, batch in enumerate(batches, 1):
            if len(wanted) > 1:  # --all: a line per request, as they are spaced seconds apart
                self._progress(f"BGG: request {number} of {len(batches)} ({len(batch)} games)")
            body = self._get(f"{API}?id={','.join(map(str, batch))}&stats=1")
            parse_reply(body, batch, fetched)
        return fetched

    def _get(self, url: str) -> bytes:
        headers = {"Authorization": f"Bearer {self._token}", "User-Agent": "rulesite card refresh"}
        wait = MIN_INTERVAL
        for _attempt in range(RETRIES + 1):
            self._space()
            try:
                reply = self._transport.get(url, headers, MAX_REPLY_BYTES)
            except OSError as error:
                reason = getattr(error, "reason", None) or error.strerror or type(error).__name__
                raise BggError(
                    f"cannot reach BoardGameGeek ({reason}); nothing was changed: try again later"
                ) from None
            if len(reply.body) > MAX_REPLY_BYTES:
                raise BggError(
                    f"BoardGameGeek's reply is over {MAX_REPLY_BYTES:,} bytes; refused, nothing "
                    "was changed"
                )
            if reply.status == 200:
                return reply.body
            if reply.status in (401, 403):
                raise BggError(refused_token(reply.status))
            if reply.status in (202, 429) or reply.status >= 500:
                what = {202: "queued the request", 429: "asks us to slow down"}.get(
                    reply.status, f"answered {reply.status}"
                )
                pause = max(wait, reply.retry_after or 0.0)
                self._progress(f"BGG {what}; asking again in {pause:.0f} s")
                self._sleep(pause)
                self._last = None  # the pause itself spaced the next request
                wait *= 2
                continue
            raise BggError(f"BoardGameGeek answered {reply.status} to {url}; nothing was changed")
        raise BggError(
            f"BoardGameGeek did not answer after {RETRIES + 1} tries; nothing was changed: "
            "try again later"
        )

    def _space(self) -> None:
        now = self._clock()
        if self._last is not None and now - self._last < MIN_INTERVAL:
            self._sleep(MIN_INTERVAL - (now - self._last))
        self._last = self._clock()


def missing_token() -> str:
    return (
        f"{TOKEN_VARIABLE} is not set: BoardGameGeek's XML API needs a registered "
        f"application's token. Sign in at {APPLICATIONS_PAGE}, register an application, create "
        f"a token for it, then `export {TOKEN_VARIABLE}=<token>` (keep it out of files you "
        "commit). Without a token, `--ranks-csv FILE` updates ranks from BGG's ranks dump."
    )


def refused_token(status: int) -> str:
    return (
        f"BoardGameGeek refused the token in {TOKEN_VARIABLE} ({status}): check that it is the "
        f"application's token as shown at {APPLICATIONS_PAGE}, not expired or revoked, and "
        "copied whole; nothing was changed"
    )


# --- Reading a reply -----------------------------------------------------------------------------


def parse_reply(body: bytes, asked: list[int], fetched: Fetched) -> None:
    """Read one ``thing`` reply into ``fetched``: each asked id a thing or a reason."""
    try:
        root = SafeXML.fromstring(body, forbid_dtd=True)
    except DefusedXmlException as error:
        _all_missing(asked, fetched, f"reply refused: {type(error).__name__} (unsafe XML)")
        return
    except ParseError as error:
        _all_missing(asked, fetched, f"reply is not XML ({error})")
        return
    if root.tag in ("errors", "error"):
        messages = [m.text or "" for m in root.iter("message")] or [root.text or "error"]
        _all_missing(asked, fetched, "BGG says: " + "; ".join(m.strip() for m in messages))
        return
    if root.tag != "items":
        _all_missing(asked, fetched, f"unexpected reply <{root.tag}>")
        return
    for item in root.findall("item"):
        number = _int(item.get("id"))
        if number is None or number not in asked:
            continue
        fetched.things[number] = read_item(item, number)
    for number in asked:
        if number not in fetched.things:
            fetched.missing[number] = f"BGG has no game with id {number}"


def _all_missing(asked: list[int], fetched: Fetched, reason: str) -> None:
    for number in asked:
        fetched.missing[number] = reason


def read_item(item: Element, number: int) -> Thing:
    thing = Thing(number)

    def value(tag: str) -> int | None:
        element = item.find(tag)
        if element is None:
            return None
        raw = element.get("value")
        result = _int(raw)
        if result is None:
            thing.problems.append(f"{tag}: {raw!r} is not a whole number")
        return result

    for name in item.findall("name"):
        text = (name.get("value") or "").strip()
        if not text:
            continue
        if name.get("type") == "primary":
            thing.primary_name = text
        else:
            thing.alternate_names.append(text)
    thing.year = value("yearpublished")
    low, high = value("minplayers"), value("maxplayers")
    thing.players = _range(low, high, "players", thing)
    thing.play_time = _range(value("minplaytime"), value("maxplaytime"), "play time", thing)
    thing.min_age = value("minage")
    thing.best_players = _best_players(item)
    for link in item.findall("link"):
        kind, text = link.get("type"), (link.get("value") or "").strip()
        target = {
            "boardgamemechanic": thing.mechanics,
            "boardgamedesigner": thing.designers,
            "boardgamepublisher": thing.publishers,
        }.get(kind or "")
        if target is not None and text:
            target.append(text)
    ratings = item.find("statistics/ratings")
    if ratings is not None:
        weight = ratings.find("averageweight")
        if weight is not None:
            thing.weight = _float(weight.get("value"))
            if thing.weight is None:
                thing.problems.append(f"averageweight: {weight.get('value')!r} is not a number")
        for rank in ratings.findall("ranks/rank"):
            if rank.get("type") == "subtype" and rank.get("name") == "boardgame":
                thing.rank = _int(rank.get("value"))  # "Not Ranked" stays None
    return thing


def _range(low: int | None, high: int | None, what: str, thing: Thing) -> tuple[int, int] | None:
    if low is None or high is None:
        return None
    if low <= 0 or high < low:
        thing.problems.append(f"{what}: {low}–{high} is not a range")
        return None
    return (low, high)


def _best_players(item: Element) -> tuple[int, int] | None:
    """The player counts most voters call best in the suggested-players poll (the lowest to the
    highest of them); None without votes."""
    poll = next((p for p in item.findall("poll") if p.get("name") == "suggested_numplayers"), None)
    if poll is None:
        return None
    best = []
    for results in poll.findall("results"):
        count = _int(results.get("numplayers"))
        if count is None:  # "5+": more than the box supports
            continue
        votes = {r.get("value"): _int(r.get("numvotes")) or 0 for r in results.findall("result")}
        top = votes.get("Best", 0)
        if (
            top > 0
            and top >= votes.get("Recommended", 0)
            and top >= votes.get("Not Recommended", 0)
        ):
            best.append(count)
    return (min(best), max(best)) if best else None


def _int(raw: str | None) -> int | None:
    if raw is None or not raw.strip().isdigit():
        return None
    return int(raw.strip())


def _float(raw: str | None) -> float | None:
    try:
        number = float(raw or "")
    except ValueError:
        return None
    return number if number == number and abs(number) != float("inf") else None
