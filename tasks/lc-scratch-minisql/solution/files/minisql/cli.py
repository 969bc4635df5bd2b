"""Command-line interface: python -m minisql (docs/REQUIREMENTS.md, section 9.2)."""

from __future__ import annotations

import argparse
import sys

from minisql.csvtable import CSVTableError
from minisql.engine import Database
from minisql.errors import SQLError
from minisql.output import render
from minisql.parser import parse_script

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="minisql", description="Run SELECT queries over CSV files.")
    p.add_argument("sql", nargs="?", help="SQL text; read from --file or standard input when omitted")
    p.add_argument("-d", "--dir", default=".", help="directory of CSV files (default: .)")
    p.add_argument("-f", "--file", help="read the SQL from this file")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table", help="output format")
    p.add_argument("--tables", action="store_true", help="list the tables and their columns")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.sql is not None and args.file is not None:
        parser.error("give the SQL either as an argument or with --file, not both")
    try:
        db = Database(args.dir)
        if args.tables:
            for name in db.tables():
                sys.stdout.write(f"{name}({', '.join(db.table(name).columns)})\n")
            return 0
        if args.sql is not None:
            sql = args.sql
        elif args.file is not None:
            try:
                with open(args.file, encoding="utf-8") as fh:
                    sql = fh.read()
            except OSError as exc:
                raise SQLError(f"cannot read {args.file}: {exc.strerror or exc}") from None
        else:
            sql = sys.stdin.read()
        statements = parse_script(sql)
        if not statements:
            raise SQLError("no SQL statement given")
        for i, stmt in enumerate(statements):
            result = db.run(stmt)
            if i:
                sys.stdout.write("\n")
            sys.stdout.write(render(result.columns, result.rows, args.format))
            sys.stdout.flush()
    except (SQLError, CSVTableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
