"""Stage 3b: render validated records into Markdown pages, the kinds the page registry lists.

Which pages there are, their paths and templates and what each template is given come from
``pages/`` (``pages/registry.py``); this module only runs Jinja over them. Templates live in
``templates/pages`` (one per page kind, shared by every language); wording and
the languages come from ``data/site.yaml``. Jinja runs with ``StrictUndefined`` so a missing
field or label fails the build, naming the template, instead of printing an empty string.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import BuiltinMethodType, MethodType
from typing import Any

import jinja2
from markupsafe import Markup, escape

from rulesite import collate, markup
from rulesite.catalog import Catalog
from rulesite.check.labels import LABEL_PLACEHOLDERS, SINGULAR
from rulesite.check.provenance import Freshness
from rulesite.errors import BuildError
from rulesite.model import Game, IntRange, Language, SiteData, Text
from rulesite.pages import registry
from rulesite.pages.indexes import topic_pages
from rulesite.project import Project
from rulesite.render.qr import qr_svg
from rulesite.render.score_pad import pad_rows
from rulesite.scoring.payload import page_payload, payload_json, plain


@dataclass(frozen=True)
class Labels:
    """Interface wording of one language, looked up by key and filled with keyword values."""

    site: SiteData
    lang: str

    def raw(self, key: str) -> str:
        """The label with its ``{placeholders}`` left in (for the browser to fill as text)."""
        text = self.site.labels.get(key)
        if text is None or key not in LABEL_PLACEHOLDERS:
            raise jinja2.UndefinedError(f"no label {key!r} in data/site.yaml labels")
        return text.get(self.lang)

    def __call__(self, key: str, **values: Any) -> Markup:
        """The label as a safe inline fragment; ``values`` fill its placeholders. A count of
        one takes the label's singular twin, ``<key>_singular``, where it has one ("1 ruling")."""
        if values.get("count") == 1 and f"{key}{SINGULAR}" in LABEL_PLACEHOLDERS:
            key = f"{key}{SINGULAR}"
        text = self.raw(key)
        expected = LABEL_PLACEHOLDERS[key]
        if set(values) != expected:
            # A template and scripts/rulesite/check/labels.py disagree: a bug in the templates.
            wanted = ", ".join(sorted(expected)) or "none"
            raise jinja2.UndefinedError(f"label {key!r} takes the values: {wanted}")
        return markup.fill(text, values)


_PLAIN_METHODS = frozenset({Text.get, Labels.raw})
"""Methods the templates call that take no context (``_PagesContext``)."""


def join_sentences(sentences: list[Markup], language: Language) -> Markup:
    """Sentences as one paragraph: Chinese runs them together, English puts a space between
    (the language's ``sentence_space``)."""
    return Markup(" " if language.sentence_space else "").join(s for s in sentences if s)


@jinja2.pass_context
def _sentences_filter(context: Any, sentences: list[Markup], lang: str) -> Markup:
    """``[...] | sentences(lang)``: joined as the language with code ``lang`` joins them."""
    return join_sentences(sentences, context["site"].language(lang))


def format_range(value: IntRange) -> Markup:
    """``1–5``, or ``4`` when min equals max, kept on one line (never "1–" / "5")."""
    text = str(value.min) if value.min == value.max else f"{value.min}–{value.max}"
    return Markup(f'<span class="rs-nowrap">{text}</span>')


class _PagesContext(jinja2.runtime.Context):
    """Jinja's context for the page templates, making their most frequent calls at once.

    Jinja sends every call a template makes through ``Context.call``, which first looks for a
    context, an evaluation context or an environment the callable wants passed (``pass_context``
    and its kin). The pages call labels (``t(...)``, ``t.raw(...)``) and texts (``.get(lang)``)
    hundreds of thousands of times, none of which takes one: those go straight (with Jinja's
    own arguments for such callables dropped), as do methods of built-in types, which cannot be
    marked; every other callable goes through Jinja's checks. Those checks were about a tenth of
    rendering the 100-game catalogue (``cProfile``); without them its cold render took 0.91–1.0
    s in Chinese against 0.97–1.04 s, 0.81 s in English against 0.85–0.88 s."""

    # Jinja's own parameter names: a template may pass any keyword, `self` and `obj` too.
    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        kind = type(__obj)
        if (
            kind is Labels
            or kind is BuiltinMethodType
            or (kind is MethodType and __obj.__func__ in _PLAIN_METHODS)
        ):
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


