"""Query terms (docs/REQUIREMENTS.md, section 7)."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ledgerlite.journal import Posting, Transaction

__all__ = ["Query", "QueryError", "parse_period", "parse_query"]

_PART = re.compile(r"^(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?$")


class QueryError(ValueError):
    """An invalid query term or period."""


def _period_bounds(text: str) -> tuple[datetime.date, datetime.date]:
    m = _PART.match(text)
    if not m:
        raise QueryError(f"invalid period: {text!r}")
    year = int(m[1])
    try:
        if m[3] is not None:
            start = datetime.date(year, int(m[2]), int(m[3]))
            return start, start + datetime.timedelta(days=1)
        if m[2] is not None:
            month = int(m[2])
            start = datetime.date(year, month, 1)
            end = datetime.date(year + 1, 1, 1) if month == 12 else datetime.date(year, month + 1, 1)
            return start, end
        return datetime.date(year, 1, 1), datetime.date(year + 1, 1, 1)
    except ValueError:
        raise QueryError(f"invalid period: {text!r}") from None


def parse_period(text: str) -> tuple[datetime.date | None, datetime.date | None]:
    """(start inclusive, end exclusive); None is unbounded."""
    text = text.strip()
    if ".." in text:
        left, _, right = text.partition("..")
        start = _period_bounds(left.strip())[0] if left.strip() else None
        end = _period_bounds(right.strip())[0] if right.strip() else None
        return start, end
    if not text:
        raise QueryError("invalid period: ''")
    return _period_bounds(text)


Matcher = Callable[[Transaction, Posting], bool]


def _regex(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise QueryError(f"invalid regular expression {pattern!r}: {exc}") from None


def _term(kind: str, arg: str) -> Matcher:
    if kind == "acct":
        rx = _regex(arg)
        return lambda t, p: rx.search(p.account) is not None
    if kind == "desc":
        rx = _regex(arg)
        return lambda t, p: rx.search(t.description) is not None
    if kind == "cur":
        rx = _regex(arg)
        return lambda t, p: p.amount is not None and rx.fullmatch(p.amount.commodity) is not None
    if kind == "date":
        start, end = parse_period(arg)
        return lambda t, p: (start is None or t.date >= start) and (end is None or t.date < end)
    if kind == "status":
        if arg not in ("", "*", "!"):
            raise QueryError(f"invalid status: {arg!r}")
        return lambda t, p: (p.status or t.status) == arg
    raise AssertionError(kind)  # pragma: no cover


_KINDS = ("acct", "desc", "cur", "date", "status")


@dataclass
class Query:
    terms: list[str] = field(default_factory=list)
    _positive: dict[str, list[Matcher]] = field(default_factory=dict, repr=False)
    _negative: list[Matcher] = field(default_factory=list, repr=False)

    def is_empty(self) -> bool:
        return not self.terms

    def matches(self, txn: Transaction, posting: Posting) -> bool:
        for group in self._positive.values():
            if not any(m(txn, posting) for m in group):
                return False
        return not any(m(txn, posting) for m in self._negative)


def parse_query(terms: Iterable[str] | str = ()) -> Query:
    if isinstance(terms, str):
        terms = terms.split()
    q = Query()
    for raw in terms:
        term = raw
        negated = False
        if term.startswith("not:"):
            negated, term = True, term[4:]
        kind, arg = "acct", term
        prefix, sep, rest = term.partition(":")
        if sep and prefix in _KINDS:
            kind, arg = prefix, rest
        if kind == "acct" and not arg:
            raise QueryError(f"empty query term: {raw!r}")
        matcher = _term(kind, arg)
        if negated:
            q._negative.append(matcher)
        else:
            q._positive.setdefault(kind, []).append(matcher)
        q.terms.append(raw)
    return q
