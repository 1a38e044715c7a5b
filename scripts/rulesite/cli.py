"""Command line: argument parsing and exit codes, nothing else.

Exit codes: 0 success, 1 invalid data, 2 bad usage or input, 3 build failure, 4 internal error
(a bug: one line on stderr, the traceback with ``--debug``), 130 interrupted, 141 the output
pipe was closed early (``rulesite score ... | head -1``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn

from rulesite.errors import DataError, RulesiteError, UsageError
from rulesite.project import Project
from rulesite.terminal import printable

INTERNAL_ERROR = 4
BROKEN_PIPE = 141
"""What a shell reports for a command stopped by SIGPIPE (128 + 13)."""


def program() -> NoReturn:
    """The ``rulesite`` program (``pyproject.toml``'s script, ``python -m rulesite``): ``main``,
    then the process ends without tearing its objects down (``forked.exit_at_once``)."""
    from rulesite.forked import exit_at_once

    exit_at_once(main())


def main(argv: list[str] | None = None) -> int:
    # (Material's banner about its successor shows only when the program is `mkdocs`: never here.)
    args = _parser().parse_args(argv)
    project = Project(Path(args.project).resolve())
    try:
        if not project.mkdocs_file.exists():
            raise UsageError(
                f"{printable(str(project.root))}: no mkdocs.yml here; use --project DIR"
            )
        code = args.run(project, args)
        sys.stdout.flush()  # a closed pipe shows up here, while it can still be handled
        return code
    except RulesiteError as error:
        for line in error.lines():
            print(line, file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("interrupted; site/ and content/ were left as they were", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): nothing to tell it. Point stdout at /dev/null so that
        # Python's final flush does not fail again on the way out.
        _silence_stdout()
        return BROKEN_PIPE
    except Exception as error:
        if args.debug:
            raise
        print(
            f"rulesite: internal error: {type(error).__name__}: {printable(str(error))} "
            "(run again with --debug for the traceback)",
            file=sys.stderr,
        )
        return INTERNAL_ERROR


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a file (tests, embedding)
        pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesite", description="Build the bilingual board-game rules site from data/."
    )
    parser.add_argument("--project", default=".", help="project folder (default: current)")
    debug_help = "show the traceback of an internal error"
    parser.add_argument("--debug", action="store_true", help=debug_help)
    # Accepted after the command too (`rulesite build --debug`); SUPPRESS keeps a subcommand
    # from resetting a --debug given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=debug_help)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    validate = commands.add_parser(
        "validate", parents=[common], help="check every data file; write nothing"
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings as errors: list them and exit 1 (the tests of the shipped data)",
    )
    validate.set_defaults(run=_validate)

    build = commands.add_parser(
        "build", parents=[common], help="validate, render content/, build site/ (strict)"
    )
    build.add_argument("--site-dir", help="write the site here instead of site/")
    build.add_argument(
        "--language",
        action="append",
        metavar="LANG",
        help="build only this language's site (a code of languages: in data/site.yaml, "
        "for `rulesite assemble`); repeatable",
    )
    build.add_argument(
        "--clean",
        action="store_true",
        help="ignore and empty the build cache (.cache/rulesite-build/): rebuild every page",
    )
    build.set_defaults(run=_build)

    assemble = commands.add_parser(
        "assemble",
        parents=[common],
        help="put separately built languages together into one site",
    )
    assemble.add_argument(
        "parts", nargs="+", metavar="LANG=DIR", help="a language and the folder it was built to"
    )
    assemble.add_argument("--site-dir", help="write the site here instead of site/")
    assemble.set_defaults(run=_assemble)

    serve = commands.add_parser(
        "serve", parents=[common], help="preview with live reload on data/templates edits"
    )
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on")
    serve.set_defaults(run=_serve)

    score = commands.add_parser(
        "score", parents=[common], help="score a game: JSON players in, JSON totals out"
    )
    score.add_argument("calculator", help="calculator id, e.g. clans-of-caledonia")
    score.add_argument("input", help='JSON file with {"players": [...]}, or - for stdin')
    score.set_defaults(run=_score)

    new = commands.add_parser(
        "new",
        parents=[common],
        help="write data/games/SLUG.yaml with every required field stubbed (never overwrites)",
    )
    new.add_argument("slug", metavar="SLUG", help="the new game's slug, e.g. terra-mystica")
    new.set_defaults(run=_new)

    schema = commands.add_parser(
        "schema", parents=[common], help="regenerate data/schema/*.schema.json"
    )
    schema.set_defaults(run=_schema)

    card = commands.add_parser(
        "card", parents=[common], help="keep games' parameter cards up to date from BoardGameGeek"
    )
    card_commands = card.add_subparsers(required=True, metavar="ACTION")
    refresh = card_commands.add_parser(
        "refresh",
        parents=[common],
        help="fill and update cards from BGG's XML API (token in RULESITE_BGG_TOKEN); shows "
        "each file's diff before writing",
    )
    refresh.add_argument("slugs", nargs="*", metavar="SLUG", help="the games to refresh")
    refresh.add_argument("--all", action="store_true", help="every game in data/games/")
    refresh.add_argument("--yes", action="store_true", help="write without asking")
    refresh.add_argument("--dry-run", action="store_true", help="show the diffs; write nothing")
    refresh.add_argument(
        "--ranks-csv",
        metavar="FILE",
        help="update only the ranks, from BGG's ranks dump (boardgames_ranks.csv); no token",
    )
    refresh.set_defaults(run=_card_refresh)
    return parser


def _validate(project: Project, args: argparse.Namespace) -> int:
    from rulesite.catalog import load_catalog

    catalog = load_catalog(project)
    if args.strict and catalog.warnings:
        # Reported as problems are: every one, located, and exit 1.
        raise DataError(list(catalog.warnings))
    # Warnings (a verification date too old, a ruling citing no source, a variant a glossary
    # term says to avoid) are on stderr like problems, but the data is valid: exit status 0.
    for warning in catalog.warnings:
        print(warning, file=sys.stderr)
    count = len(catalog.warnings)
    warned = f"; {count} warning{'' if count == 1 else 's'}" if count else ""
    print(f"ok: {len(catalog.games)} games valid{warned}")
    return 0


def _build(project: Project, args: argparse.Namespace) -> int:
    from rulesite.engine.projects import NO_SITE_URL, load_base_config
    from rulesite.publish.build import build
    from rulesite.publish.progress import Progress

    site_dir = Path(args.site_dir).resolve() if args.site_dir else None
    languages = tuple(dict.fromkeys(args.language)) if args.language else None
    # The stages and counts on standard error: a build of hundreds of games takes minutes.
    report = build(
        project, site_dir=site_dir, languages=languages, progress=Progress(), clean=args.clean
    )
    each = ", ".join(f"{lang} {seconds:.1f} s" for lang, seconds in report.language_seconds.items())
    print(
        f"built {project.display(report.site_dir)}: {report.games} games, "
        f"{report.pages} pages, {report.seconds:.1f} s ({each})"
    )
    if not load_base_config(project).get("site_url"):
        print(NO_SITE_URL, file=sys.stderr)
    return 0


def _assemble(project: Project, args: argparse.Namespace) -> int:
    from rulesite.publish.assemble import assemble

    parts: dict[str, Path] = {}
    for part in args.parts:
        lang, sep, folder = part.partition("=")
        if not sep or not lang or not folder:
            raise UsageError(
                f"{printable(part)}: write LANG=DIR with LANG a code of languages: in "
                "data/site.yaml"
            )
        parts[lang] = Path(folder).resolve()
    site_dir = Path(args.site_dir).resolve() if args.site_dir else None
    target = assemble(project, parts, site_dir)
    print(f"assembled {project.display(target)}: {', '.join(parts)}")
    return 0


def _serve(project: Project, args: argparse.Namespace) -> int:
    from rulesite.serve.preview import serve

    serve(project, args.dev_addr)
    return 0


def _score(project: Project, args: argparse.Namespace) -> int:
    from rulesite.commands.score import score_command
    from rulesite.scoring.command import read_input, result_json

    result = score_command(project, args.calculator, read_input(args.input))
    print(result_json(result, sys.stdout.encoding))
    return 0


def _new(project: Project, args: argparse.Namespace) -> int:
    from rulesite.commands.new import new_game

    path = new_game(project, args.slug)
    print(
        f"wrote {project.display(path)}: replace every TODO in it "
        "(`rulesite validate` lists those left)"
    )
    return 0


def _schema(project: Project, args: argparse.Namespace) -> int:
    from rulesite.commands.schema import write_schemas

    for path in write_schemas(project):
        print(f"wrote {project.display(path)}")
    return 0


def _card_refresh(project: Project, args: argparse.Namespace) -> int:
    from rulesite.commands.card import Options, refresh_cards

    ranks = Path(args.ranks_csv).resolve() if args.ranks_csv else None
    options = Options(args.slugs, args.all, args.yes, args.dry_run, ranks)
    return refresh_cards(project, options)
