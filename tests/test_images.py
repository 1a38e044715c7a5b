"""Pictures (issue 10, item 6): checked files under data/images/, sized and lazy on the page,
copied into every language's site. Bad data files are in tests/data/bad/image-*."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.check.images import MAX_IMAGE_BYTES, ImageError, image_header, read_image
from rulesite.errors import DataError
from rulesite.project import Project
from rulesite.publish.build import build
from rulesite.render.renderer import render_pages
from tests.helpers import EXTRA_IMAGES, REPO, elements
from tests.projects import extra_game_text, good_game_text, make_project

SAMPLES = REPO / "tests" / "data" / "images"
"""Small pictures Chromium encoded (canvas.toDataURL): real encoders' headers."""
BOARD = EXTRA_IMAGES / "extra-game" / "board.png"
"""The extra fixture game's picture, 640 × 360."""
PNG_HEAD = BOARD.read_bytes()[:33]
"""Signature and IHDR chunk of a PNG: enough for the header reader."""


def png_of(width: int, height: int) -> bytes:
    """A PNG with the given size in its header (and the board's image data after it)."""
    return (
        PNG_HEAD[:16] + struct.pack(">II", width, height) + PNG_HEAD[24:] + BOARD.read_bytes()[33:]
    )


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        (BOARD, ("PNG", 640, 360)),
        (SAMPLES / "sample-33x17.jpg", ("JPEG", 33, 17)),
        (SAMPLES / "sample-33x17.webp", ("WebP", 33, 17)),
        (SAMPLES / "sample-33x17-lossless.webp", ("WebP", 33, 17)),
    ],
    ids=lambda value: value.name if isinstance(value, Path) else "",
)
def test_sizes_are_read_from_real_files(file: Path, expected: tuple[str, int, int]) -> None:
    assert image_header(file.read_bytes()) == expected


def test_sizes_of_every_webp_kind_and_gif() -> None:
    # Simple lossy (VP8), lossless (VP8L) and GIF headers, written from their specifications.
    vp8 = b"RIFF\0\0\0\0WEBPVP8 \0\0\0\0" + b"\0\0\0" + b"\x9d\x01\x2a" + struct.pack("<HH", 33, 17)
    bits = (33 - 1) | ((17 - 1) << 14)
    vp8l = b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0" + b"\x2f" + struct.pack("<I", bits)
    gif = b"GIF89a" + struct.pack("<HH", 33, 17) + b"\0\0\0"
    assert image_header(vp8) == ("WebP", 33, 17)
    assert image_header(vp8l) == ("WebP", 33, 17)
    assert image_header(gif) == ("GIF", 33, 17)
    assert image_header(b"GIF87a" + gif[6:]) == ("GIF", 33, 17)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "is an SVG file; SVG can carry scripts"),
        (b"\xef\xbb\xbf<?xml version='1.0'?><svg/>", "is an SVG file"),
        (b"<!DOCTYPE html><html>", "is not a PNG, JPEG, WebP or GIF image"),
        (b"BM" + bytes(60), "is not a PNG, JPEG, WebP or GIF image"),  # a Windows bitmap
        (b"", "is not a PNG, JPEG, WebP or GIF image"),
        (PNG_HEAD[:20], "is cut short"),
        (b"GIF89a\x21", "is cut short"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "is not a valid JPEG image"),
        (PNG_HEAD[:12] + b"IDAT" + PNG_HEAD[16:], "is not a valid PNG image"),
        (b"RIFF\0\0\0\0WEBPVP9 " + bytes(20), "is not a valid WebP image"),
    ],
)
def test_anything_else_is_refused(raw: bytes, message: str) -> None:
    with pytest.raises(ImageError) as caught:
        image_header(raw)
    assert str(caught.value).startswith(message)


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_good_file_is_read_with_its_size_and_digest(tmp_path: Path) -> None:
    write(tmp_path, "games/board.png", BOARD.read_bytes())
    image = read_image(tmp_path, "games/board.png")
    assert (image.kind, image.width, image.height) == ("PNG", 640, 360)
    assert image.data == BOARD.read_bytes() and len(image.digest) == 64


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "big.png", BOARD.read_bytes().ljust(MAX_IMAGE_BYTES + 1, b"\0"))
    write(tmp_path, "limit.png", BOARD.read_bytes().ljust(MAX_IMAGE_BYTES, b"\0"))
    with pytest.raises(ImageError, match=r"^is 500,001 bytes; pictures must be at most 500,000"):
        read_image(tmp_path, "big.png")
    assert read_image(tmp_path, "limit.png").width == 640


