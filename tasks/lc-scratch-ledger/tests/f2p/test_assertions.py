"""Section 5: balance assertions and the loading pipeline."""

from decimal import Decimal

import pytest

from ledgerlite.amount import Amount
from ledgerlite.assertions import check_assertions
from ledgerlite.balancing import balance_journal
from ledgerlite.journal import JournalError, ParseError
from ledgerlite.loader import load_journal, read_journal
from ledgerlite.parser import parse_journal


def _check(text, source="<string>"):
    check_assertions(balance_journal(parse_journal(text, source)))


def test_passing_assertions_including_elided_amount():
    text = """\
2024-01-01 open
    assets:checking  $100.00
    equity

2024-01-02 spend
    expenses  $10.00
    assets:checking  = $90.00
"""
    _check(text)


def test_failing_assertion_message_and_line():
    text = """\
2024-01-01 open
    assets:checking  $100.00
    equity

2024-01-02 spend
    expenses  $10
    assets:checking  -$10 = $100
"""
    with pytest.raises(JournalError) as info:
        _check(text, "a.journal")
    err = info.value
    assert err.line == 7
    assert err.message == "balance assertion failed for assets:checking: expected $100.00, calculated $90.00"
    assert str(err).startswith("a.journal:7: balance assertion failed")


def test_assertions_are_checked_in_date_order():
    text = """\
2024-03-01 later
    assets:cash  $5
    equity  = -$15

2024-01-01 earlier
    assets:cash  $10
    equity
"""
    _check(text)
    swapped = text.replace("= -$15", "= -$5")
    with pytest.raises(JournalError) as info:
        _check(swapped)
    assert info.value.line == 3


def test_same_date_keeps_file_order_and_postings_are_cumulative():
    text = """\
2024-01-01 one
    assets:cash  $10 = $10
    assets:cash  $5 = $15
    equity  = -$15

2024-01-01 two
    assets:cash  $1 = $16
    equity
"""
    _check(text)


def test_subaccounts_are_excluded_and_other_commodities_ignored():
    text = """\
2024-01-01 open
    assets  $100
    assets:bank  $50
    assets  7 EUR
    equity

2024-01-02 check
    assets  $0 = $100
    assets  0 EUR = 7 EUR
    equity  = 0 GBP
"""
    _check(text)
    with pytest.raises(JournalError) as info:
        _check(text.replace("$0 = $100", "$0 = $150"))
    assert "expected $150, calculated $100" in info.value.message


def test_virtual_postings_count_for_assertions():
    text = """\
2024-01-01 budget
    (budget:food)  $200

2024-01-05 shop
    (budget:food)  -$50 = $150
"""
    _check(text)


def test_display_precision_tolerance():
    text = """\
commodity $1.00
2024-01-01 open
    assets:cash  $10.004
    equity  -$10.00 = -$10.00

2024-01-02 check
    assets:cash  $0 = $10.00
    equity
"""
    _check(text)


def test_read_journal_pipeline():
    text = "2024-01-01 x\n    a  $1.50\n    b\n"
    j = read_journal(text, source="mem")
    assert j.source == "mem"
    assert j.transactions[0].postings[1].amount == Amount(Decimal("-1.50"), "$")
    bad = "2024-01-01 x\n    a  $1\n    b  = $5\n"
    with pytest.raises(JournalError):
        read_journal(bad)
    assert read_journal(bad, check=False).transactions[0].postings[1].amount == Amount(Decimal(-1), "$")
    with pytest.raises(ParseError):
        read_journal("2024-01-01 x\n")


def test_load_journal(tmp_path):
    path = tmp_path / "bom.journal"
    path.write_bytes("\ufeff2024-01-01 café\n    expenses  €3.20\n    assets:cash\n".encode("utf-8"))
    j = load_journal(path)
    assert j.source == str(path)
    assert j.transactions[0].description == "café"
    assert j.transactions[0].postings[1].amount == Amount(Decimal("-3.20"), "€")
    bad = tmp_path / "bad.journal"
    bad.write_text("2024-01-01 x\n    a  $1\n    b  -$2\n", encoding="utf-8")
    with pytest.raises(JournalError) as info:
        load_journal(bad)
    assert str(info.value).startswith(f"{bad}:1: ")
    with pytest.raises(OSError):
        load_journal(tmp_path / "missing.journal")


def test_sample_journals_load():
    household = load_journal("examples/household.journal")
    assert len(household.transactions) == 14
    assert sum(len(t.postings) for t in household.transactions) == 31
    travel = load_journal("examples/travel.journal")
    wallet = [p for t in travel.transactions for p in t.postings if p.account == "assets:checking"]
    assert wallet[1].amount == Amount(Decimal("-436.00"), "$") and wallet[1].inferred


def test_assertion_on_split_elided_posting():
    text = """\
2024-01-01 mixed
    assets:usd  $5
    assets:eur  7 EUR
    equity  = -7 EUR
"""
    j = read_journal(text)
    equity = [p for p in j.transactions[0].postings if p.account == "equity"]
    assert [p.amount for p in equity] == [Amount(Decimal(-5), "$"), Amount(Decimal(-7), "EUR")]
    with pytest.raises(JournalError) as info:
        read_journal(text.replace("= -7 EUR", "= -6 EUR"))
    assert info.value.line == 4
