"""The benchmark's languages: those ``data/site.yaml`` declares (``languages:``), read once."""

from __future__ import annotations

from pathlib import Path

from rulesite.catalog import load_site
from rulesite.model import Language, SiteData
from rulesite.project import Project

REPO = Path(__file__).resolve().parents[2]


def _site() -> SiteData:
    return load_site(Project(REPO))


SITE = _site()
LANGUAGES: tuple[str, ...] = SITE.codes
"""The site's language codes, the root language's first."""
BY_CODE: dict[str, Language] = {language.code: language for language in SITE.languages}


def site_folder(lang: str) -> str:
    """Where a language is published, relative to the site root (``""`` for the root one)."""
    return BY_CODE[lang].prefix
