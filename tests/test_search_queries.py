"""Search that finds: a table of queries, each with the section it must return, in Chromium.

Each row names the page or section that must come first, or among the first three result links
(Material lists each page, then its best sections), for what a reader types into the search box
of the built site (served over HTTP under a sub-path, as a publisher might host it). Every row
goes through the theme's search worker in Node (``test_search_worker.py``); a third of them
(and each searched from a page of its own) is typed into Chromium here. The first link
must carry the query for highlighting (``?h=`` not empty), and following it must highlight the
query on the page wherever the page has it.

The table follows the data: a row about a game that is not in ``data/games/`` is left out, and
every game's titles in every language (and the aliases of a glossary term named like the game)
are rows of their own on every language's site, so a new game is checked without an edit here.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from rulesite.engine.search_split import game_of
from tests.site_checks import LANGS
from tests.test_site import CATALOG

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Query:
    """One row: what a reader types, where, and what must come back."""

    lang: str
    """The language site searched."""
    text: str
    """What is typed."""
    expected: str | tuple[str, ...]
    """A location relative to the language's root (``games/nations/faq/#war-vs-battle``), or
    several, any of which will do (a word that means the same in two games)."""
    within: int = 3
    """1: the first result link; 3: one of the first three."""
    start: str = ""
    """The page searched from, relative to the language's root (a game's page merges its
    shard: that game is searched in full text)."""

    @property
    def places(self) -> tuple[str, ...]:
        return self.expected if isinstance(self.expected, tuple) else (self.expected,)

    @property
    def id(self) -> str:
        where = f"@{self.start}" if self.start else ""
        return f"{self.lang}:{self.text}{where}"


def rows(
    lang: str, within: int, pairs: list[tuple[str, str | tuple[str, ...]]], start: str = ""
) -> list[Query]:
    return [Query(lang, text, expected, within, start) for text, expected in pairs]


NATIONS = "games/nations/"
CLANS = "games/clans-of-caledonia/"
WONDERFUL = "games/its-a-wonderful-world/"
TIES = (
    CLANS + "rules/#rankings-and-ties",
    CLANS + "faq/#tied-rankings",
    WONDERFUL + "rules/#supremacy",
    WONDERFUL + "rules/#final-scoring",
    WONDERFUL + "faq/#supremacy-tie",
    NATIONS + "rules/#war-and-events",
    NATIONS + "faq/#event-ties",
)
"""Where the rules say how ties are broken: 平局 may find any game's first."""

SUPREMACY_TIE = (WONDERFUL + "faq/#supremacy-tie", WONDERFUL + "rules/#supremacy")
QUESTIONS = [
    ("平票怎么算", "how do ties work", TIES),
    ("平局怎么办", "what happens on a tie", TIES),
    ("战争强度怎么算", "what is war strength", NATIONS + "faq/#war-vs-battle"),
    ("合约怎么交付", "how are contracts fulfilled", CLANS + "rules/#contracts"),
    ("饥荒是什么", "how does famine work", NATIONS + "rules/#famine-shortage-books"),
    ("黄金时代有什么用", "what do golden ages do", NATIONS + "rules/#golden-ages-and-advisors"),
    ("生产优势平手怎么办", "who wins a supremacy tie", SUPREMACY_TIE),
]
"""A reader's question in each language (zh, en) and where the answer is: the same places."""

