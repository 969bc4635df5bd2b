"""The journal data model (docs/REQUIREMENTS.md, section 3.6) and the journal errors."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from ledgerlite.amount import Amount

__all__ = ["Journal", "JournalError", "ParseError", "Posting", "Transaction"]


class JournalError(Exception):
    """A problem with a journal, located at `source`:`line`."""

    def __init__(self, message: str, source: str = "<string>", line: int = 0) -> None:
        self.message = message
        self.source = source
        self.line = line
        super().__init__(f"{source}:{line}: {message}")


class ParseError(JournalError):
    """The journal text does not follow the syntax of section 3."""


@dataclass
class Posting:
    account: str
    amount: Amount | None = None
    cost: Amount | None = None
    assertion: Amount | None = None
    status: str = ""
    virtual: bool = False
    comment: str = ""
    line: int = 0
    inferred: bool = False


@dataclass
class Transaction:
    date: datetime.date
    description: str
    postings: list[Posting] = field(default_factory=list)
    status: str = ""
    code: str = ""
    comment: str = ""
    line: int = 0


@dataclass
class Journal:
    transactions: list[Transaction] = field(default_factory=list)
    accounts: list[str] = field(default_factory=list)
    commodity_precisions: dict[str, int] = field(default_factory=dict)
    source: str = "<string>"

    def display_precisions(self) -> dict[str, int]:
        """Per commodity: the `commodity` directive's precision, else the largest precision of
        the explicit (not inferred) posting amounts in that commodity."""
        seen: dict[str, int] = {}
        for txn in self.transactions:
            for p in txn.postings:
                if p.amount is None or p.inferred:
                    continue
                c = p.amount.commodity
                seen[c] = max(seen.get(c, 0), p.amount.precision)
        seen.update(self.commodity_precisions)
        return seen

    def account_names(self) -> list[str]:
        """Accounts used by postings, unique, in order of first appearance."""
        names: dict[str, None] = {}
        for txn in self.transactions:
            for p in txn.postings:
                names.setdefault(p.account, None)
        return list(names)
