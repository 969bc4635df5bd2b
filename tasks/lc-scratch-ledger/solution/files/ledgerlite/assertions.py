"""Balance assertions (docs/REQUIREMENTS.md, section 5.1)."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

from ledgerlite.amount import Amount, format_amount
from ledgerlite.journal import Journal, JournalError

__all__ = ["check_assertions"]


def check_assertions(journal: Journal) -> None:
    """Raise JournalError for the first balance assertion that does not hold."""
    precisions = journal.display_precisions()
    balances: dict[tuple[str, str], Decimal] = {}
    for txn in sorted(journal.transactions, key=lambda t: t.date):
        for p in txn.postings:
            if p.amount is None:
                raise ValueError("check_assertions needs a balanced journal")
            key = (p.account, p.amount.commodity)
            balances[key] = balances.get(key, Decimal(0)) + p.amount.quantity
            if p.assertion is None:
                continue
            c = p.assertion.commodity
            actual = balances.get((p.account, c), Decimal(0))
            diff = actual - p.assertion.quantity
            prec = precisions.get(c)
            if prec is not None:
                diff = diff.quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_EVEN)
            if diff != 0:
                expected = format_amount(p.assertion, prec)
                calculated = format_amount(Amount(actual, c), prec)
                raise JournalError(
                    f"balance assertion failed for {p.account}: expected {expected}, calculated {calculated}",
                    journal.source,
                    p.line,
                )
