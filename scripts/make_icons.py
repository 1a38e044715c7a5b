"""Draw the web app icons (templates/theme/assets/icons/*.png) without any image library.

The icons are committed; run this again only to change them:
``.venv/bin/python scripts/make_icons.py``. A playing card (the site's logo is a card) in white on
the site's teal: ``icon-<size>.png`` with rounded corners for browsers and desktops,
``icon-maskable-<size>.png`` filled to the edge with the card inside the safe zone (the middle
80 %), for launchers that cut icons to their own shape. Pure Python (zlib), so the output is the
same bytes on every machine.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "templates" / "theme" / "assets" / "icons"
TEAL = (0x00, 0x69, 0x5C)
"""``--md-primary-fg-color`` in templates/theme/assets/rulesite.css."""
WHITE = (0xFF, 0xFF, 0xFF)
ORANGE = (0xBF, 0x36, 0x0C)
"""``--md-accent-fg-color``: the card's suit mark."""
SAMPLES = 4
"""Samples per pixel side: edges are anti-aliased by coverage."""


def rounded_box(x: float, y: float, box: tuple[float, float, float, float], r: float) -> bool:
    """Whether the point lies in the box (left, top, right, bottom) with corner radius ``r``."""
    left, top, right, bottom = box
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def diamond(x: float, y: float, centre: tuple[float, float], half: float) -> bool:
    return abs(x - centre[0]) + abs(y - centre[1]) * 0.75 <= half


def colour_at(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at a point of the unit square (RGBA; transparent outside the icon)."""
    scale = 0.8 if maskable else 1.0  # maskable: everything that matters in the safe zone
    u, v = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    if not maskable and not rounded_box(x, y, (0, 0, 1, 1), 0.18):
        return (0, 0, 0, 0)
    if diamond(u, v, (0.5, 0.5), 0.13):
        return (*ORANGE, 255)
    if rounded_box(u, v, (0.27, 0.16, 0.73, 0.84), 0.06):
        return (*WHITE, 255)
    return (*TEAL, 255)


def pixels(size: int, maskable: bool) -> bytes:
    rows = bytearray()
    step = 1 / (size * SAMPLES)
    for py in range(size):
        rows.append(0)  # PNG filter type: none
        for px in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px * SAMPLES + sx + 0.5) * step
                    y = (py * SAMPLES + sy + 0.5) * step
                    r, g, b, a = colour_at(x, y, maskable)
                    total[0] += r * a
                    total[1] += g * a
                    total[2] += b * a
                    total[3] += a
            alpha = total[3]
            if alpha:
                rows.extend(round(c / alpha) for c in total[:3])
            else:
                rows.extend((0, 0, 0))
            rows.append(round(alpha / SAMPLES**2))
    return bytes(rows)


def png(size: int, maskable: bool) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels(size, maskable), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (ICONS / f"icon-{size}.png").write_bytes(png(size, maskable=False))
    (ICONS / "icon-maskable-512.png").write_bytes(png(512, maskable=True))
    print(f"wrote {ICONS}")


if __name__ == "__main__":
    main()