TABLE: list[Query] = [
    # --- Chinese: glossary words kept whole, aliases as synonyms ------------------------------
    *rows(
        "zh",
        3,
        [
            ("战争强度", NATIONS + "faq/#war-vs-battle"),
            ("掠夺值", NATIONS + "rules/#colonies-battles-wars"),
            # A word: the section named by it, or the ruling about it (the rules come first
            # unless the query is a question).
            (
                "人口增长",
                (NATIONS + "faq/#population-growth-cost", NATIONS + "rules/#population-growth"),
            ),
            ("动乱", NATIONS + "rules/#production-and-turn-order"),
            ("短缺", NATIONS + "rules/#famine-shortage-books"),
            ("饥荒", NATIONS + "rules/#famine-shortage-books"),
            ("书籍比较", NATIONS + "score/#nations-books"),
            ("影子对手", NATIONS + "rules/#solo"),
            ("回收奖励", WONDERFUL + "rules/#planning"),
            ("单人剧本", WONDERFUL + "rules/#solo"),
            ("黄金时代", NATIONS + "rules/#golden-ages-and-advisors"),
            ("顾问", NATIONS + "rules/#golden-ages-and-advisors"),
            ("殖民地", NATIONS + "rules/#colonies-battles-wars"),
            # 同分 is an alias: the rules say 并列.
            ("同分", NATIONS + "rules/#production-and-turn-order"),
            (
                "进口品",
                (CLANS + "rules/#final-scoring-goods-and-imports", CLANS + "faq/#import-rarity"),
            ),
            ("合约", CLANS + "rules/#contracts"),
            ("聚落", CLANS + "faq/#settlement-scoring"),
            ("航运", CLANS + "faq/#shipping-loch-and-river"),
            ("港口", CLANS + "rules/#upgrades-and-ports"),
            ("邻居奖励", CLANS + "rules/#expansion-and-neighbours"),
            ("啤酒花", CLANS + "rules/#final-scoring-goods-and-imports"),
            ("威士忌", CLANS + "rules/#production-and-round-scoring"),
            ("屠宰", CLANS + "rules/#contracts"),
            # 平局 is nowhere in the rules: they say 平手 and 并列.
            ("平局", TIES),
            ("平手", CLANS + "rules/#rankings-and-ties"),
            ("并列", (CLANS + "faq/#tied-rankings", WONDERFUL + "faq/#supremacy-tie")),
            ("晶体", WONDERFUL + "rules/#empire-card-and-krystallium"),
            (
                "帝国卡",
                (
                    WONDERFUL + "faq/#empire-card-resources",
                    WONDERFUL + "rules/#empire-card-and-krystallium",
                ),
            ),
            ("生产优势", WONDERFUL + "rules/#supremacy"),
            ("优势奖励", WONDERFUL + "faq/#supremacy-tie"),
            ("将军", WONDERFUL + "faq/#krystallium-characters"),
            ("金融家", WONDERFUL + "faq/#krystallium-characters"),
            ("双人局", WONDERFUL + "rules/#draft"),
            ("组合分", WONDERFUL + "rules/#final-scoring"),
        ],
    ),
    *rows("zh", 1, [("术语表", "glossary/"), ("Clans", CLANS), ("Wonderful", WONDERFUL)]),
    # From a game's page: every game is searched alike (the same index from every page).
    *rows("zh", 3, [("生产优势", WONDERFUL + "rules/#supremacy")], start=NATIONS + "rules/"),
    *rows("zh", 3, [("战争强度", NATIONS + "faq/#war-vs-battle")], start=CLANS + "faq/"),
    *rows("zh", 3, [("平局", TIES)], start=CLANS + "faq/"),
    # --- English: whole words, plurals, official terms ----------------------------------------
    *rows(
        "en",
        1,
        [
            ("architects", NATIONS + "rules/"),
            ("shadow player", NATIONS + "rules/"),
            ("Caledonia", CLANS),
            ("glossary", "glossary/"),
        ],
    ),
    *rows(
        "en",
        3,
        [
            ("stability", NATIONS + "rules/#production-and-turn-order"),
            ("generals", WONDERFUL + "rules/#final-scoring"),
            ("financiers", WONDERFUL + "rules/#final-scoring"),
            (
                "books",
                (
                    NATIONS + "faq/#books-and-final-scoring",
                    NATIONS + "rules/#famine-shortage-books",
                ),
            ),
            ("rounds", NATIONS + "score/#nations-books"),
            ("supremacy", (WONDERFUL + "faq/#supremacy-tie", WONDERFUL + "rules/#supremacy")),
            ("war strength", NATIONS + "faq/#war-vs-battle"),
            ("raid value", NATIONS + "rules/#colonies-battles-wars"),
            ("unrest", NATIONS + "rules/#production-and-turn-order"),
            ("famine", NATIONS + "rules/#famine-shortage-books"),
            ("shortage", NATIONS + "rules/#famine-shortage-books"),
            ("golden age", NATIONS + "rules/#golden-ages-and-advisors"),
            ("advisors", NATIONS + "rules/#golden-ages-and-advisors"),
            ("colonies", NATIONS + "rules/#colonies-battles-wars"),
            ("wonders", NATIONS + "rules/#wonders"),
            ("tie", CLANS + "faq/#tied-rankings"),
            ("ties", CLANS + "rules/#rankings-and-ties"),
            ("tied", NATIONS + "faq/#event-ties"),
            ("contracts", CLANS + "rules/#contracts"),
            ("imported goods", CLANS + "faq/#import-rarity"),
            ("settlements", CLANS + "faq/#settlement-scoring"),
            ("ports", CLANS + "rules/#upgrades-and-ports"),
            ("hops", CLANS + "rules/#final-scoring-goods-and-imports"),
            ("whisky", CLANS + "rules/#production-and-round-scoring"),
            ("slaughtering", CLANS + "rules/#contracts"),
            ("Krystallium", WONDERFUL + "rules/#empire-card-and-krystallium"),
            ("Empire card", WONDERFUL + "rules/#empire-card-and-krystallium"),
            ("recycling bonus", WONDERFUL + "faq/#discard-unfinished"),
            ("draft", WONDERFUL + "rules/#draft"),
            ("solo scenario", WONDERFUL + "rules/#solo"),
        ],
    ),
    *rows(
        "en",
        3,
        [("supremacy", (WONDERFUL + "faq/#supremacy-tie", WONDERFUL + "rules/#supremacy"))],
        start=NATIONS + "rules/",
    ),
    *rows("en", 3, [("unrest", NATIONS + "rules/#production-and-turn-order")], start=CLANS),
    # --- Natural questions and compounds: question words are left out, a run of Han characters
    # is split into the index's words (平票怎么算: 平票 怎么 算) ---------------------------------
    *rows("zh", 3, [(zh, where) for zh, _, where in QUESTIONS]),
    *rows("en", 3, [(en, where) for _, en, where in QUESTIONS]),
]
"""Hand-picked rows; the games' titles are added from the data (``title_rows``)."""


