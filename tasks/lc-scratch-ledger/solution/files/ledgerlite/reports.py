"""The balance and register reports (docs/REQUIREMENTS.md, sections 8 and 9)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple

from ledgerlite import accounts
from ledgerlite.amount import Amount, MixedAmount, format_amount
from ledgerlite.journal import Journal
from ledgerlite.query import Query

__all__ = [
    "BalanceReport",
    "BalanceRow",
    "RegisterReport",
    "RegisterRow",
    "balance_report",
    "format_mixed",
    "register_report",
    "render_balance",
    "render_register",
]


def format_mixed(mixed: MixedAmount | Amount, precisions: Mapping[str, int]) -> list[str]:
    """Display lines of an amount: one per non-zero commodity (after rounding), or ["0"]."""
    if isinstance(mixed, Amount):
        mixed = MixedAmount([mixed])
    shown = mixed.rounded(precisions)
    lines = [format_amount(a, precisions.get(a.commodity)) for a in shown.amounts()]
    return lines or ["0"]


def _is_zero(mixed: MixedAmount, precisions: Mapping[str, int]) -> bool:
    return mixed.rounded(precisions).is_zero()


class BalanceRow(NamedTuple):
    account: str
    balance: MixedAmount


@dataclass
class BalanceReport:
    rows: list[BalanceRow]
    total: MixedAmount
    flat: bool = False
    precisions: dict[str, int] = field(default_factory=dict)


def balance_report(
    journal: Journal,
    query: Query | None = None,
    *,
    depth: int | None = None,
    flat: bool = False,
    empty: bool = False,
) -> BalanceReport:
    precisions = journal.display_precisions()
    own: dict[str, MixedAmount] = {}
    total = MixedAmount()
    for txn in journal.transactions:
        for p in txn.postings:
            if query is not None and not query.matches(txn, p):
                continue
            assert p.amount is not None, "balance_report needs a balanced journal"
            own[p.account] = own.get(p.account, MixedAmount()) + p.amount
            total = total + p.amount
    if depth is not None:
        own = accounts.clip_balances(own, depth)
    if flat:
        rows = [
            BalanceRow(name, own[name])
            for name in accounts.sort_accounts(own)
            if empty or not _is_zero(own[name], precisions)
        ]
    else:
        inclusive = accounts.rollup(own)
        keep = set()
        if empty:
            keep = set(inclusive)
        else:
            for name, bal in inclusive.items():
                if not _is_zero(bal, precisions):
                    keep.add(name)
                    keep.update(accounts.ancestors(name))
        rows = [BalanceRow(name, inclusive[name]) for name in inclusive if name in keep]
    return BalanceReport(rows=rows, total=total, flat=flat, precisions=precisions)


def render_balance(report: BalanceReport, *, total: bool = True) -> str:
    prec = report.precisions
    blocks = []
    for row in report.rows:
        label = row.account if report.flat else "  " * (accounts.depth(row.account) - 1) + accounts.leaf(row.account)
        blocks.append((format_mixed(row.balance, prec), label))
    total_lines = format_mixed(report.total, prec)
    widths = [len(s) for lines, _ in blocks for s in lines]
    if total:
        widths += [len(s) for s in total_lines]
    width = max(widths, default=0)
    out = []
    for lines, label in blocks:
        for s in lines[:-1]:
            out.append(s.rjust(width))
        out.append(f"{lines[-1].rjust(width)}  {label}")
    if total:
        out.append("-" * width)
        out.extend(s.rjust(width) for s in total_lines)
    return "".join(line.rstrip() + "\n" for line in out)


class RegisterRow(NamedTuple):
    date: datetime.date
    description: str
    account: str
    amount: Amount
    total: MixedAmount
    first: bool


@dataclass
class RegisterReport:
    rows: list[RegisterRow]
    precisions: dict[str, int] = field(default_factory=dict)


def register_report(journal: Journal, query: Query | None = None) -> RegisterReport:
    precisions = journal.display_precisions()
    rows: list[RegisterRow] = []
    running = MixedAmount()
    for txn in sorted(journal.transactions, key=lambda t: t.date):
        first = True
        for p in txn.postings:
            if query is not None and not query.matches(txn, p):
                continue
            assert p.amount is not None, "register_report needs a balanced journal"
            running = running + p.amount
            rows.append(RegisterRow(txn.date, txn.description, p.account, p.amount, running, first))
            first = False
    return RegisterReport(rows=rows, precisions=precisions)


def _fit(text: str, width: int) -> str:
    if len(text) > width:
        return text[: width - 2] + ".."
    return text.ljust(width)


DATE_W, DESC_W, ACCOUNT_W, AMOUNT_W, TOTAL_W = 10, 20, 22, 12, 12


def render_register(report: RegisterReport) -> str:
    prec = report.precisions
    out = []
    indent = " " * (DATE_W + DESC_W + ACCOUNT_W + AMOUNT_W + 4)
    for row in report.rows:
        date = row.date.isoformat() if row.first else ""
        desc = row.description if row.first else ""
        amount = format_mixed(row.amount, prec)[0]
        totals = format_mixed(row.total, prec)
        out.append(
            f"{date.ljust(DATE_W)} {_fit(desc, DESC_W)} {_fit(row.account, ACCOUNT_W)} "
            f"{amount.rjust(AMOUNT_W)} {totals[0].rjust(TOTAL_W)}"
        )
        out.extend(indent + s.rjust(TOTAL_W) for s in totals[1:])
    return "".join(line.rstrip() + "\n" for line in out)