def make_environment(project: Project) -> jinja2.Environment:
    """The Jinja environment for page templates."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(project.templates_dir / "pages"),
        undefined=jinja2.StrictUndefined,
        # The output is Markdown, so HTML autoescaping does not fit. Instead every printed value
        # that is not a safe fragment (Markup, from the filters below) is written as inert text:
        # escaped for HTML and for Markdown alike.
        autoescape=False,
        finalize=markup.inert_text,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Markdown heading ids are written `{#id}`, which is Jinja's comment syntax; templates
        # use `{##  ##}` for comments instead.
        comment_start_string="{##",
        comment_end_string="##}",
        # An environment never outlives its templates (a build's process makes its own; the
        # preview keys its environment on the templates' digest, render/cache.py), so Jinja
        # need not stat a template file at every include (40,000 stats for 300 games).
        auto_reload=False,
    )
    env.filters.update(
        md=markup.block,
        inline=markup.inline,
        text=markup.inert_text,
        attr=markup.attribute,
        # An address for an href: every character HTML or Markdown could act on escaped.
        href=lambda v: Markup(markup.attribute_value(str(v))),
        front=markup.front_matter,
        link=markup.link,
        span=format_range,
        # For JSON in an attribute (the calculator's model): HTML-escaped, nothing else.
        html=lambda v: escape(v),
        extract=lambda key, mapping: mapping[key],
        sentences=_sentences_filter,
        index_by=lambda items, attr: {getattr(item, attr): item for item in items},
        # Lists of names in the order readers look them up (Chinese by pinyin): collate.py.
        by_reading=collate.by_reading,
    )
    env.tests["containing"] = lambda items, value: value in items
    env.context_class = _PagesContext
    return env


class Renderer:
    """Renders every page of a catalog; ``pages()`` maps content-relative paths to Markdown.

    A game's pages see the game, ``data/site.yaml`` and the templates, never the other games
    (only the site-wide pages list them): so a game's pages change only when one of those
    does, and a cache can keep them (``render/cache.py``).
    """

    def __init__(
        self,
        project: Project,
        catalog: Catalog,
        env: jinja2.Environment | None = None,
        site_url: str = "",
    ) -> None:
        self.env = env or make_environment(project)
        self.catalog = catalog
        # The published site's address (mkdocs.yml's site_url): a printed score pad's QR code
        # needs an absolute one; without it the pad has no code (a relative path is useless on
        # paper).
        self.site_url = site_url.rstrip("/") + "/" if site_url else ""
        site = catalog.site
        # The same for every page: look them up once, not per page.
        self.shared = {
            "site": site,
            "mechanics": {m.id: m for m in site.mechanics},
            "topics": {topic.id: topic for topic in site.topics},
            # A game's tabs: each kind's file in the game's folder, and every tab's kind.
            "page_files": {
                kind.name: kind.in_game_folder(source=True) for kind in registry.tab_kinds()
            },
            "page_kinds": tuple(kind.name for kind in registry.tab_kinds()),
            # Width and height of each picture, read from its file (check/images.py).
            "image_sizes": catalog.images,
            # Verification dates are aged on the catalog's day (provenance.measuring_day).
            "freshness": Freshness(catalog.as_of, site.stale_after_days),
        }

    def pages(self) -> dict[str, str]:
        result: dict[str, str] = {}
        for lang in self.catalog.site.codes:
            result.update((f"{lang}/{path}", text) for path, text in self.language_pages(lang))
        return result

    def language_pages(
        self, lang: str, games_done: Callable[[int, int], None] | None = None
    ) -> Iterator[tuple[str, str]]:
        """Every page of ``lang``, one at a time, keyed by path under the language's docs
        (nothing holds them all: a build writes each as it comes). ``games_done`` hears how
        many games' pages are done, of how many."""
        yield from self.pages_of_all_games(lang)
        total = len(self.catalog.games)
        for done, game in enumerate(self.catalog.games, 1):
            yield from self.pages_of_game(game, lang)
            if games_done is not None:
                games_done(done, total)

    def pages_of_all_games(self, lang: str) -> Iterator[tuple[str, str]]:
        """The pages of ``lang`` about every game (home, indexes, topics), as
        ``language_pages`` gives them."""
        prefix = f"{lang}/"
        for pages in (self.site_pages(lang), self.topic_pages(lang)):
            yield from ((path.removeprefix(prefix), text) for path, text in pages.items())

    def pages_of_game(self, game: Game, lang: str) -> Iterator[tuple[str, str]]:
        """One game's pages in ``lang``, as ``language_pages`` gives them."""
        prefix = f"{lang}/"
        for path, text in self.game_pages(game, lang).items():
            yield path.removeprefix(prefix), text

    def page_paths(self, lang: str) -> list[str]:
        """Where each page of ``lang`` goes, under the language's docs, in the order
        ``language_pages`` gives them, without rendering one."""
        games = (path for game in self.catalog.games for _, path in _game_sources(game))
        return [
            *(path for _, path in _site_sources()),
            *(path for _, _, path in self._topic_sources()),
            *games,
        ]

    def site_pages(self, lang: str) -> dict[str, str]:
        """The pages about every game the registry lists (home, the indexes), in ``lang``."""
        return {f"{lang}/{path}": self.site_page(kind, lang) for kind, path in _site_sources()}

    def site_page(self, kind: registry.PageKind, lang: str) -> str:
        """One page about every game."""
        assert kind.template is not None and kind.context is not None, kind.name
        # nav_title: the label its title shows, the one its navigation entry shows too.
        return self._render(
            kind.template, lang, **kind.context(self.catalog, lang), nav_title=kind.nav_title
        )

    def topic_pages(self, lang: str) -> dict[str, str]:
        """One page per topic that tags some ruling, of each kind the registry lists."""
        return {
            f"{lang}/{path}": self.topic_page(kind, topic_id, lang)
            for kind, topic_id, path in self._topic_sources()
        }

    def _topic_sources(self) -> list[tuple[registry.PageKind, str, str]]:
        """Each topic page's kind, topic and path under the docs."""
        return [
            (kind, topic_id, kind.source_path(topic_id))
            for kind in registry.topic_kinds()
            for topic_id in topic_pages(self.catalog)
        ]

    def topic_page(self, kind: registry.PageKind, topic_id: str, lang: str) -> str:
        """One topic's page."""
        assert kind.template is not None and kind.context is not None, kind.name
        return self._render(kind.template, lang, **kind.context(self.catalog, topic_id, lang))

    def game_pages(self, game: Game, lang: str) -> dict[str, str]:
        """Every page of one game in one language."""
        return {
            f"{lang}/{path}": self.game_page(kind, game, lang) for kind, path in _game_sources(game)
        }

    def game_page(self, kind: registry.PageKind | str, game: Game, lang: str) -> str:
        """One page of one game (``kind``: the kind or its name)."""
        if isinstance(kind, str):
            kind = registry.kind(kind)
        assert kind.template is not None and kind.context is not None, kind.name
        return self._render(
            kind.template,
            lang,
            **kind.context(game, lang),
            page_kind=kind.name,
            page_kinds=tuple(tab.name for tab in registry.tabs_of(game)),
        )

    def calculator_address(self, game: Game, calc_id: str, language: Language) -> str:
        """The absolute address of a calculator on its score page, or ``""`` without a site
        address."""
        if not self.site_url:
            return ""
        page = registry.kind("score").url(game.slug)
        return f"{self.site_url}{registry.language_folder(language)}{page}#{calc_id}"

    def _render(self, template_name: str, lang: str, **context: Any) -> str:
        t = Labels(self.catalog.site, lang)
        site = self.catalog.site
        try:
            template = self.env.get_template(template_name)
            return template.render(
                {
                    **self.shared,
                    "lang": lang,
                    # The page's language, the root one and the one of BGG's names: templates
                    # decide by these, never by a language code.
                    "language": site.language(lang),
                    "root_language": site.root_language,
                    "names_language": site.language(site.names_language),
                    "t": t,
                    "calculator_json": lambda calc: payload_json(page_payload(calc, lang, t.raw)),
                    # Interface words a script shows (the game-night history): labels by prefix.
                    "labels_json": lambda prefix: _labels_json(site, lang, prefix),
                    "score_pad": lambda calc: pad_rows(calc, lang, t),
                    "calculator_address": lambda game, calc: self.calculator_address(
                        game, calc.id, site.language(lang)
                    ),
                    "qr_svg": qr_svg,
                    **context,
                }
            )
        except jinja2.TemplateError as exc:
            where = _template_location(exc, template_name)
            raise BuildError(f"templates/pages/{where}: {exc.message or exc}") from None


