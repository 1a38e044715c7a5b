"""A sitemap index when one sitemap would list too many pages.

The sitemaps protocol allows at most 50,000 URLs in one file. MkDocs (with the theme's
``sitemap.xml``) writes one file per language listing every page; when it lists more than
:data:`LIMIT`, ``sitemap.xml`` becomes a sitemap index naming ``sitemap-1.xml``,
``sitemap-2.xml``, … beside it, each holding at most :data:`LIMIT` of the entries, in order.
At or under the limit nothing is touched: the file stays byte for byte what MkDocs wrote.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from xml.sax.saxutils import escape

LIMIT = 50_000
"""Most URLs in one sitemap file (sitemaps.org)."""
SITEMAP = "sitemap.xml"
_ENTRY = re.compile(r"\s*<url>.*?</url>", re.S)
_URLSET = re.compile(r"<urlset\b[^>]*>")
_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"


def split_sitemap(text: str, base_url: str, limit: int = LIMIT) -> dict[str, str] | None:
    """The files that replace the sitemap ``text`` (name → text, ``sitemap.xml`` the index of
    the others, each named by its address under ``base_url``), or None when it lists at most
    ``limit`` URLs."""
    entries = _ENTRY.findall(text)
    opening = _URLSET.search(text)
    if len(entries) <= limit or opening is None:
        return None
    head = text[: opening.start()]
    parts = {
        f"sitemap-{number}.xml": head + opening.group(0) + "".join(chunk) + "\n</urlset>\n"
        for number, chunk in enumerate(_chunks(entries, limit), start=1)
    }
    listed = "".join(
        f"\n  <sitemap>\n    <loc>{escape(base_url + name)}</loc>\n  </sitemap>" for name in parts
    )
    index = f'{head}<sitemapindex xmlns="{_NAMESPACE}">{listed}\n</sitemapindex>\n'
    return {SITEMAP: index, **parts}


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def write_split(site_dir: Path, site_url: str, epoch: int | None, limit: int = LIMIT) -> int:
    """Split ``site_dir``'s sitemap when it lists more than ``limit`` URLs (rewriting its gzip
    copy, dated ``epoch`` as MkDocs dates it); the number of files written (0: left alone)."""
    path = site_dir / SITEMAP
    if not site_url or not path.is_file():
        return 0
    files = split_sitemap(path.read_text(encoding="utf-8"), site_url.rstrip("/") + "/", limit)
    if files is None:
        return 0
    for name, text in files.items():
        (site_dir / name).write_text(text, encoding="utf-8", newline="\n")
    gz = site_dir / (SITEMAP + ".gz")
    if gz.exists():
        with gz.open("wb") as raw, gzip.GzipFile(SITEMAP, "wb", fileobj=raw, mtime=epoch) as out:
            out.write(files[SITEMAP].encode("utf-8"))
    return len(files)
