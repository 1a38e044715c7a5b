"""Test projects: made from the real templates and config (``make_project``), copies of built
ones, the caches a built project has, the fixture projects (a third language, the scoring
gallery, the extra game) and the real project the checks of the site read (``REAL``)."""

from __future__ import annotations

import atexit
import fcntl
import functools
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import yaml

from rulesite.publish.build_cache import CACHE_DIR, TRASH
from tests.helpers import (
    EXTRA_GAME,
    EXTRA_IMAGES,
    GAME_SCHEMA_LINE,
    GOOD,
    REPO,
    tree_digest,
)


def copy_project(root: Path, target: Path) -> Path:
    """A copy of the project at ``root`` without its built site and generated projects: for a
    test that builds a shared project differently (another address), so that the shared one's
    content/ stays what its site/ was built from. Nor its build cache: the copy builds clean,
    and the cache's trash may be going away under the copy (``copy_built``)."""
    shutil.copytree(root, target, ignore=shutil.ignore_patterns("site", "content", ".cache"))
    return with_warm_caches(target)


def built_once(base: Path, name: str, make: Callable[[Path], None]) -> Path:
    """``base/name``, made by ``make(folder)`` once for every process that asks: the first
    makes it under a file lock, the others wait for it and get the same folder.

    For what pytest-xdist's workers would each build alike (a build is seconds of MkDocs): pass
    the run's shared temporary folder (``shared_temp``). Read the folder, never change it; a
    test that changes or rebuilds it takes a copy (``copy_built``). A ``make`` that failed is
    tried again by the next process that asks (and fails there alike).
    """
    folder, done = base / name, base / f"{name}.done"
    base.mkdir(parents=True, exist_ok=True)
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
            make(folder)
            done.touch()
    return folder


def shared_temp(tmp_path_factory) -> Path:
    """The temporary folder every process of this pytest run shares: xdist's workers each get a
    folder below the run's own, a run without xdist has only its own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def copy_built(folder: Path, target: Path) -> Path:
    """A copy of a built project or site (``built_once``) that a test may change or rebuild: a
    build writes no absolute path, so the copy is what building at ``target`` would give.
    jieba's word-table cache (9 MB) is linked, not copied (``with_warm_caches``)."""
    shutil.copytree(folder, target, symlinks=True, ignore=skipping(), copy_function=_copy_file)
    return target


def _copy_file(source: str, target: str) -> None:
    if Path(source).parent.name == "jieba" and Path(source).parent.parent.name == ".cache":
        _link_or_copy(source, target)
    else:
        shutil.copy2(source, target)


def skipping(*patterns: str) -> Callable[[str, list[str]], set[str]]:
    """An ``ignore`` for ``shutil.copytree`` of a built project: the names matching
    ``patterns``, and always the build cache's trash, which a process of its own removes after
    a build (``publish/site_folder.discard``), maybe while the copy is being taken; no build
    reads it."""
    by_pattern = shutil.ignore_patterns(*patterns)

    def ignore(directory: str, names: list[str]) -> set[str]:
        trash = {TRASH} if directory.endswith(CACHE_DIR) and TRASH in names else set()
        return set(by_pattern(directory, names)) | trash

    return ignore


_compiled_templates: Callable[[], Path] | None = None
"""Where new test projects get their compiled templates (``use_compiled_templates``)."""


_jieba_cache: Callable[[], Path] | None = None
"""Where new test projects get jieba's cached word table (``use_jieba_cache``)."""


def use_compiled_templates(source: Callable[[], Path] | None) -> None:
    """Start every project made from now on in this process with the compiled templates in the
    folder ``source()`` names (a built project's ``.cache/jinja``, asked for when a project is
    made, so a run that makes none builds nothing for it); None: with none."""
    global _compiled_templates
    _compiled_templates = source


def use_jieba_cache(source: Callable[[], Path] | None) -> None:
    """Start every project made from now on in this process with the jieba word-table cache
    file ``source()`` names (asked for when a project is made); None: with none."""
    global _jieba_cache
    _jieba_cache = source


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copy2(source, target)


def with_warm_caches(target: Path) -> Path:
    """The project at ``target`` with the caches a project that was built before has: the run's
    compiled templates in ``.cache/jinja`` (``engine/bytecode.py``) and jieba's cached word
    table in ``.cache/jieba`` (``engine/search_terms.py``).

    A build of a new project compiles the page templates and Material's: measured, 0.38 of a
    fixture build's 0.88 CPU s, and the suite builds hundreds of new projects. Jinja checks each
    entry against its template's source, so a project whose templates a test changed compiles
    those again. Every build process that splits Chinese and finds no jieba cache in the project
    makes one from jieba's word list: 1.7 of a cold `rulesite build`'s 6.3 CPU s (the fixture
    project), in the dozens of builds the tests start as a command. jieba reads its cache only
    when it is newer than the word list, as this one is.

    The files are hard links: Jinja and jieba replace a cache file (write a new file, rename it
    over the old), never write into one, so no test's build changes the shared copy.
    """
    if _compiled_templates is not None and (folder := _compiled_templates()).is_dir():
        shutil.copytree(
            folder,
            target / ".cache" / "jinja",
            copy_function=_link_or_copy,
            dirs_exist_ok=True,
        )
    return with_jieba_cache(target)


