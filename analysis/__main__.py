"""``python -m analysis report --warehouse W --out D [--spec FILE]``: build the report, print
its index path. ``--spec``: a ReportSpec JSON file (what ``realcli report`` writes from the
``report`` config group); without it, the defaults."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from analysis.figures import Figure, all_figures, by_name
from analysis.report import build_report
from realcli.schema.report import ReportSpec
from realcli.util.bounded import MIB, BadFile, read_json_file
from realcli.util.errors import RealcliError
from realcli.util.validation import describe_validation_error

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="write index.html, PNG, SVG and CSV per figure")
    report.add_argument("--warehouse", type=Path, required=True, help="warehouse.duckdb path")
    report.add_argument("--out", type=Path, required=True, help="output folder")
    report.add_argument(
        "--figure",
        action="append",
        choices=[f.NAME for f in all_figures()],
        help="only this figure (repeatable); default: all",
    )
    report.add_argument(
        "--spec",
        type=Path,
        default=None,
        help="ReportSpec JSON (filters, figures, bootstrap...); default: every run, all figures",
    )
    commands.add_parser("figures", help="list the registered figures")
    args = parser.parse_args(argv)

    if args.command == "figures":
        for figure in all_figures():
            print(f"{figure.NAME}\t{figure.TITLE}")
        return 0
    try:
        spec = _read_spec(args.spec) if args.spec else ReportSpec()
        if args.figure:
            spec = spec.model_copy(update={"figures": tuple(args.figure)})
        names = list(spec.figures)
        figures = [_figure(n, args.spec) for n in names] if names else list(all_figures())
        index = build_report(args.warehouse, args.out, figures=figures, spec=spec)
    except RealcliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(index)
    return 0


def _read_spec(path: Path) -> ReportSpec:
    try:
        doc = read_json_file(path, MIB)
    except FileNotFoundError:
        raise RealcliError(str(path), None, "missing", "pass an existing --spec FILE") from None
    except BadFile as exc:
        raise RealcliError(str(path), None, str(exc), "write it with `realcli report`") from None
    try:
        return ReportSpec.model_validate(doc)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, ReportSpec, "report.")
        raise RealcliError(str(path), field, problem, fix) from None


def _figure(name: str, spec_path: Path | None) -> Figure:
    try:
        return by_name(name)
    except KeyError:
        known = ", ".join(f.NAME for f in all_figures())
        where = str(spec_path) if spec_path else "command line"
        raise RealcliError(
            where, "report.figures", f"no figure {name!r}", f"use one of: {known}"
        ) from None


if __name__ == "__main__":
    raise SystemExit(main())
