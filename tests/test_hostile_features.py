"""Today's features attacked as a hostile editor or visitor would: the Atom feeds, the JSON export,
pictures, the offline worker and its lists, the module filter and `rulesite new`.

A hostile game (the extra fixture game, with a picture, a setup table and a change, its texts
carrying markup, XML and path payloads) is built once; every file those features publish is
then read back as a browser, a feed reader or the worker would read it.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesite.check.images import ImageError, copy_images, read_image
from rulesite.commands.new import new_game
from rulesite.commands.schema import write_schemas
from rulesite.errors import DataError, UsageError
from rulesite.model import TEXT, Image, check_text
from rulesite.model.base import _FORBIDDEN_CHARS
from rulesite.project import Project
from rulesite.publish.build import build
from tests.helpers import EXTRA_GAME, REPO, elements
from tests.projects import make_project
from tests.test_hostile_data import active_content

ATOM = "{http://www.w3.org/2005/Atom}"
PAYLOADS = (
    "<script>alert('f1')</script>",
    "]]><evil/>",
    "&amp; &lt; &#60;b&#62; &x;",
    '<!DOCTYPE x [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    "\"'><img src=x onerror=alert('f2')>",
    "</script><script>alert('f3')</script>",
    "../../../etc/passwd https://evil.example/sw.js",
)
MARKER = "<script>alert('f1')</script>"
"""The payload every poisoned text starts with (so each is found as text where it lands)."""
HOSTILE = " ".join(PAYLOADS)


def _poison(text: dict[str, str]) -> dict[str, str]:
    return {lang: f"{MARKER} {value} {HOSTILE}"[:290] for lang, value in text.items()}


def _poison_all(data: Any) -> Any:
    """Every text of a data tree poisoned (a mapping of exactly the site's languages)."""
    if isinstance(data, dict):
        if set(data) == {"zh", "en"} and all(isinstance(v, str) for v in data.values()):
            return _poison(data)
        return {key: _poison_all(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_poison_all(item) for item in data]
    return data


def _hostile_game() -> str:
    game = yaml.safe_load(EXTRA_GAME.read_text(encoding="utf-8"))
    # The calculator keeps its own texts: its examples' names are checked one-line and short.
    game = {key: value if key == "scoring" else _poison_all(value) for key, value in game.items()}
    game["changes"] = [
        {
            "id": "hostile",
            "date": "2026-05-01",
            "kind": "corrected",
            "text": _poison({"zh": "改正。", "en": "Corrected."}),
            "rules": ["setup"],
        }
    ]
    return yaml.safe_dump(game, allow_unicode=True, sort_keys=False)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(
        tmp_path_factory.mktemp("hostile-features") / "p",
        games={EXTRA_GAME.name: _hostile_game()},
    )
    project = Project(root)
    build(project)
    return project.site_dir


LANGUAGE_ROOTS = ("", "en/")


def test_no_page_of_the_hostile_game_carries_active_content(hostile_site: Path) -> None:
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) >= 12
    for page in pages:
        found = active_content(page.read_text(encoding="utf-8"))
        if page.parent.name == "rules":  # its one picture (checked below)
            assert found.count("<img> in the page content") == 1
            found.remove("<img> in the page content")
        assert found == [], page.relative_to(hostile_site)


LOADED = {"script": "src", "img": "src", "iframe": "src", "source": "src", "link": "href"}
"""Elements whose address the browser fetches as the page loads (an <a> waits for a click)."""


def test_no_page_of_the_hostile_game_loads_anything_from_another_host(hostile_site: Path) -> None:
    for page in sorted(hostile_site.rglob("*.html")):
        for tag, attrs in elements(page.read_text(encoding="utf-8")):
            url = attrs.get(LOADED.get(tag, ""), None) or ""
            if tag == "link" and attrs.get("rel") in ("canonical", "alternate"):
                continue  # addresses of this page, not loaded
            assert not re.match(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//|\\\\)", url) or (
                url.startswith("data:")
            ), (page.relative_to(hostile_site), tag, url)


# --- Feeds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\ufffe", "\uffff"])
def test_texts_refuse_what_xml_cannot_hold(char: str) -> None:
    # XML 1.0 has no U+FFFE or U+FFFF: one in a change's text made every feed unreadable.
    with pytest.raises(ValueError, match=f"U\\+{ord(char):04X} \\(not a character\\)"):
        check_text(f"a{char}b", TEXT)


def test_every_character_a_text_may_hold_is_valid_xml() -> None:
    allowed = "".join(
        chr(code) for code in range(0x110000) if not _FORBIDDEN_CHARS.match(chr(code))
    )
    element = ET.Element("text")
    element.text = allowed
    assert ET.fromstring(ET.tostring(element, encoding="utf-8")).text == allowed


@pytest.mark.parametrize("root", LANGUAGE_ROOTS)
def test_feeds_keep_hostile_text_as_text(hostile_site: Path, root: str) -> None:
    data = (hostile_site / root / "feed.xml").read_bytes()
    assert b"<!DOCTYPE" not in data and b"<!ENTITY" not in data
    feed = ET.fromstring(data)
    assert {element.tag.split("}")[0] for element in feed.iter()} == {ATOM[:-1]}
    (entry,) = feed.findall(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}title", "").count(MARKER) >= 1  # arrived, as text
    assert entry.findtext(f"{ATOM}summary", "").startswith(MARKER)
    content = entry.findtext(f"{ATOM}content", "")
    assert "<script" not in content and "<img" not in content and "<evil" not in content


# --- JSON export ---------------------------------------------------------------------------------


def test_the_export_holds_hostile_text_as_json_strings(hostile_site: Path) -> None:
    api = hostile_site / "api"
    names = sorted(path.relative_to(api).as_posix() for path in api.rglob("*") if path.is_file())
    assert [name for name in names if not name.startswith("schema/")] == [
        "games.json",
        "games/extra-game.json",
    ]
    game = json.loads((api / "games" / "extra-game.json").read_text(encoding="utf-8"))
    assert MARKER in json.dumps(game, ensure_ascii=False)
    # Published only as .json files (static hosts serve them as application/json), never
    # inlined into a page.
    for page in hostile_site.rglob("*.html"):
        assert "api/games/" not in page.read_text(encoding="utf-8")


# --- Pictures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("root", LANGUAGE_ROOTS)
def test_the_picture_keeps_its_path_and_its_alt_text_stays_text(
    hostile_site: Path, root: str
) -> None:
    html = (hostile_site / root / "games" / "extra-game" / "rules" / "index.html").read_text(
        encoding="utf-8"
    )
    content = html.split('<article class="md-content__inner', 1)[1].split("</article>", 1)[0]
    images = [attrs for tag, attrs in elements(content) if tag == "img"]
    assert len(images) == 1
    (image,) = images
    assert image["src"] == "../../../images/extra-game/board.png"
    assert set(image) == {"src", "alt", "width", "height", "loading", "decoding"}
    assert image["alt"].startswith("<script>alert('f1')</script>")
    figcaption = content.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0]
    assert "<" not in figcaption and figcaption.startswith("&#60;script&#62;alert('f1')")
    assert (hostile_site / root / "images" / "extra-game" / "board.png").is_file()


