"""The build date a language's site carries: the sitemap's ``<lastmod>``, its gzip copy's
timestamp and the templates' ``build_date_utc``, from the ``rulesite`` plugin's option.

MkDocs dates a build by ``SOURCE_DATE_EPOCH`` when the environment sets it, else by the clock.
The generated config gives the plugin ``source_date_epoch`` (the data's newest verification
date), and the plugin hands that date to MkDocs through its documented objects instead of the
environment: every page's ``update_date`` (the sitemap prints it, and MkDocs takes the gzip
copy's timestamp from the newest one) and the context's ``build_date_utc``. So the site's bytes
are the same whether or not the environment sets the variable, and nothing outside the build
changes. A value the environment does set still wins (the reproducible-builds convention).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from typing import Any

ENVIRONMENT = "SOURCE_DATE_EPOCH"
"""The reproducible-builds variable: when set, it dates the build, as MkDocs reads it."""


def build_epoch(option: int | None) -> int | None:
    """Seconds since 1970 that date the build: the environment's value, else ``option``
    (None: neither, and MkDocs dates the build by the clock as usual)."""
    value = os.environ.get(ENVIRONMENT)
    if value is not None:
        return int(value)  # as MkDocs parses it (a bad value fails there too)
    return option


def build_datetime(epoch: int) -> dt.datetime:
    """The build's moment, as MkDocs gives it to templates (``build_date_utc``)."""
    return dt.datetime.fromtimestamp(epoch, dt.UTC)


def date_pages(pages: Iterable[Any], epoch: int) -> None:
    """Give every page the build's day as ``update_date`` (MkDocs' format, ``YYYY-MM-DD``).

    Every page of the build, not only those a dirty build writes: the sitemap lists them all.
    """
    day = build_datetime(epoch).strftime("%Y-%m-%d")
    for page in pages:
        page.update_date = day


def dated_context(context: dict[str, Any], epoch: int) -> dict[str, Any]:
    """A template context with the build's moment as ``build_date_utc``."""
    context["build_date_utc"] = build_datetime(epoch)
    return context
