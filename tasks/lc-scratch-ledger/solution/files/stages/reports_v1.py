"""The balance report (docs/REQUIREMENTS.md, section 8)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, NamedTuple

from ledgerlite import accounts
from ledgerlite.amount import Amount, MixedAmount, format_amount
from ledgerlite.journal import Journal
from ledgerlite.query import Query

__all__ = [
    "BalanceReport",
    "BalanceRow",
    "balance_report",
    "format_mixed",
    "render_balance",
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
