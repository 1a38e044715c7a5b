"""Where things live in a rulesite project (the folder holding ``mkdocs.yml``)."""

from __future__ import annotations

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
