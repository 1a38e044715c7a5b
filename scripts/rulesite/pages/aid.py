"""The player aid's phase diagram: where each phase's box, number, title and arrow go in the SVG
the rules page draws (templates/pages/_player_aid.md.j2 only draws what this places).

The page is built without a browser, so boxes are sized from an estimate of their titles' width
(a CJK character about one em wide, a Latin letter a little over half). The phases go in a row
when the row fits a 360 px phone at its natural size, else in a column: the drawing is shown at
most at its natural size, so its text stays near the body text's size on every screen.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from dataclasses import dataclass

from rulesite.markup import plain
from rulesite.model import Game

FONT = 14
"""Font size of a box's title, in the drawing's units (rulesite.css: .rs-aid__name)."""
ROW_MAX = 300
"""Widest row of boxes: about the aid's column on a 360 px phone; wider goes in a column."""
GAP = 22
"""Room between two boxes, where an arrow goes."""
PADDING = 10
"""Room on either side of a title inside its box."""
MIN_BOX = 50
"""Narrowest box in a row: wide enough for the phase number's circle."""
ROW_BOX = 58
"""Height of a box in a row: the number's circle above the title."""
COLUMN_BOX = 36
"""Height of a box in a column: the number's circle left of the title."""
LABEL = 16
"""Height of the line under the drawing that says how many rounds."""


@dataclass(frozen=True)
class Box:
    """One phase's box, with where its number's circle and its title go."""

    x: int
    y: int
    width: int
    height: int
    number: tuple[float, float]
    """Centre of the number's circle."""
    title: tuple[float, float]
    """Where the title's baseline starts (a column) or is centred (a row)."""
    anchor: str
    """The title's SVG ``text-anchor``: ``middle`` in a row, ``start`` in a column."""


@dataclass(frozen=True)
class Diagram:
    """The boxes of a round's phases in order, the arrows (SVG path data: each a line and its
    head), and the drawing's size and its rounds line."""

    boxes: tuple[Box, ...]
    lines: tuple[str, ...]
    heads: tuple[str, ...]
    width: int
    height: int
    label: tuple[float, float]
    """Centre of the baseline of the line that says how many rounds."""


def text_width(text: str, font: float = FONT) -> float:
    """About how wide ``text`` is drawn at ``font`` (wide characters one em, others 0.58 em)."""
    return sum(font if unicodedata.east_asian_width(c) in "WF" else font * 0.58 for c in text)


def _even(value: float) -> int:
    """``value`` rounded up to an even number: box centres fall on whole units."""
    return 2 * math.ceil(value / 2)


def phase_diagram(game: Game, lang: str) -> Diagram | None:
    """Where the game's phases are drawn in language ``lang``; None without phases."""
    if game.aid is None or not game.aid.phases:
        return None
    titles = [text_width(plain(phase.title.get(lang))) for phase in game.aid.phases]
    widths = [max(MIN_BOX, _even(width + 2 * PADDING)) for width in titles]
    if sum(widths) + GAP * (len(widths) - 1) + 2 <= ROW_MAX:
        return _row(widths)
    return _column(_even(max(titles) + 2 * PADDING + 30), len(widths))


def _row(widths: list[int]) -> Diagram:
    boxes, lines, heads = [], [], []
    x = 1  # the stroke's half: the first box's border stays inside the drawing
    for width in widths:
        middle = x + width // 2
        boxes.append(Box(x, 2, width, ROW_BOX, (middle, 19), (middle, 49), "middle"))
        x += width + GAP
    for box, after in itertools.pairwise(boxes):
        lines.append(f"M{box.x + box.width + 3} 31H{after.x - 6}")
        heads.append(f"M{after.x - 3} 31l-7 -4.5v9z")
    first, last = boxes[0].number[0], boxes[-1].number[0]
    bottom = 2 + ROW_BOX
    loop = bottom + 22
    lines.append(f"M{last} {bottom + 1}V{loop}H{first}V{bottom + 7}")
    heads.append(f"M{first} {bottom + 3}l-4.5 7h9z")
    return Diagram(
        tuple(boxes),
        tuple(lines),
        tuple(heads),
        x - GAP + 1,
        loop + 2 + LABEL,
        ((first + last) // 2, loop + LABEL - 1),
    )


def _column(width: int, count: int) -> Diagram:
    boxes, lines, heads = [], [], []
    middle = 1 + width // 2
    for index in range(count):
        y = 2 + index * (COLUMN_BOX + GAP)
        boxes.append(Box(1, y, width, COLUMN_BOX, (21, y + 18), (38, y + 23), "start"))
    for box, after in itertools.pairwise(boxes):
        lines.append(f"M{middle} {box.y + COLUMN_BOX + 3}V{after.y - 6}")
        heads.append(f"M{middle} {after.y - 3}l-4.5 -7h9z")
    right = 1 + width
    first, last = boxes[0].y + COLUMN_BOX // 2, boxes[-1].y + COLUMN_BOX // 2
    lines.append(f"M{right + 3} {last}H{right + 18}V{first}H{right + 8}")
    heads.append(f"M{right + 3} {first}l7 -4.5v9z")
    bottom = boxes[-1].y + COLUMN_BOX
    return Diagram(
        tuple(boxes),
        tuple(lines),
        tuple(heads),
        right + 20,
        bottom + 6 + LABEL,
        (middle, bottom + LABEL + 1),
    )