def with_jieba_cache(target: Path) -> Path:
    """The project at ``target`` with the run's jieba word-table cache in ``.cache/jieba``
    (``with_warm_caches``)."""
    if _jieba_cache is not None and (table := _jieba_cache()).is_file():
        # Private, as the builds require of a project's jieba folder (search_terms).
        folder = target / ".cache" / "jieba"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not (folder / table.name).exists():
            _link_or_copy(str(table), str(folder / table.name))
    return target


def make_project(
    target: Path,
    games: dict[str, str] | None = None,
    real_games: bool = False,
    warm: bool = True,
) -> Path:
    """A project at ``target`` with the repo's config, templates and site data.

    ``games`` maps file names to YAML text; by default the good fixture game is used. With
    ``real_games`` the repo's own games are copied too. With ``warm`` (the default) it has the
    caches a project built before has (``with_warm_caches``).
    """
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copytree(REPO / "templates", target / "templates")
    games_dir = target / "data" / "games"
    games_dir.mkdir(parents=True)
    shutil.copy(REPO / "data" / "site.yaml", target / "data" / "site.yaml")
    if real_games:
        for path in (REPO / "data" / "games").glob("*.yaml"):
            shutil.copy(path, games_dir / path.name)
        # The real games' pictures, when they have any (a game added to data/ may).
        if (REPO / "data" / "images").is_dir():
            shutil.copytree(REPO / "data" / "images", target / "data" / "images")
    if games is None:
        games = {p.name: p.read_text(encoding="utf-8") for p in (GOOD / "games").glob("*.yaml")}
    for name, text in games.items():
        (games_dir / name).write_text(text, encoding="utf-8")
    if EXTRA_GAME.name in games:
        shutil.copytree(EXTRA_IMAGES, target / "data" / "images", dirs_exist_ok=True)
    return with_warm_caches(target) if warm else target


THIRD_LANGUAGE = REPO / "tests" / "fixtures" / "third-language"
"""A small game in zh, en and zh-Hant, and what the fixture adds to ``data/site.yaml``."""


THIRD_LANGUAGE_TEXTS = THIRD_LANGUAGE / "zh-Hant.yaml"
"""The third language's declaration and its text beside each of ``data/site.yaml``'s texts."""


_TOGGLE_NAMES = {"切换到深色模式": "切換到深色模式", "切换到浅色模式": "切換到淺色模式"}
"""The light/dark toggle's names (in the base ``mkdocs.yml``) in Traditional Chinese."""


def _texts(node: yaml.Node, path: list[str], found: list[tuple[str, yaml.MappingNode]]) -> None:
    """Every text (a mapping with a ``zh`` and an ``en`` key) under ``node``, by key path.

    List items are named by their ``id`` (or a language's ``code``), so a path stays the same when
    an entry is added above it.
    """
    if isinstance(node, yaml.MappingNode):
        keys = {key.value for key, _ in node.value}
        if {"zh", "en"} <= keys:
            found.append((".".join(path), node))
            return
        for key, value in node.value:
            _texts(value, [*path, key.value], found)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            name = str(index)
            if isinstance(item, yaml.MappingNode):
                name = next((v.value for k, v in item.value if k.value in ("id", "code")), name)
            _texts(item, [*path, name], found)


