"""Pictures: the files under ``data/images/`` that rule sections and rulings show.

A picture is checked like a data file and more: it must be a regular file inside the images
folder (a symlink may not lead out of it), at most :data:`MAX_IMAGE_BYTES`, and a raster image
whose first bytes say PNG, JPEG, WebP or GIF and agree with its extension. SVG is refused: it is
a document that can carry scripts. Its width and height are read from the header (no image
library needed), so the page reserves its place before it loads.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import IMAGE_FOLDER, Game, Image
from rulesite.project import Project

MAX_IMAGE_BYTES = 500_000
"""Largest picture: a phone on a slow connection loads it in a second or two."""

MAX_IMAGE_PIXELS = 8_000
"""Widest or highest picture: a larger one is a mistake (or a decompression bomb)."""

KIND_EXTENSIONS = {
    "PNG": ("png",),
    "JPEG": ("jpg", "jpeg"),
    "WebP": ("webp",),
    "GIF": ("gif",),
}
"""The formats a picture may have and the extensions each may be named with."""


@dataclass(frozen=True)
class ImageFile:
    """A checked picture, ready to be copied into the site and sized on the page."""

    file: str
    """Path under ``data/images/`` (as the data names it)."""
    data: bytes = field(repr=False)
    """The bytes checked: what is copied into the site (the file may change after the check)."""
    kind: str
    """PNG, JPEG, WebP or GIF."""
    width: int
    """Width in pixels."""
    height: int
    """Height in pixels."""
    digest: str
    """SHA-256 of the bytes (what a cache of rendered pages keys on)."""


class ImageError(Exception):
    """Why a picture cannot be used; the message completes ``data/images/<file> ...``."""


def image_references(game: Game) -> Iterator[tuple[KeyPath, Image]]:
    """Every picture a game shows, with the key path of its record."""
    for index, section in enumerate(game.rules):
        for number, image in enumerate(section.images):
            yield ("rules", index, "images", number), image
    for index, ruling in enumerate(game.faq):
        for number, image in enumerate(ruling.images):
            yield ("faq", index, "images", number), image


def check_game_images(
    project: Project, game: Game, doc: Document, found: dict[str, ImageFile]
) -> list[Problem]:
    """Check every picture ``game`` shows; add the good ones to ``found`` (by file)."""
    problems = []
    folder = project.data_dir / IMAGE_FOLDER
    for path, image in image_references(game):
        if image.file in found:
            continue
        try:
            found[image.file] = read_image(folder, image.file, project.root)
        except ImageError as error:
            shown = f"data/{IMAGE_FOLDER}/{image.file}"
            problems.append(doc.problem((*path, "file"), f"{shown} {error}"))
    return problems


def read_image(folder: Path, file: str, root: Path | None = None) -> ImageFile:
    """Read and check the picture ``file`` under ``folder``; raise :class:`ImageError`.

    With ``root`` (the project), the file must also be inside it once every link on its way
    is followed: ``data/images/`` or a folder in it may itself be a link to elsewhere.
    """
    raw = _read(folder, file, root)
    kind, width, height = image_header(raw)
    extension = file.rsplit(".", 1)[-1]
    if extension not in KIND_EXTENSIONS[kind]:
        wanted = " or .".join(KIND_EXTENSIONS[kind])
        raise ImageError(f"is a {kind} image named .{extension}; rename it to .{wanted}")
    if not (0 < width <= MAX_IMAGE_PIXELS and 0 < height <= MAX_IMAGE_PIXELS):
        raise ImageError(
            f"is {width} × {height} pixels; pictures must be 1 to {MAX_IMAGE_PIXELS:,} pixels "
            "wide and high"
        )
    if kind == "PNG":
        _png_has_image_data(raw)
    return ImageFile(file, raw, kind, width, height, hashlib.sha256(raw).hexdigest())


def _read(folder: Path, file: str, root: Path | None = None) -> bytes:
    """The bytes of a regular file inside ``folder`` (and ``root``), at most ``MAX_IMAGE_BYTES``."""
    path = folder / file
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise ImageError("does not exist; add the file or correct the path") from None
    except (OSError, RuntimeError) as error:
        raise ImageError(f"cannot be read: {getattr(error, 'strerror', None) or error}") from None
    if not real.is_relative_to(folder.resolve()):
        raise ImageError(f"links to {real}, outside data/{IMAGE_FOLDER}/; pictures must be in it")
    if root is not None and not real.is_relative_to(root.resolve()):
        raise ImageError(
            f"is {real}, outside the project (a link on its way leads out); "
            f"pictures must be in data/{IMAGE_FOLDER}/ itself"
        )
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as error:
        raise ImageError(f"cannot be read: {error.strerror}") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise ImageError("is not a regular file")
        if status.st_size > MAX_IMAGE_BYTES:
            raise ImageError(_too_big(status.st_size))
        raw = os.read(fd, MAX_IMAGE_BYTES + 1)
    except OSError as error:
        raise ImageError(f"cannot be read: {error.strerror}") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_IMAGE_BYTES:  # it grew after it was measured
        raise ImageError(_too_big(len(raw)))
    return raw


def _too_big(size: int) -> str:
    return (
        f"is {size:,} bytes; pictures must be at most {MAX_IMAGE_BYTES:,} bytes "
        "(500 KB): make it smaller or compress it"
    )


# --- Headers -------------------------------------------------------------------------------------


def image_header(raw: bytes) -> tuple[str, int, int]:
    """``(kind, width, height)`` from a picture's first bytes; :class:`ImageError` if it is not
    a PNG, JPEG, WebP or GIF image (or its header is cut short)."""
    try:
        if raw.startswith(b"\x89PNG\r\n\x1a\n"):
            return ("PNG", *_png_size(raw))
        if raw.startswith(b"\xff\xd8\xff"):
            return ("JPEG", *_jpeg_size(raw))
        if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
            return ("WebP", *_webp_size(raw))
        if raw[:6] in (b"GIF87a", b"GIF89a"):
            return ("GIF", *struct.unpack("<HH", raw[6:10]))
    except (struct.error, IndexError):
        raise ImageError(
            "is cut short: its header ends too early; save the picture again"
        ) from None
    if _looks_like_svg(raw):
        raise ImageError(
            "is an SVG file; SVG can carry scripts, so only PNG, JPEG, WebP and GIF are shown: "
            "export it as PNG"
        )
    raise ImageError("is not a PNG, JPEG, WebP or GIF image (its first bytes say otherwise)")


def _png_size(raw: bytes) -> tuple[int, int]:
    if raw[12:16] != b"IHDR":
        raise ImageError("is not a valid PNG image (no IHDR header first)")
    width, height = struct.unpack(">II", raw[16:24])
    return width, height


def _png_has_image_data(raw: bytes) -> None:
    # A header alone shows as a broken picture: the chunks must hold image data and an end.
    at, data, ended = 8, 0, False
    while at + 8 <= len(raw) and not ended:
        (length,) = struct.unpack(">I", raw[at : at + 4])
        kind = raw[at + 4 : at + 8]
        if at + 12 + length > len(raw):
            break
        data += length if kind == b"IDAT" else 0
        ended = kind == b"IEND"
        at += 12 + length
    if not data:
        raise ImageError("is a PNG image with no image data (no IDAT chunk); save it again")
    if not ended:
        raise ImageError("is cut short: its image data ends early; save the picture again")


_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
"""Start-of-frame markers (SOF0–SOF15 but DHT, JPG and DAC), which carry the size."""


def _jpeg_size(raw: bytes) -> tuple[int, int]:
    at = 2
    while at + 4 <= len(raw):
        if raw[at] != 0xFF:
            raise ImageError("is not a valid JPEG image (its markers are broken)")
        marker = raw[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        (length,) = struct.unpack(">H", raw[at + 2 : at + 4])
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack(">HH", raw[at + 5 : at + 9])
            return width, height
        if marker == 0xDA or length < 2:  # image data before any frame header
            break
        at += 2 + length
    raise ImageError("is not a valid JPEG image (no frame header with its size)")


def _webp_size(raw: bytes) -> tuple[int, int]:
    chunk = raw[12:16]
    if chunk == b"VP8 ":
        if raw[23:26] != b"\x9d\x01\x2a":
            raise ImageError("is not a valid WebP image (bad VP8 frame)")
        width, height = struct.unpack("<HH", raw[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        if raw[20] != 0x2F:
            raise ImageError("is not a valid WebP image (bad VP8L signature)")
        (bits,) = struct.unpack("<I", raw[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        if len(raw) < 30:
            raise IndexError
        return int.from_bytes(raw[24:27], "little") + 1, int.from_bytes(raw[27:30], "little") + 1
    raise ImageError("is not a valid WebP image (unknown first chunk)")


def _looks_like_svg(raw: bytes) -> bool:
    head = raw[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<?xml", b"<svg", b"<!doctype svg")) or b"<svg" in head


# --- Site ----------------------------------------------------------------------------------------


def site_path(file: str) -> str:
    """Where a picture is published in each language's site (relative to its root)."""
    return f"{IMAGE_FOLDER}/{file}"


def copy_images(images: dict[str, ImageFile], docs_dir: Path) -> None:
    """Copy every checked picture into a language project's ``docs/`` (MkDocs publishes it)."""
    for file, image in sorted(images.items()):
        target = docs_dir / site_path(file)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(image.data)
