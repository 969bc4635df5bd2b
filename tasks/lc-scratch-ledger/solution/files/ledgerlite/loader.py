"""Reading a journal: parse, balance, check assertions (docs/REQUIREMENTS.md, section 5.2)."""

from __future__ import annotations

import os

from ledgerlite.assertions import check_assertions
from ledgerlite.balancing import balance_journal
from ledgerlite.journal import Journal
from ledgerlite.parser import parse_journal

__all__ = ["load_journal", "read_journal"]


def read_journal(text: str, source: str = "<string>", *, check: bool = True) -> Journal:
    journal = balance_journal(parse_journal(text, source))
    if check:
        check_assertions(journal)
    return journal


def load_journal(path: str | os.PathLike[str], *, check: bool = True) -> Journal:
    with open(path, encoding="utf-8-sig") as fh:
        text = fh.read()
    return read_journal(text, str(path), check=check)
