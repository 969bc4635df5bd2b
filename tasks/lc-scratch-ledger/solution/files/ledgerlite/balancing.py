"""Transaction balancing and amount inference (docs/REQUIREMENTS.md, section 4)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Mapping

from ledgerlite.amount import Amount, MixedAmount, format_amount
from ledgerlite.journal import Journal, JournalError, Posting, Transaction

__all__ = ["balance_journal", "balance_transaction", "posting_weight"]


def posting_weight(posting: Posting) -> Amount:
    """The amount a posting contributes to its transaction's balance: its cost, else its amount."""
    if posting.amount is None:
        raise ValueError(f"posting to {posting.account} has no amount")
    return posting.cost if posting.cost is not None else posting.amount


def _fmt(mixed: MixedAmount, precisions: Mapping[str, int]) -> str:
    return ", ".join(format_amount(a, precisions.get(a.commodity)) for a in mixed.amounts())


def balance_transaction(
    txn: Transaction, precisions: Mapping[str, int] | None = None, source: str = "<string>"
) -> Transaction:
    """Return a copy of `txn` with its elided amount inferred; raise JournalError when it
    cannot be balanced."""
    precisions = dict(precisions or {})
    elided: list[int] = []
    residual = MixedAmount()
    for i, p in enumerate(txn.postings):
        if p.amount is None:
            if p.virtual:
                raise JournalError("virtual posting without an amount", source, p.line)
            elided.append(i)
            continue
        if not p.virtual:
            residual = residual + posting_weight(p)
    if len(elided) > 1:
        raise JournalError("more than one posting without an amount", source, txn.line)
    shown = residual.rounded(precisions)
    if not elided:
        if not shown.is_zero():
            raise JournalError(f"transaction is unbalanced by {_fmt(shown, precisions)}", source, txn.line)
        return dataclasses.replace(txn, postings=list(txn.postings))
    index = elided[0]
    template = txn.postings[index]
    commodities = shown.commodities()
    if commodities:
        fills = [
            dataclasses.replace(
                template,
                amount=Amount(-residual.quantity(c), c),
                inferred=True,
                assertion=template.assertion if i == len(commodities) - 1 else None,
            )
            for i, c in enumerate(commodities)
        ]
    else:
        fills = [dataclasses.replace(template, amount=Amount(Decimal(0), ""), inferred=True)]
    postings = txn.postings[:index] + fills + txn.postings[index + 1 :]
    return dataclasses.replace(txn, postings=postings)


def balance_journal(journal: Journal) -> Journal:
    """A new Journal whose transactions are all balanced (elided amounts filled in)."""
    precisions = journal.display_precisions()
    txns = [balance_transaction(t, precisions, journal.source) for t in journal.transactions]
    return dataclasses.replace(
        journal,
        transactions=txns,
        accounts=list(journal.accounts),
        commodity_precisions=dict(journal.commodity_precisions),
    )
