"""Putting built languages together: into one site folder, or parts built apart into one site.

``assemble_languages`` is the last step of every build (the first language at the root, the
others under their prefix); ``assemble`` is ``rulesite assemble``: languages built one by one
(``build --language``) checked against their markers and put together as a whole build would.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

from rulesite.catalog import load_site
from rulesite.engine.projects import site_path
from rulesite.errors import BuildError, UsageError
from rulesite.model import SiteData, and_list
from rulesite.project import Project
from rulesite.publish import site_folder as publish
from rulesite.publish.marker import MarkerError, SiteMarker, plain_files, read_marker, write_marker
from rulesite.terminal import printable


def assemble(project: Project, parts: dict[str, Path], site_dir: Path | None = None) -> Path:
    """Put languages built separately (``build --language``) together, as a whole build would.

    Every language is needed; each folder must hold the site `build --language` wrote for that
    language, all of one build's data, and nothing else (``_check_parts``). ``content/`` is kept
    as it is. Returns the site folder.
    """
    site = load_site(project)
    check_language_codes(tuple(parts), site)
    missing = [lang for lang in site.codes if lang not in parts]
    if missing:
        raise UsageError(f"assemble needs every language; missing: {', '.join(missing)}")
    source = _check_parts(parts)
    target = (site_dir or project.site_dir).resolve()
    publish.check_site_location(project, target)
    with publish.lock(project.root):
        publish.recover(project, target)
        publish.check_replaceable(project, target)
        with writing(project, target), publish.staged(project.content_dir, target) as swap:
            # Only the site changes: the staged content/ is the current one.
            swap.new_content.rmdir()
            if project.content_dir.is_dir():
                shutil.copytree(project.content_dir, swap.new_content, symlinks=True)
            else:
                swap.new_content.mkdir()
            ordered = {lang: parts[lang] for lang in site.codes}
            assemble_languages(ordered, swap.new_site, site, whole=True, copy=True)
            write_marker(swap.new_site, site.codes, source)
            swap.publish()
    return target


def _check_parts(parts: dict[str, Path]) -> str:
    """Each part is what it is given as, and all come from one build's data; their source.

    A part proves itself by its marker (``publish/marker.py``): a regular file a build wrote,
    naming the part's one language and what it was built from, and listing exactly the files
    the folder holds. Links are never copied: a build writes none, and one could publish a
    file from outside the part.
    """
    seen: dict[Path, str] = {}
    markers: dict[str, SiteMarker] = {}
    for lang, folder in parts.items():
        shown = printable(str(folder))
        real = folder.resolve()
        other = next((o for p, o in seen.items() if p == real or real.is_relative_to(p)), None)
        other = other or next((o for p, o in seen.items() if p.is_relative_to(real)), None)
        if other is not None:
            raise UsageError(f"{shown}: given for both {other} and {lang}; each needs its own")
        seen[real] = lang
        wanted = f"`rulesite build --language {lang}`"
        try:
            marker = read_marker(folder)
        except MarkerError as error:
            raise UsageError(f"{shown}: not a site {wanted} wrote ({error})") from None
        if marker.languages != (lang,):
            held = ", ".join(marker.languages)
            what = f"the whole site ({held})" if len(marker.languages) > 1 else f"the {held} site"
            raise UsageError(f"{shown}: holds {what}, not the {lang} part that {wanted} writes")
        files = plain_files(folder, shown, "a build writes none, so the part is refused")
        unknown = sorted(set(files) - marker.files - {publish.MARKER})
        lost = sorted(marker.files - set(files))
        if unknown or lost:
            name, how = (unknown[0], "is not") if unknown else (lost[0], "is missing, yet")
            raise UsageError(
                f"{shown}/{printable(name)}: {how} one of the files its build wrote "
                f"({len(unknown)} unknown, {len(lost)} missing); build the part again"
            )
        markers[lang] = marker
    sources = {marker.source for marker in markers.values()}
    if len(sources) > 1:
        each = ", ".join(f"{lang} {m.source[:12]}" for lang, m in markers.items())
        raise UsageError(
            f"the parts were built from different data or settings ({each}); "
            "build every language from the same project"
        )
    return sources.pop()


@contextlib.contextmanager
def writing(project: Project, target: Path | None) -> Iterator[None]:
    # A full disk or a read-only folder is not a bug: one line, no traceback.
    try:
        yield
    except OSError as error:
        what = project.display(target) if target is not None else "content"
        raise BuildError(
            f"cannot publish {printable(what)}: {printable(str(error))}; it was left as it was"
        ) from None


def check_language_codes(codes: tuple[str, ...], site: SiteData) -> None:
    unknown = [code for code in codes if code not in site.codes]
    if unknown or not codes:
        given = repr(unknown[0]) if unknown else "none"
        raise UsageError(
            f"unknown language {given}; the site has: {and_list(site.codes)} "
            "(languages: in data/site.yaml)"
        )


def assemble_languages(
    sites: dict[str, Path], target: Path, site_data: SiteData, whole: bool, copy: bool = False
) -> None:
    """Put language sites into ``target``: the first language's at the root, the others under
    their prefix; with one language (``whole`` false), that language's site at the root.

    Moves the trees (they are staged beside ``target``), or copies them with ``copy``. The
    marker file of separately built sites is left out: the publish step writes the site's own.
    """
    for lang, site in sites.items():
        folder = site_path(site_data.language(lang)) if whole else ""
        destination = target / folder if folder else target
        destination.mkdir(parents=True, exist_ok=True)
        for entry in sorted(site.iterdir()):
            if entry.name == publish.MARKER:
                continue
            if copy:  # never following a link (parts with links are refused before)
                if entry.is_dir() and not entry.is_symlink():
                    shutil.copytree(entry, destination / entry.name, symlinks=True)
                else:
                    shutil.copy2(entry, destination / entry.name, follow_symlinks=False)
            else:
                entry.rename(destination / entry.name)
        if not copy:
            shutil.rmtree(site)
