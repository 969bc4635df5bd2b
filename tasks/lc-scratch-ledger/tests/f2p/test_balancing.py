"""Section 4: transaction balancing and amount inference."""

from decimal import Decimal

import pytest

from ledgerlite.amount import Amount
from ledgerlite.balancing import balance_journal, balance_transaction, posting_weight
from ledgerlite.journal import JournalError
from ledgerlite.parser import parse_journal


def _txn(text):
    return parse_journal(text).transactions[0]


def test_posting_weight():
    a, b, c = _txn("2024-01-01 x\n    a  10 ACME @ $5\n    b  $3\n    c\n").postings
    assert posting_weight(a) == Amount(Decimal(50), "$")
    assert posting_weight(b) == Amount(Decimal(3), "$")
    with pytest.raises(ValueError):
        posting_weight(c)


def test_infers_elided_amount():
    txn = _txn("2024-01-01 x\n    expenses:rent  $1,200.00\n    assets:checking  ; paid\n")
    out = balance_transaction(txn, {"$": 2})
    rent, checking = out.postings
    assert checking.amount == Amount(Decimal("-1200.00"), "$")
    assert checking.inferred is True and rent.inferred is False
    assert checking.comment == "paid" and checking.account == "assets:checking"
    assert txn.postings[1].amount is None, "the input transaction must not be modified"


def test_elided_amount_at_cost():
    txn = _txn("2024-04-02 x\n    assets:wallet  400 EUR @ $1.09\n    assets:checking\n")
    checking = balance_transaction(txn, {"$": 2, "EUR": 0}).postings[1]
    assert checking.amount == Amount(Decimal("-436"), "$")


def test_multi_commodity_elided_posting_is_split():
    text = "2024-01-01 x\n    a  $10\n    b  5 EUR\n    c:d  ; note\n    e  -$4\n"
    out = balance_transaction(_txn(text), {"$": 0, "EUR": 0})
    assert [p.account for p in out.postings] == ["a", "b", "c:d", "c:d", "e"]
    assert out.postings[2].amount == Amount(Decimal(-6), "$")
    assert out.postings[3].amount == Amount(Decimal(-5), "EUR")
    assert all(p.inferred and p.comment == "note" for p in out.postings[2:4])


def test_zero_residual_gives_zero_amount():
    out = balance_transaction(_txn("2024-01-01 x\n    a  $1\n    b  -$1\n    c\n"), {"$": 0})
    assert out.postings[2].amount == Amount(Decimal(0), "")
    assert out.postings[2].inferred


def test_unbalanced_transaction():
    text = "\n2024-01-01 x\n    a  $10.00\n    b  -$9.00\n"
    with pytest.raises(JournalError) as info:
        balance_transaction(_txn(text), {"$": 2}, source="t.journal")
    assert info.value.line == 2
    assert info.value.message == "transaction is unbalanced by $1.00"
    assert str(info.value) == "t.journal:2: transaction is unbalanced by $1.00"


def test_different_commodities_do_not_balance_without_cost():
    text = "2024-01-01 x\n    a  100 EUR\n    b  -110 USD\n"
    with pytest.raises(JournalError) as info:
        balance_transaction(_txn(text), {"EUR": 0, "USD": 0})
    assert info.value.message == "transaction is unbalanced by 100 EUR, -110 USD"


def test_rounding_at_display_precision():
    text = "2024-01-01 x\n    a  3 ACME @ $0.333\n    b  -$1.00\n"
    balance_transaction(_txn(text), {"$": 2, "ACME": 0})
    with pytest.raises(JournalError):
        balance_transaction(_txn(text), {"$": 3, "ACME": 0})


def test_virtual_postings_are_not_balanced():
    out = balance_transaction(_txn("2024-01-01 x\n    (budget:food)  -$50\n"), {})
    assert out.postings[0].amount == Amount(Decimal(-50), "$")
    text = "2024-01-01 x\n    a  $5\n    (b)  $7\n    c\n"
    assert balance_transaction(_txn(text), {"$": 0}).postings[2].amount == Amount(Decimal(-5), "$")
    with pytest.raises(JournalError) as info:
        balance_transaction(_txn("2024-01-01 x\n    a  $5\n    b  -$5\n    (c)\n"), {})
    assert info.value.message == "virtual posting without an amount"
    assert info.value.line == 4


def test_more_than_one_elided_posting():
    with pytest.raises(JournalError) as info:
        balance_transaction(_txn("\n\n2024-01-01 x\n    a  $5\n    b\n    c\n"), {})
    assert info.value.message == "more than one posting without an amount"
    assert info.value.line == 3


def test_balance_journal_uses_journal_precisions():
    text = """\
account assets:cash
commodity $1.00

2024-01-01 a
    expenses  $10.004
    assets:cash  -$10.00

2024-01-02 b
    expenses  $2.50
    assets:cash
"""
    journal = parse_journal(text, source="j.journal")
    out = balance_journal(journal)
    assert out is not journal
    assert out.source == "j.journal" and out.accounts == ["assets:cash"]
    assert out.transactions[1].postings[1].amount == Amount(Decimal("-2.50"), "$")
    assert journal.transactions[1].postings[1].amount is None
    with pytest.raises(JournalError) as info:
        balance_journal(parse_journal(text.replace("commodity $1.00\n", ""), source="j.journal"))
    assert info.value.line == 3
    assert str(info.value).startswith("j.journal:3: transaction is unbalanced by $0.004")