@pytest.mark.parametrize(
    "file",
    [
        "../outside.png",
        "a/../../outside.png",
        "/etc/board.png",
        'x" onerror="alert(1).png',
        "board name.png",
        "bo%61rd.png",
        "board.png#x",
        "board.png?x=1",
        "board.png/",
        "pl\u00e4n.png",
        "Board.png",
        "board.svg",
        "board.png.html",
        "",
    ],
)
def test_a_picture_path_is_plain_and_inside_the_folder(file: str) -> None:
    # It is printed into src="images/<file>" and joined to data/images/.
    with pytest.raises(ValueError, match="is not an image path under data/images/"):
        Image.model_validate({"file": file, "alt": {"zh": "图", "en": "Picture"}})


def test_a_page_that_calls_itself_a_png_is_refused(tmp_path: Path) -> None:
    (tmp_path / "page.png").write_bytes(b"<!doctype html><script>alert(1)</script>")
    (tmp_path / "drawing.png").write_bytes(b'<?xml version="1.0"?><svg onload="alert(1)"/>')
    with pytest.raises(ImageError, match="is not a PNG, JPEG, WebP or GIF image"):
        read_image(tmp_path, "page.png")
    with pytest.raises(ImageError, match="is an SVG file; SVG can carry scripts"):
        read_image(tmp_path, "drawing.png")


def test_the_bytes_checked_are_the_bytes_published(tmp_path: Path) -> None:
    # A file swapped after the check (for a page, a bigger picture) is not what gets copied.
    folder = tmp_path / "images"
    folder.mkdir()
    board = (EXTRA_GAME.parent / "images" / "extra-game" / "board.png").read_bytes()
    (folder / "board.png").write_bytes(board)
    checked = read_image(folder, "board.png")
    (folder / "board.png").write_bytes(b"<!doctype html><script>alert(1)</script>")
    copy_images({"board.png": checked}, tmp_path / "docs")
    assert (tmp_path / "docs" / "images" / "board.png").read_bytes() == board