def title_rows() -> list[Query]:
    """Every game's titles in every language, and the aliases of a glossary term named like
    the game, on every language's site: the game's overview comes first."""
    result = []
    for game in CATALOG.games:
        titles = set(game.title.root.values())
        for term in game.glossary:
            if titles & set(term.name.root.values()):
                titles |= {alias for aliases in term.aliases.values() for alias in aliases}
        for lang in LANGS:
            result += [Query(lang, title, f"games/{game.slug}/", 1) for title in sorted(titles)]
    return result


def table() -> list[Query]:
    """The rows the data supports: about games that exist, in languages the site has."""
    games = {game.slug for game in CATALOG.games}
    hand = [
        row
        for row in TABLE
        if row.lang in LANGS
        and all(game_of(where) in (None, *games) for where in (*row.places, row.start))
    ]
    return hand + title_rows()


ROWS = table()

TABLE_GAMES = {game_of(where) for row in TABLE for where in row.places} - {None}
"""The games the hand-picked rows are about. A game an editor adds may answer a question too
(its own tie-breaker ruling for 平局): the hand rows pass over its hits, so they still check the
order among the games they know; the title rows check every game's own."""


def test_the_table_has_enough_rows_per_language() -> None:
    for lang in LANGS:
        assert sum(row.lang == lang for row in ROWS) >= 30, lang
    assert len({row.id for row in ROWS}) == len(ROWS)