def _flow(value: object) -> str:
    """``value`` as one line of YAML flow style (the style ``data/site.yaml`` writes)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def third_language_site_text() -> str:
    """``data/site.yaml`` with the fixture's third language declared and a text in it beside each.

    Derived, not copied: a label added to ``data/site.yaml`` reaches the fixture (in its ``zh``
    wording until ``zh-Hant.yaml`` gives it one). The base's comments and layout are kept: texts
    grow in place, the language is added after the last one declared.
    """
    base = (REPO / "data" / "site.yaml").read_text(encoding="utf-8")
    overlay = yaml.safe_load(THIRD_LANGUAGE_TEXTS.read_text(encoding="utf-8"))
    language = overlay["language"]
    texts: list[tuple[str, yaml.MappingNode]] = []
    root = yaml.compose(base)
    _texts(root, [], texts)
    inserts: list[tuple[int, str]] = []
    for path, node in texts:
        zh = next(value.value for key, value in node.value if key.value == "zh")
        value = _flow(overlay["texts"].get(path, zh))
        # Every text in data/site.yaml is a one-line {zh: ..., en: ...}: add before its "}".
        inserts.append((node.end_mark.index - 1, f", {language['code']}: {value}"))
    languages = next(value for key, value in root.value if key.value == "languages")
    block = "".join(
        f"\n{'  - ' if i == 0 else '    '}{key}: {_flow(value)}"
        for i, (key, value) in enumerate(language.items())
    )
    last_value = languages.value[-1].value[-1][1]  # a block ends after the comments below it
    inserts.append((last_value.end_mark.index, block))
    for index, text in sorted(inserts, reverse=True):
        base = base[:index] + text + base[index:]
    return base


def make_third_language_project(target: Path) -> Path:
    """The third-language fixture at ``target``, with the repo's config and templates.

    Its ``data/site.yaml`` is derived from the repo's (``third_language_site_text``). The toggle's
    names in ``mkdocs.yml`` are given per language; the copy adds zh-Hant ones.
    """
    shutil.copytree(THIRD_LANGUAGE / "data", target / "data")
    (target / "data" / "site.yaml").write_text(third_language_site_text(), encoding="utf-8")
    shutil.copytree(REPO / "templates", target / "templates")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for simplified, traditional in _TOGGLE_NAMES.items():
        config = config.replace(
            f"{{zh: {simplified},", f"{{zh: {simplified}, zh-Hant: {traditional},"
        )
    (target / "mkdocs.yml").write_text(config, encoding="utf-8")
    return with_warm_caches(target)


def good_game_text() -> str:
    """The YAML text of the good fixture game."""
    return (GOOD / "games" / "mini-game.yaml").read_text(encoding="utf-8")


def other_game(slug: str = "other-game") -> str:
    """A second valid game: the fixture game under another slug, title and calculator id."""
    return (
        good_game_text()
        .replace("slug: mini-game", f"slug: {slug}")
        .replace("  - id: mini-game\n", f"  - id: {slug}\n")
        .replace("迷你游戏", "另一游戏")
        .replace("Mini Game", "Other Game")
    )


def extra_game_text() -> str:
    """The YAML text of the extra fixture game, as it would sit in ``data/games/``."""
    _, rest = EXTRA_GAME.read_text(encoding="utf-8").split("\n", 1)
    return f"{GAME_SCHEMA_LINE}\n{rest}"


SCORING_GALLERY = REPO / "tests" / "fixtures" / "scoring-gallery"
"""Six calculators from well-known games' scoring rules: a project but for ``data/site.yaml``."""


def make_gallery_project(target: Path) -> Path:
    """The scoring gallery at ``target``, with the repository's own ``data/site.yaml``.

    The site data is not stored in the fixture: a label added to ``data/site.yaml`` reaches it.
    ``python -m tests.projects scoring-gallery DIR`` makes one to run ``rulesite score`` in.
    """
    shutil.copytree(SCORING_GALLERY, target)
    shutil.copy(REPO / "data" / "site.yaml", target / "data" / "site.yaml")
    return with_warm_caches(target)


@functools.cache
def gallery_root() -> Path:
    """This process's copy of the scoring gallery (made once, removed when the process exits)."""
    root = Path(tempfile.mkdtemp(prefix="rulesite-gallery-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return make_gallery_project(root / "scoring-gallery")


EXTRA_GAME_SWITCH = "RULESITE_TEST_EXTRA_GAME"
"""Set to 1, the tests check the real project with the extra fixture game added (see REAL)."""


def _real_root() -> Path:
    """The real project the tests read: this repository, or a copy with a fourth game.

    With ``RULESITE_TEST_EXTRA_GAME=1`` the copy holds the repository's config, templates, site
    data and games plus the extra fixture game (its own slug, titles, text and calculator), so
    one run proves that no test of the real site counts on the seed games being the only ones.
    Each process (each xdist worker) makes its own copy, removed when it exits.
    """
    if os.environ.get(EXTRA_GAME_SWITCH, "") != "1":
        return REPO
    root = Path(tempfile.mkdtemp(prefix="rulesite-real-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return make_project(
        root / "project", games={EXTRA_GAME.name: extra_game_text()}, real_games=True
    )


def real_games() -> dict[str, str]:
    """The games a copy of the real project gets beyond ``data/games/`` ({} unless switched)."""
    return {EXTRA_GAME.name: extra_game_text()} if REAL != REPO else {}


REAL = _real_root()
"""The real project's root: the repository, or its copy with the extra game (EXTRA_GAME_SWITCH)."""


def rebuilt_copy(project_root: Path, folder: Path) -> dict[str, str]:
    """The ``tree_digest`` of a clean build of a copy of the project at ``project_root`` (its
    sources only, ``copy_project``), built in ``folder``: to compare a build made with a switch
    of the engine off against the run's shared build."""
    from rulesite.project import Project
    from rulesite.publish.build import build

    build(Project(copy_project(project_root, folder / "p")), site_dir=folder / "site")
    return tree_digest(folder / "site")


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] != ["scoring-gallery"] or len(sys.argv) != 3:
        sys.exit("usage: python -m tests.projects scoring-gallery DIR")
    print(make_gallery_project(Path(sys.argv[2])))