# --- Offline worker ------------------------------------------------------------------------------


@pytest.mark.parametrize("root", LANGUAGE_ROOTS)
def test_offline_lists_hold_only_this_sites_own_files(hostile_site: Path, root: str) -> None:
    lists = json.loads((hostile_site / root / "offline.json").read_text(encoding="utf-8"))
    assert list(lists["games"]) == ["extra-game"]
    files = lists["shared"] + lists["games"]["extra-game"]
    for file in files:
        assert not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^/|\\", file), file
        assert ".." not in file.split("/") and "evil" not in file and "<" not in file, file
        assert (hostile_site / root / file).exists(), file


def test_each_worker_leaves_only_other_languages_to_their_own(hostile_site: Path) -> None:
    for root, skip in (("", ["en/"]), ("en/", [])):
        source = (hostile_site / root / "sw.js").read_text(encoding="utf-8")
        settings = json.loads(re.search(r"^const SETTINGS = (\{.*\});$", source, re.M).group(1))
        assert settings["skip"] == skip
        assert settings["lists"] == "offline.json" and settings["offline"] == "offline.html"


THEME_SCRIPTS = sorted((REPO / "templates" / "theme").rglob("*.js"))
UNSAFE_JS = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\s*\(|\bFunction\s*\("
    r"|importScripts|https?://"
)
"""Ways a script could turn text into code or markup, or load from another host."""


@pytest.mark.parametrize("script", THEME_SCRIPTS, ids=lambda path: path.name)
def test_theme_scripts_never_turn_text_into_code_or_markup(script: Path) -> None:
    # Comments may name these (to say they are not used): only the code counts.
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", script.read_text(encoding="utf-8"), flags=re.S)
    assert not UNSAFE_JS.findall(code)


def test_the_worker_handles_only_its_own_origin_and_scope() -> None:
    source = (REPO / "templates" / "theme" / "sw.js").read_text(encoding="utf-8")
    assert "url.origin !== self.location.origin || !url.href.startsWith(SCOPE)" in source
    # A slug from a message or an old cache is checked before it names anything.
    assert "if (!GAME.test(slug)) return false;" in source


# --- rulesite new --------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["../escape", "/tmp/escape", "a/b", "x.yaml", "..", "-"])
def test_new_refuses_a_slug_that_is_a_path(tmp_path: Path, slug: str) -> None:
    root = make_project(tmp_path / "p")
    with pytest.raises(UsageError, match="is not a valid slug"):
        new_game(Project(root), slug)
    assert sorted(p.name for p in (root / "data" / "games").iterdir()) == ["mini-game.yaml"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]


@pytest.mark.parametrize("linked", ["data/games", "data"])
def test_new_writes_nothing_through_a_folder_linked_out_of_the_project(
    tmp_path: Path, linked: str
) -> None:
    root = make_project(tmp_path / "p")
    outside = tmp_path / "outside"
    (root / linked).rename(outside)
    (root / linked).symlink_to(outside)
    with pytest.raises(UsageError, match="outside the project; rulesite new writes only inside"):
        new_game(Project(root), "new-game")
    assert not list(outside.rglob("new-game.yaml"))


# --- rulesite schema -----------------------------------------------------------------------------


def test_schema_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    victim = tmp_path / "victim.txt"
    victim.write_text("someone's file\n", encoding="utf-8")
    schema_dir = root / "data" / "schema"
    schema_dir.mkdir()
    (schema_dir / "api-game.schema.json").symlink_to(victim)
    written = write_schemas(Project(root))
    assert victim.read_text(encoding="utf-8") == "someone's file\n"
    assert (schema_dir / "api-game.schema.json") in written
    for path in written:
        assert path.is_file() and not path.is_symlink()
        assert json.loads(path.read_text(encoding="utf-8"))
    assert sorted(p.name for p in schema_dir.iterdir()) == sorted(p.name for p in written)


@pytest.mark.parametrize("linked", ["data/schema", "data"])
def test_schema_writes_nothing_through_a_folder_linked_out_of_the_project(
    tmp_path: Path, linked: str
) -> None:
    root = make_project(tmp_path / "p")
    outside = tmp_path / "outside"
    (root / linked).mkdir(exist_ok=True)
    (root / linked).rename(outside)
    (root / linked).symlink_to(outside)
    before = sorted(outside.rglob("*"))
    with pytest.raises((UsageError, DataError)) as caught:
        write_schemas(Project(root))
    assert sorted(outside.rglob("*")) == before
    if linked == "data/schema":
        assert "outside the project; rulesite schema writes only inside it" in str(caught.value)