@pytest.mark.parametrize(("width", "height"), [(0, 10), (10, 0), (8_001, 10), (10, 8_001)])
def test_an_empty_or_huge_picture_is_refused(tmp_path: Path, width: int, height: int) -> None:
    write(tmp_path, "odd.png", png_of(width, height))
    with pytest.raises(ImageError, match=r"pixels; pictures must be 1 to 8,000 pixels"):
        read_image(tmp_path, "odd.png")


def test_the_extension_must_match_the_content(tmp_path: Path) -> None:
    write(tmp_path, "photo.jpeg", (SAMPLES / "sample-33x17.jpg").read_bytes())
    assert read_image(tmp_path, "photo.jpeg").kind == "JPEG"
    write(tmp_path, "photo.webp", BOARD.read_bytes())
    with pytest.raises(ImageError, match=r"^is a PNG image named \.webp; rename it to \.png$"):
        read_image(tmp_path, "photo.webp")


def test_a_symlink_may_not_lead_out_of_the_folder(tmp_path: Path) -> None:
    images = tmp_path / "data" / "images"
    secret = write(tmp_path, "outside.png", BOARD.read_bytes())
    images.mkdir(parents=True)
    (images / "escape.png").symlink_to(secret)
    with pytest.raises(ImageError, match=r"^links to .*outside.png, outside data/images/"):
        read_image(images, "escape.png")
    # A link inside the folder is fine.
    write(images, "real.png", BOARD.read_bytes())
    (images / "alias.png").symlink_to(images / "real.png")
    assert read_image(images, "alias.png").width == 640


def test_a_folder_a_fifo_or_a_dangling_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder.png").mkdir()
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "gone.png").symlink_to(tmp_path / "nothing.png")
    with pytest.raises(ImageError, match=r"^is not a regular file$"):
        read_image(tmp_path, "folder.png")
    with pytest.raises(ImageError, match=r"^is not a regular file$"):
        read_image(tmp_path, "pipe.png")  # opened without blocking, then refused
    with pytest.raises(ImageError, match=r"^does not exist"):
        read_image(tmp_path, "gone.png")


# --- In a project -------------------------------------------------------------------------------

HOSTILE_ALT = '"><script>alert(1)</script> {: onclick=alert(1) } &amp; <b>x</b> [x]'


def game_with_images(alt: str = "A board") -> str:
    """The good fixture game with a picture under its first rule section and first ruling."""
    picture = (
        "    images:\n"
        "      - file: mini/board.png\n"
        f"        alt: {{zh: 版图, en: {alt!r}}}\n"
        "        caption: {zh: 准备好的 *版图*, en: The board *set up*}\n"
    )
    text = good_game_text().replace(
        "      en: Each player takes 5 cards.\n", "      en: Each player takes 5 cards.\n" + picture
    )
    return text.replace(
        '    answer: {zh: 没有。, en: "No."}\n',
        '    answer: {zh: 没有。, en: "No."}\n'
        + picture.replace("mini/board.png", "mini/hand.jpg"),
    )


def project_with_images(root: Path, alt: str = "A board") -> Project:
    project = Project(make_project(root, games={"mini-game.yaml": game_with_images(alt)}))
    write(project.data_dir / "images", "mini/board.png", BOARD.read_bytes())
    write(project.data_dir / "images", "mini/hand.jpg", (SAMPLES / "sample-33x17.jpg").read_bytes())
    return project


