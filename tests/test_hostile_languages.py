"""A hostile or careless ``languages:`` list in data/site.yaml: every language's site stays in its
own folder and no language takes over a folder of another."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesite.catalog import load_catalog, load_site
from rulesite.check.site import RESERVED_URL_FOLDERS, check_languages
from rulesite.errors import DataError
from rulesite.load.reader import load_yaml_bytes
from rulesite.model import Language, SiteData
from rulesite.project import Project
from tests.helpers import REPO
from tests.projects import make_project

SITE = (REPO / "data" / "site.yaml").read_text(encoding="utf-8")
ENGLISH = """  - code: en
    name: English
    html_lang: en
    prefix: en
"""


def _site_problems(tmp_path: Path, site_text: str) -> list[str]:
    root = make_project(tmp_path / "p")
    (root / "data" / "site.yaml").write_text(site_text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_site(Project(root))
    return [line.split(": ", 1)[1] for line in caught.value.lines()]


@pytest.mark.parametrize("folder", sorted(RESERVED_URL_FOLDERS))
def test_a_language_may_not_be_published_in_a_folder_of_the_site(
    tmp_path: Path, folder: str
) -> None:
    # Published under games/, the English home page would replace the Chinese list of games, and
    # the root's offline worker would leave games/ to the English worker.
    assert ENGLISH in SITE
    site_text = SITE.replace(ENGLISH, ENGLISH.replace("prefix: en", f"prefix: {folder}"))
    assert _site_problems(tmp_path, site_text) == [
        f"languages[1].prefix: URL folder {folder!r} is a folder of the site itself (reserved: "
        f"{', '.join(sorted(RESERVED_URL_FOLDERS))}); use the language's code, e.g. 'en'"
    ]


def test_language_codes_that_differ_only_in_case_are_one_language() -> None:
    # BCP 47 tags ignore case, and content/<code>/ is one folder on a case-insensitive disk.
    # (With such a list every text also misses a language, so the check is called directly.)
    doc = load_yaml_bytes(SITE.encode(), "data/site.yaml")
    site = SiteData.model_construct(
        languages=[
            Language.model_validate({**language, "code": code, "prefix": prefix})
            for language, code, prefix in zip(
                doc.data["languages"], ("zh-Hant", "zh-hant"), ("", "hant"), strict=True
            )
        ],
        names_language="zh-Hant",
    )
    assert [problem.message for problem in check_languages(site, doc)] == [
        "duplicate language code 'zh-hant'"
    ]


def test_every_folder_of_the_root_site_is_reserved(site_dir: Path, real_project: Project) -> None:
    # A new top-level folder (a new index page, a new export) must be added to the reserved list,
    # or a language could be published into it.
    site = load_catalog(real_project).site
    prefixes = {language.prefix for language in site.languages}
    folders = {entry.name for entry in site_dir.iterdir() if entry.is_dir()}
    assert folders - prefixes <= RESERVED_URL_FOLDERS, sorted(folders - prefixes)


ROOT_LANGUAGE = load_yaml_bytes(SITE.encode(), "data/site.yaml").data["languages"][0]


@pytest.mark.parametrize(
    "prefix", ["../x", "/", ".", "..", "en/../..", "en/x", "/en", "EN", "%2e%2e", "en\\x", "e n"]
)
def test_a_prefix_is_one_plain_url_folder(prefix: str) -> None:
    with pytest.raises(ValueError, match="is not a URL folder"):
        Language.model_validate({**ROOT_LANGUAGE, "prefix": prefix})


@pytest.mark.parametrize("code", ['en"><script>', "en lang", "../en", "en/x", "<b>", "e", ""])
@pytest.mark.parametrize("key", ["code", "html_lang"])
def test_a_language_code_is_a_plain_tag(key: str, code: str) -> None:
    # It reaches <html lang>, hreflang, xml:lang and the folder content/<code>/.
    with pytest.raises(ValueError, match="is not a language tag"):
        Language.model_validate({**ROOT_LANGUAGE, key: code})