def _site_sources() -> list[tuple[registry.PageKind, str]]:
    """Each page about every game: its kind and path under the docs."""
    return [(kind, kind.source_path()) for kind in registry.rendered_kinds(registry.Scope.SITE)]


def _game_sources(game: Game) -> list[tuple[registry.PageKind, str]]:
    """Each page of ``game``: its kind and path under the docs."""
    return [(kind, kind.source_path(game.slug)) for kind in registry.game_kinds(game)]


def _template_location(exc: jinja2.TemplateError, fallback: str) -> str:
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.name:
        return f"{exc.name}:{exc.lineno}"
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename:
        return f"{exc.filename.rsplit('/', 1)[-1]}:{exc.lineno}"
    # Runtime errors carry no line on the exception; the traceback of the render frame has it.
    tb = exc.__traceback__
    line, name = None, fallback
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            name, line = filename.rsplit("/", 1)[-1], tb.tb_lineno
        tb = tb.tb_next
    return f"{name}:{line}" if line else name


def _labels_json(site: SiteData, lang: str, prefix: str) -> str:
    """Every label whose key starts with ``prefix``, in ``lang``, as JSON keyed without the
    prefix: the words a page's script sets as text (Markdown rendered, tags dropped)."""
    words = {
        key.removeprefix(prefix): _spaced(text.get(lang), plain(text, lang))
        for key, text in site.labels.items()
        if key.startswith(prefix)
    }
    return json.dumps(words, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _spaced(raw: str, text: str) -> str:
    """``text`` with the spaces ``raw`` starts and ends with: a separator label (", ") keeps
    its space."""
    return raw[: len(raw) - len(raw.lstrip())] + text + raw[len(raw.rstrip()) :]


def render_pages(project: Project, catalog: Catalog, site_url: str = "") -> dict[str, str]:
    """Every generated Markdown page of the site, keyed by path under ``content/``
    (``site_url``: the published site's address, for what needs an absolute one)."""
    env = _environment(project, folder_digest(project.templates_dir / "pages"))
    return Renderer(project, catalog, env, site_url).pages()


@functools.lru_cache(maxsize=8)
def _environment(project: Project, templates: str) -> jinja2.Environment:
    """``make_environment``'s for ``project``, kept in this process while its templates (their
    digest: ``templates``) stay the same, as the preview keys its own (``render/cache.py``):
    an environment holds no page's data, and compiling the templates cost more than rendering
    a small site in a process that renders again (the tests, the golden files)."""
    return make_environment(project)


def folder_digest(folder: Path) -> str:
    """SHA-256 over the relative path and bytes of every file under ``folder``.

    A file that vanishes while it is read is left out: whatever replaces it starts a new
    rebuild anyway.
    """
    digest = hashlib.sha256()
    for parent, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = Path(parent, name)
            try:
                data = path.read_bytes()
            except OSError:
                continue
            digest.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape"))
            digest.update(b"\0%d\0" % len(data))
            digest.update(data)
    return digest.hexdigest()
