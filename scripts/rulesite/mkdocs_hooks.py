"""MkDocs hooks: small fixes to Material's output for a bilingual, offline-friendly site.

Loaded by ``mkdocs.yml`` (``hooks:``). Kept free of page generation: the spikes showed that
adding virtual pages from hooks breaks mkdocs-static-i18n, so all pages are written beforehand.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from urllib.parse import urlparse

from mkdocs.plugins import event_priority

_ALTERNATE_LINK = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_SWITCH_LINK = re.compile(r'(<a href=")([^"]*)(" hreflang="([^"]*)" class="md-select__link">)')
_CONFIG_SCRIPT = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S
)


def on_post_page(output: str, page, config) -> str:
    """Drop head alternates and give each language its own search base."""
    # Material fetches sitemap.xml relative to every <link rel=alternate> (404s in the console on
    # per-page alternates) and then hijacks language-switch clicks, losing the #anchor. The
    # language menu in the header still links each page to its translation.
    output = _ALTERNATE_LINK.sub("", output)
    output = _SWITCH_LINK.sub(lambda m: _relative_switch_link(m, page.url), output)
    language = config.theme["language"]
    if language != _default_language(config):
        output = _CONFIG_SCRIPT.sub(lambda m: _rebase(m, language), output, count=1)
    return output


def on_post_template(output: str, template_name: str, config) -> str:
    """The 404 page is served at any address, so its language links must be absolute."""
    if template_name != "404.html":
        return output
    output = _ALTERNATE_LINK.sub("", output)
    root = urlparse(config.site_url or "/").path.rstrip("/") + "/"
    default = _default_language(config)

    def home(match: re.Match[str]) -> str:
        language = match.group(4)
        target = root if language == default else f"{root}{language}/"
        return match.group(1) + target + match.group(3)

    return _SWITCH_LINK.sub(home, output)


def _relative_switch_link(match: re.Match[str], page_url: str) -> str:
    # mkdocs-static-i18n links the home pages as "/" and "/en/", which breaks when the site is
    # published under a sub-path; make those links relative like every other one.
    href = match.group(2)
    if href.startswith("/") and not href.startswith("//"):
        start = "/" + page_url.rstrip("/") if page_url else "/"
        relative = posixpath.relpath(href, start)
        href = "./" if relative == "." else relative.rstrip("/") + "/"
    return match.group(1) + href + match.group(3)


def _default_language(config) -> str:
    i18n = config.plugins.get("i18n")
    return i18n.default_language if i18n is not None else config.theme["language"]


def _rebase(match: re.Match[str], language: str) -> str:
    # Material loads search/search_index.json from config.base. Pointing a translation's base at
    # its own folder makes it load that language's index (written by on_post_build below).
    settings = json.loads(match.group(2))
    # The trailing slash matters: Material resolves "search/..." against this URL.
    settings["base"] = f"{settings['base'].rstrip('/')}/{language}/"
    return match.group(1) + json.dumps(settings, ensure_ascii=False) + match.group(3)


@event_priority(-200)
def on_post_build(config) -> None:
    """Split mkdocs-static-i18n's combined search index into one index per language."""
    i18n = config.plugins.get("i18n")
    if i18n is None or getattr(i18n, "building", False):
        return  # an inner per-language build; the outer one finishes the index
    # By now the outer build is back at the site root, where the combined index was written.
    index_file = Path(config.site_dir) / "search" / "search_index.json"
    if index_file.exists():
        others = [lang for lang in i18n.build_languages if lang != i18n.default_language]
        split_search_index(index_file, others)


def split_search_index(index_file: Path, others: list[str]) -> None:
    """Keep the default language's entries at the root; write ``<lang>/search/`` for the others."""
    index = json.loads(index_file.read_text(encoding="utf-8"))
    docs = index["docs"]
    prefixes = {lang: f"{lang}/" for lang in others}
    root_docs = [d for d in docs if not any(d["location"].startswith(p) for p in prefixes.values())]
    _write_index(index_file, index, root_docs)
    for lang, prefix in prefixes.items():
        lang_docs = [
            {**d, "location": d["location"][len(prefix) :]}
            for d in docs
            if d["location"].startswith(prefix)
        ]
        target = index_file.parent.parent / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_index(target, index, lang_docs)


def _write_index(path: Path, index: dict, docs: list[dict]) -> None:
    path.write_text(
        json.dumps({**index, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8",
    )
