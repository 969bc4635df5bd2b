"""Append-only JSONL ledger: one typed event per line, flushed per event."""

from realcli.ledger.reader import LedgerContents, read_ledger
from realcli.ledger.writer import LedgerWriter

__all__ = ["LedgerContents", "LedgerWriter", "read_ledger"]