def test_the_catalog_holds_every_picture_and_a_changed_one_changes_the_digest(
    tmp_path: Path,
) -> None:
    project = project_with_images(tmp_path / "p")
    catalog = load_catalog(project)
    assert {file: (i.width, i.height) for file, i in catalog.images.items()} == {
        "mini/board.png": (640, 360),
        "mini/hand.jpg": (33, 17),
    }
    before = catalog.digests["mini-game"]
    write(project.data_dir / "images", "mini/board.png", png_of(320, 180))
    assert load_catalog(project).digests["mini-game"] != before


def test_a_missing_picture_is_a_located_error(tmp_path: Path) -> None:
    project = project_with_images(tmp_path / "p")
    (project.data_dir / "images" / "mini" / "hand.jpg").unlink()
    with pytest.raises(DataError) as caught:
        load_catalog(project)
    text = (project.games_dir / "mini-game.yaml").read_text(encoding="utf-8")
    line = text.split("\n").index("      - file: mini/hand.jpg") + 1
    assert caught.value.lines() == [
        f"data/games/mini-game.yaml:{line}: faq[0].images[0].file: data/images/mini/hand.jpg "
        "does not exist; add the file or correct the path"
    ]


def test_pages_show_pictures_sized_lazy_and_escaped(tmp_path: Path) -> None:
    project = project_with_images(tmp_path / "p", alt=HOSTILE_ALT)
    pages = render_pages(project, load_catalog(project))
    rules = pages["en/games/mini-game/rules.md"]
    assert "<script>" not in rules and "](javascript" not in rules
    assert '(../../images/mini/board.png){ width="640" height="360" loading="lazy" ' in rules
    assert "<figcaption>The board <em>set up</em></figcaption>" in rules
    assert "<figcaption>准备好的 <em>版图</em></figcaption>" in pages["zh/games/mini-game/rules.md"]
    faq = pages["en/games/mini-game/faq.md"]
    assert '(../../images/mini/hand.jpg){ width="33" height="17" loading="lazy" ' in faq


def test_the_built_site_has_every_picture_in_every_language(tmp_path: Path) -> None:
    project = project_with_images(tmp_path / "p", alt=HOSTILE_ALT)
    build(project)
    site = project.site_dir
    for prefix in ("", "en/"):
        assert (site / prefix / "images/mini/board.png").read_bytes() == BOARD.read_bytes()
        html = (site / prefix / "games/mini-game/rules/index.html").read_text(encoding="utf-8")
        images = [attrs for tag, attrs in elements(html) if tag == "img"]
        assert images == [
            {
                "alt": "版图" if not prefix else HOSTILE_ALT,
                "decoding": "async",
                "height": "360",
                "loading": "lazy",
                "src": "../../../images/mini/board.png",
                "width": "640",
            }
        ]
        assert "<script>alert" not in html and "javascript:" not in html
    # An unused file in data/images/ is not published.
    assert not (site / "images/mini/unused.png").exists()


def test_the_extra_fixture_game_shows_its_picture(tmp_path: Path) -> None:
    project = Project(make_project(tmp_path / "p", games={"extra-game.yaml": extra_game_text()}))
    catalog = load_catalog(project)
    assert catalog.images["extra-game/board.png"].width == 640
    pages = render_pages(project, catalog)
    assert (
        'images/extra-game/board.png){ width="640" height="360"'
        in (pages["zh/games/extra-game/rules.md"])
    )


def test_an_alt_text_missing_in_a_language_is_a_located_error(tmp_path: Path) -> None:
    project = project_with_images(tmp_path / "p")
    path = project.games_dir / "mini-game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("alt: {zh: 版图, en: 'A board'}", "alt: {zh: 版图}", 1))
    with pytest.raises(DataError) as caught:
        load_catalog(project)
    line = text.split("\n").index("      - file: mini/board.png") + 2
    (problem,) = caught.value.lines()
    assert problem.startswith(f"data/games/mini-game.yaml:{line}: rules[0].images[0].alt")
    assert "missing English" in problem
