"""The journal parser (docs/REQUIREMENTS.md, section 3)."""

from __future__ import annotations

import datetime
import re

from ledgerlite.amount import Amount, AmountError, parse_amount
from ledgerlite.journal import Journal, ParseError, Posting, Transaction

__all__ = ["parse_date", "parse_journal"]

_DATE = re.compile(r"^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$")
_ACCOUNT_SEP = re.compile(r"  |\t")


def parse_date(text: str) -> datetime.date:
    """``YYYY-MM-DD`` or ``YYYY/MM/DD`` (month and day may have one digit)."""
    m = _DATE.match(text)
    if not m:
        raise ValueError(f"invalid date: {text!r}")
    try:
        return datetime.date(int(m[1]), int(m[3]), int(m[4]))
    except ValueError:
        raise ValueError(f"invalid date: {text!r}") from None


def _valid_account(name: str) -> bool:
    if not name:
        return False
    for part in name.split(":"):
        if not part or part != part.strip():
            return False
    return True


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.lines = text.splitlines()
        self.journal = Journal(source=source)
        self.txn: Transaction | None = None

    def error(self, message: str, line: int) -> ParseError:
        return ParseError(message, self.source, line)

    def run(self) -> Journal:
        in_block = False
        for lineno, raw in enumerate(self.lines, start=1):
            line = raw.rstrip()
            if in_block:
                if line == "end comment":
                    in_block = False
                continue
            if not line.strip():
                self.finish()
                continue
            if raw[0] in " \t":
                self.indented(line.strip(), lineno)
                continue
            self.finish()
            if line[0] in ";#":
                continue
            if line == "comment":
                in_block = True
            elif line[0].isdigit():
                self.header(line, lineno)
            elif line.startswith("account ") or line.startswith("account\t"):
                self.account_directive(line, lineno)
            elif line.startswith("commodity ") or line.startswith("commodity\t"):
                self.commodity_directive(line, lineno)
            else:
                raise self.error("unexpected line", lineno)
        self.finish()
        return self.journal

    def finish(self) -> None:
        if self.txn is not None:
            if not self.txn.postings:
                raise self.error("transaction has no postings", self.txn.line)
            self.journal.transactions.append(self.txn)
            self.txn = None

    def account_directive(self, line: str, lineno: int) -> None:
        name = line.split(";", 1)[0][len("account"):].strip()
        if not _valid_account(name):
            raise self.error(f"invalid account name: {name!r}", lineno)
        if name not in self.journal.accounts:
            self.journal.accounts.append(name)

    def commodity_directive(self, line: str, lineno: int) -> None:
        text = line.split(";", 1)[0][len("commodity"):].strip()
        try:
            amount = parse_amount(text)
        except AmountError as exc:
            raise self.error(str(exc), lineno) from None
        self.journal.commodity_precisions[amount.commodity] = amount.precision

    def header(self, line: str, lineno: int) -> None:
        text, _, comment = line.partition(";")
        parts = text.split(None, 1)
        try:
            date = parse_date(parts[0])
        except ValueError as exc:
            raise self.error(str(exc), lineno) from None
        rest = parts[1].strip() if len(parts) > 1 else ""
        status = ""
        if rest[:1] in ("*", "!") and (len(rest) == 1 or rest[1] in " \t"):
            status, rest = rest[0], rest[1:].strip()
        code = ""
        if rest.startswith("("):
            end = rest.find(")")
            if end < 0:
                raise self.error("unterminated transaction code", lineno)
            code, rest = rest[1:end].strip(), rest[end + 1 :].strip()
        self.txn = Transaction(
            date=date, description=rest, status=status, code=code, comment=comment.strip(), line=lineno
        )

    def indented(self, text: str, lineno: int) -> None:
        txn = self.txn
        if txn is None:
            raise self.error("unexpected indented line", lineno)
        if text.startswith(";"):
            note = text[1:].strip()
            if txn.postings:
                target = txn.postings[-1]
                target.comment = f"{target.comment}\n{note}" if target.comment else note
            else:
                txn.comment = f"{txn.comment}\n{note}" if txn.comment else note
            return
        txn.postings.append(self.posting(text, lineno))

    def posting(self, text: str, lineno: int) -> Posting:
        status = ""
        if text[:1] in ("*", "!") and len(text) > 1 and text[1] in " \t":
            status, text = text[0], text[1:].lstrip()
        text, _, comment = text.partition(";")
        text = text.rstrip()
        m = _ACCOUNT_SEP.search(text)
        if m:
            account, rest = text[: m.start()], text[m.end() :].strip()
        else:
            account, rest = text, ""
        account = account.strip()
        virtual = False
        if account.startswith("(") and account.endswith(")"):
            virtual, account = True, account[1:-1].strip()
        if not _valid_account(account):
            raise self.error(f"invalid account name: {account!r}", lineno)
        amount, cost, assertion = self.amount_part(rest, lineno)
        return Posting(
            account=account,
            amount=amount,
            cost=cost,
            assertion=assertion,
            status=status,
            virtual=virtual,
            comment=comment.strip(),
            line=lineno,
        )

    def amount_part(self, text: str, lineno: int) -> tuple[Amount | None, Amount | None, Amount | None]:
        def amt(s: str) -> Amount:
            try:
                return parse_amount(s)
            except AmountError as exc:
                raise self.error(str(exc), lineno) from None

        assertion = None
        if "=" in text:
            text, _, asserted = text.partition("=")
            assertion = amt(asserted)
            text = text.strip()
        cost = None
        amount = None
        if "@" in text:
            if "@@" in text:
                left, _, price_text = text.partition("@@")
                total = True
            else:
                left, _, price_text = text.partition("@")
                total = False
            left = left.strip()
            if not left:
                raise self.error("a cost needs an amount", lineno)
            amount = amt(left)
            price = amt(price_text)
            if price.quantity < 0:
                raise self.error("negative price", lineno)
            if total:
                q = price.quantity if amount.quantity >= 0 else -price.quantity
                cost = Amount(q, price.commodity)
            else:
                cost = Amount(amount.quantity * price.quantity, price.commodity)
        elif text:
            amount = amt(text)
        return amount, cost, assertion


def parse_journal(text: str, source: str = "<string>") -> Journal:
    """Parse journal text into a `Journal` (no balancing, no assertion checks)."""
    return _Parser(text, source).run()