@pytest.fixture(scope="module")
def search_page(browser, site_url):
    """One page per language and starting page, reused by the rows (search is cleared each
    time): loading the index once per start keeps the table fast."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pages: dict[str, object] = {}

    def open_at(url: str):
        if url not in pages:
            page = context.new_page()
            page.problems = []
            page.on("pageerror", lambda e, page=page: page.problems.append(str(e)))
            page.goto(url)
            # Typed before the index (and the game's shard) is loaded, a query is answered with
            # "no results" under load: wait until Material says it is ready for a query.
            page.locator("input.md-search__input").click()
            page.wait_for_function(
                """() => {
                  const meta = document.querySelector('.md-search-result__meta');
                  return meta && !/初始化|Initializing/.test(meta.textContent);
                }""",
                timeout=30_000,
            )
            pages[url] = page
        return pages[url]

    yield open_at
    context.close()


def result_links(page, text: str) -> list[str]:
    """The result links in order (each page, then its sections), as Material lists them."""
    field = page.locator("input.md-search__input")
    field.click()
    # Cleared first, so the results waited for below are this query's, not the last one's.
    field.fill("")
    page.keyboard.press("End")
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__item')", timeout=10_000
    )
    field.fill(text)
    page.keyboard.press("End")  # Material searches on keyup; filling CJK text sends none
    page.wait_for_function(
        """text => {
          const meta = document.querySelector('.md-search-result__meta');
          const field = document.querySelector('input.md-search__input');
          return field.value === text && meta && /\\d|没有|No matching/.test(meta.textContent);
        }""",
        arg=text,
        timeout=10_000,
    )
    return page.eval_on_selector_all(
        ".md-search-result__item a.md-search-result__link", "links => links.map(a => a.href)"
    )


def location(href: str, root: str) -> tuple[str, str]:
    """``(location relative to the language root, the h parameter)``."""
    parts = urlsplit(href)
    path = parts.path.removeprefix(urlsplit(root).path)
    where = path + (f"#{parts.fragment}" if parts.fragment else "")
    return where, unquote(parse_qs(parts.query).get("h", [""])[0])


TYPED = [row for number, row in enumerate(ROWS) if row.start or number % 3 == 0]
"""The rows typed into the browser: every row searched from a page of its own, and every third
of the others. The worker's answer to every row is checked in Node
(``test_search_worker.py::test_every_row_of_the_query_table_finds_its_section``); typed here, a
row checks the path through Material's search box, its list and its links too."""


@pytest.mark.parametrize("row", TYPED, ids=lambda row: row.id)
def test_search_returns_the_section(search_page, site_url, row: Query) -> None:
    root = site_url + LANGS[row.lang]
    page = search_page(root + row.start)
    links = result_links(page, row.text)
    found = [location(href, root) for href in links]
    if row in TABLE:
        found = [(where, h) for where, h in found if game_of(where) in (None, *TABLE_GAMES)]
    top = [where for where, _ in found[: row.within]]
    assert set(row.places) & set(top), (row.text, found[:5])
    # The first link highlights what was searched on the page it opens.
    _, highlight = found[0]
    assert highlight.strip(), (row.text, found[:3])
    assert page.problems == []


def said_through_a_synonym(row: Query, page_text: str) -> bool:
    """Whether ``row.text`` is an alias of a glossary term whose name or alias is on the page."""
    typed = row.text.casefold()
    for game in CATALOG.games:
        for term in game.glossary:
            words = [term.name[row.lang], *term.aliases.get(row.lang, [])]
            folded = [str(word).casefold() for word in words]
            if typed in folded and any(w != typed and w in page_text for w in folded):
                return True
    return False


@pytest.mark.parametrize(
    "row",
    [row for row in ROWS if row.within == 3][::4],
    ids=lambda row: row.id,
)
def test_following_the_first_result_highlights_the_query(
    search_page, shared_page, site_url, row: Query
) -> None:
    root = site_url + LANGS[row.lang]
    first = result_links(search_page(root + row.start), row.text)[0]
    _, highlight = location(first, root)
    page = shared_page  # the result opened on a page of its own, as a click would open it
    page.goto(first)
    page.wait_for_load_state("load")
    text = page.locator("article").inner_text().replace("\u200b", "").casefold()
    words = [w for w in highlight.casefold().split() if w in text]
    if words:
        # Some mark shows (a mark inside the folded setup checklist is there but hidden).
        page.wait_for_function(
            "() => [...document.querySelectorAll('article mark')]"
            ".some(mark => mark.getClientRects().length)",
            timeout=5_000,
        )
    else:
        # Only a query found through a synonym (平局 on a page that says 平手) may land on a
        # page without its words: it must be a glossary alias of a term named on the page.
        assert said_through_a_synonym(row, text), f"{row.id}: {first} has none of its words"
