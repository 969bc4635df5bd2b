"""Command-line interface: python -m ledgerlite (docs/REQUIREMENTS.md, section 10)."""

from __future__ import annotations

import argparse
import os
import sys

from ledgerlite import accounts
from ledgerlite.journal import Journal, JournalError
from ledgerlite.loader import load_journal, read_journal
from ledgerlite.query import Query, QueryError, parse_period, parse_query
from ledgerlite.reports import balance_report, register_report, render_balance, render_register

__all__ = ["build_parser", "main"]


class _Error(Exception):
    pass


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid depth: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("depth must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ledgerlite", description="Plain-text double-entry accounting.")
    parser.add_argument("-f", "--file", help="journal file ('-' for standard input); default $LEDGER_FILE")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-b", "--begin", metavar="DATE", help="only transactions on or after DATE")
    common.add_argument("-e", "--end", metavar="DATE", help="only transactions before DATE")
    common.add_argument("-p", "--period", metavar="PERIOD", help="only transactions in PERIOD")
    common.add_argument("query", nargs="*", metavar="QUERY", help="query terms")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    bal = sub.add_parser("balance", aliases=["bal"], parents=[common], help="account balances")
    bal.add_argument("--flat", action="store_true", help="flat list of full account names")
    bal.add_argument("--depth", type=_positive_int, metavar="N", help="clip accounts at depth N")
    bal.add_argument("-E", "--empty", action="store_true", help="show accounts with zero balance")
    bal.add_argument("--no-total", action="store_true", help="omit the total")

    sub.add_parser("register", aliases=["reg"], parents=[common], help="postings with a running total")

    acc = sub.add_parser("accounts", parents=[common], help="list account names")
    acc.add_argument("--tree", action="store_true", help="indented tree with parent accounts")
    acc.add_argument("--depth", type=_positive_int, metavar="N", help="clip accounts at depth N")

    sub.add_parser("check", help="check the journal")
    return parser


def _load(args: argparse.Namespace) -> Journal:
    path = args.file or os.environ.get("LEDGER_FILE")
    if not path:
        raise _Error("no journal file given (use -f FILE or set LEDGER_FILE)")
    if path == "-":
        return read_journal(sys.stdin.read(), "<stdin>")
    try:
        return load_journal(path)
    except OSError as exc:
        raise _Error(f"cannot read {path}: {exc.strerror or exc}") from None


def _query(args: argparse.Namespace) -> Query:
    terms = list(args.query)
    if args.begin or args.end:
        start = parse_period(args.begin)[0] if args.begin else None
        end = parse_period(args.end)[0] if args.end else None
        terms.append(f"date:{start.isoformat() if start else ''}..{end.isoformat() if end else ''}")
    if args.period:
        parse_period(args.period)
        terms.append(f"date:{args.period}")
    return parse_query(terms)


def _accounts(journal: Journal, query: Query, args: argparse.Namespace) -> str:
    names = [p.account for t in journal.transactions for p in t.postings if query.matches(t, p)]
    if query.is_empty():
        names.extend(journal.accounts)
    if args.depth:
        names = [accounts.clip(n, args.depth) for n in names]
    if args.tree:
        lines = ["  " * (accounts.depth(n) - 1) + accounts.leaf(n) for n in accounts.expand(names)]
    else:
        lines = accounts.sort_accounts(names)
    return "".join(line + "\n" for line in lines)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        journal = _load(args)
        if args.command == "check":
            postings = sum(len(t.postings) for t in journal.transactions)
            sys.stdout.write(f"ok: {len(journal.transactions)} transactions, {postings} postings\n")
            return 0
        query = _query(args)
        if args.command in ("balance", "bal"):
            report = balance_report(journal, query, depth=args.depth, flat=args.flat, empty=args.empty)
            sys.stdout.write(render_balance(report, total=not args.no_total))
        elif args.command in ("register", "reg"):
            sys.stdout.write(render_register(register_report(journal, query)))
        else:
            sys.stdout.write(_accounts(journal, query, args))
    except (JournalError, QueryError, _Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
