"""Where things live in a rulesite project (the folder holding ``mkdocs.yml``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Project:
    """Paths of one project; every command works on the project it is given, not on its own."""

    root: Path

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def games_dir(self) -> Path:
        return self.data_dir / "games"

    @property
    def site_file(self) -> Path:
        return self.data_dir / "site.yaml"

    @property
    def schema_dir(self) -> Path:
        return self.data_dir / "schema"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def static_dir(self) -> Path:
        """Files a publisher adds to every site (``CNAME``, ``robots.txt``), copied as they are."""
        return self.root / "static"

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def site_dir(self) -> Path:
        return self.root / "site"

    @property
    def mkdocs_file(self) -> Path:
        return self.root / "mkdocs.yml"

    def display(self, path: Path) -> str:
        """``path`` relative to the project root when inside it (for messages)."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return str(path)


def links_out(root: Path, folder: Path) -> list[Path]:
    """Paths in ``folder`` (the folder itself included) that lead out of ``root`` through a link.

    Links are followed only to find where they lead: a linked folder inside ``root`` is searched
    too (once), so a chain of links cannot hide a way out. What a build copies from the project
    into a published site is checked with this, so no file from elsewhere is ever published.
    """
    real_root = root.resolve()
    if not folder.exists() and not folder.is_symlink():
        return []
    if not folder.resolve().is_relative_to(real_root):
        return [folder]
    found: list[Path] = []
    seen: set[Path] = set()
    pending = [folder]
    while pending:
        current = pending.pop()
        if current.resolve() in seen:
            continue
        seen.add(current.resolve())
        for parent, folders, names in os.walk(current, followlinks=False):
            for name in [*folders, *names]:
                path = Path(parent) / name
                if not path.is_symlink():
                    continue
                if not path.resolve().is_relative_to(real_root):
                    found.append(path)
                elif path.is_dir():
                    pending.append(path)
    return sorted(found)
