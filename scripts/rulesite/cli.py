"""Command line: argument parsing and exit codes, nothing else.

Exit codes: 0 success, 1 invalid data, 2 bad usage or input, 3 build failure, 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rulesite.errors import RulesiteError, UsageError
from rulesite.project import Project


def main(argv: list[str] | None = None) -> int:
    # Material prints a banner about its successor on import; it is noise for our users.
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    args = _parser().parse_args(argv)
    project = Project(Path(args.project).resolve())
    try:
        if not project.mkdocs_file.exists():
            raise UsageError(f"{project.root}: no mkdocs.yml here; use --project DIR")
        return args.run(project, args)
    except RulesiteError as error:
        for line in error.lines():
            print(line, file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("interrupted; site/ and content/ were left as they were", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesite", description="Build the bilingual board-game rules site from data/."
    )
    parser.add_argument("--project", default=".", help="project folder (default: current)")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    validate = commands.add_parser("validate", help="check every data file; write nothing")
    validate.set_defaults(run=_validate)

    build = commands.add_parser("build", help="validate, render content/, build site/ (strict)")
    build.add_argument("--site-dir", help="write the site here instead of site/")
    build.set_defaults(run=_build)

    serve = commands.add_parser("serve", help="preview with live reload on data/templates edits")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on")
    serve.set_defaults(run=_serve)

    score = commands.add_parser("score", help="score a game: JSON players in, JSON totals out")
    score.add_argument("calculator", help="calculator id, e.g. clans-of-caledonia")
    score.add_argument("input", help='JSON file with {"players": [...]}, or - for stdin')
    score.set_defaults(run=_score)

    schema = commands.add_parser("schema", help="regenerate data/schema/*.schema.json")
    schema.set_defaults(run=_schema)
    return parser


def _validate(project: Project, args: argparse.Namespace) -> int:
    from rulesite.validate import load_catalog

    catalog = load_catalog(project)
    print(f"ok: {len(catalog.games)} games valid")
    return 0


def _build(project: Project, args: argparse.Namespace) -> int:
    from rulesite.build import build

    site_dir = Path(args.site_dir).resolve() if args.site_dir else None
    report = build(project, site_dir=site_dir)
    print(
        f"built {project.display(report.site_dir)}: {report.games} games, "
        f"{report.pages} pages, {report.seconds:.1f} s"
    )
    return 0


def _serve(project: Project, args: argparse.Namespace) -> int:
    from rulesite.serve import serve

    serve(project, args.dev_addr)
    return 0


def _score(project: Project, args: argparse.Namespace) -> int:
    import json

    from rulesite.scoring.cli import score_command

    text = sys.stdin.read() if args.input == "-" else _read_input(Path(args.input))
    result = score_command(project, args.calculator, text)
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _read_input(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read: {exc}") from None


def _schema(project: Project, args: argparse.Namespace) -> int:
    from rulesite.schema import write_schemas

    for path in write_schemas(project):
        print(f"wrote {project.display(path)}")
    return 0
