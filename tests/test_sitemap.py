"""A sitemap index when one sitemap would list more URLs than the protocol allows."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from pathlib import Path

from rulesite.engine import sitemap

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def sitemap_of(count: int) -> str:
    entries = "".join(
        f"\n  <url>\n    <loc>https://example.org/p{n}/</loc>"
        "\n    <lastmod>2026-01-01</lastmod>\n  </url>"
        for n in range(count)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}\n</urlset>\n'
    )


def locs(text: str, tag: str) -> list[str]:
    root = ET.fromstring(text.encode("utf-8"))
    return [el.text or "" for el in root.findall(f"s:{tag}/s:loc", NS)]


def test_a_sitemap_within_the_limit_is_left_as_it_is() -> None:
    assert sitemap.split_sitemap(sitemap_of(5), "https://example.org/", limit=5) is None
    assert sitemap.split_sitemap(sitemap_of(0), "https://example.org/", limit=5) is None
    assert sitemap.LIMIT == 50_000


def test_one_url_over_the_limit_makes_an_index_of_parts_in_order() -> None:
    original = sitemap_of(11)
    files = sitemap.split_sitemap(original, "https://example.org/en/", limit=5)
    assert files is not None
    assert list(files) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    assert locs(files["sitemap.xml"], "sitemap") == [
        f"https://example.org/en/sitemap-{n}.xml" for n in (1, 2, 3)
    ]
    parts = [locs(files[f"sitemap-{n}.xml"], "url") for n in (1, 2, 3)]
    assert [len(p) for p in parts] == [5, 5, 1]
    # Every page once, in the original order, with its other fields kept.
    assert [loc for part in parts for loc in part] == locs(original, "url")
    assert "<lastmod>2026-01-01</lastmod>" in files["sitemap-3.xml"]
    assert files["sitemap.xml"].startswith('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex')


def test_the_files_are_written_with_the_gzip_copy_of_the_index(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(sitemap_of(3), encoding="utf-8")
    (tmp_path / "sitemap.xml.gz").write_bytes(b"old")
    assert sitemap.write_split(tmp_path, "https://example.org", 0, limit=2) == 3
    index = (tmp_path / "sitemap.xml").read_text(encoding="utf-8")
    assert locs(index, "sitemap") == [f"https://example.org/sitemap-{n}.xml" for n in (1, 2)]
    assert gzip.decompress((tmp_path / "sitemap.xml.gz").read_bytes()).decode() == index
    # Under the limit, or without a site address: not a byte changes.
    (tmp_path / "sitemap.xml").write_text(sitemap_of(3), encoding="utf-8")
    before = (tmp_path / "sitemap.xml").read_bytes()
    assert sitemap.write_split(tmp_path, "https://example.org", 0, limit=3) == 0
    assert sitemap.write_split(tmp_path, "", 0, limit=1) == 0
    assert (tmp_path / "sitemap.xml").read_bytes() == before
