"""``python -m analysis report --warehouse W --out D``: build the report, print its index path."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from analysis.figures import FIGURES, by_name
from analysis.report import build_report
from realcli.util.errors import RealcliError

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
        choices=[f.NAME for f in FIGURES],
        help="only this figure (repeatable); default: all",
    )
    commands.add_parser("figures", help="list the registered figures")
    args = parser.parse_args(argv)

    if args.command == "figures":
        for figure in FIGURES:
            print(f"{figure.NAME}\t{figure.TITLE}")
        return 0
    figures = [by_name(n) for n in args.figure] if args.figure else list(FIGURES)
    try:
        index = build_report(args.warehouse, args.out, figures=figures)
    except RealcliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(index)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
