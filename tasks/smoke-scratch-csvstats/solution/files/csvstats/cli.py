"""Command-line interface: ``python -m csvstats FILE [options]``."""

from __future__ import annotations

import argparse
import sys

from csvstats.reader import parse_csv, read_csv
from csvstats.report import FORMATS, format_report
from csvstats.stats import describe, group_by


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="csvstats", description="Summary statistics of the numeric columns of a CSV file."
    )
    parser.add_argument("file", help="CSV file to read, or - for standard input")
    parser.add_argument("-d", "--delimiter", default=",", help="field delimiter (default ,)")
    parser.add_argument("-c", "--columns", help="comma-separated columns to summarize")
    parser.add_argument("-g", "--group-by", metavar="KEY", help="summarize per value of KEY")
    parser.add_argument("-f", "--format", choices=FORMATS, default="table")
    parser.add_argument("-p", "--precision", type=int, default=2, help="decimals (default 2)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    columns = [c.strip() for c in args.columns.split(",")] if args.columns else None
    if args.group_by and (columns is None or len(columns) != 1):
        parser.error("--group-by needs exactly one column in --columns")
    if len(args.delimiter) != 1:
        parser.error("--delimiter must be a single character")
    if args.precision < 0:
        parser.error("--precision must not be negative")
    try:
        if args.file == "-":
            table = parse_csv(sys.stdin.read(), delimiter=args.delimiter)
        else:
            table = read_csv(args.file, delimiter=args.delimiter)
        if args.group_by:
            assert columns is not None
            stats = group_by(table, args.group_by, columns[0])
        else:
            stats = describe(table, columns)
        output = format_report(stats, fmt=args.format, precision=args.precision)
    except KeyError as exc:
        print(f"error: unknown column {exc.args[0]!r}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(output)
    return 0
