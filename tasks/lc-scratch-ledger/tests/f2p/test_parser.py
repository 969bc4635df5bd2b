"""Section 3: journal syntax, data model and parse errors."""

import datetime
from decimal import Decimal

import pytest

from ledgerlite.amount import Amount
from ledgerlite.journal import Journal, JournalError, ParseError, Posting, Transaction
from ledgerlite.parser import parse_date, parse_journal

BASIC = """\
; a comment line
# another comment

2024-01-05 * (1042) Fresh Market  ; weekly shop
    ; transaction note
    expenses:food:groceries      $86.40  ; bread, milk
    ! liabilities:visa          -$86.40

2024/2/1 Landlord
    expenses:rent  $1,200.00
    assets:bank:checking
"""


def test_header_fields():
    j = parse_journal(BASIC)
    assert isinstance(j, Journal)
    assert len(j.transactions) == 2
    t = j.transactions[0]
    assert isinstance(t, Transaction)
    assert t.date == datetime.date(2024, 1, 5)
    assert (t.status, t.code, t.description) == ("*", "1042", "Fresh Market")
    assert t.comment == "weekly shop\ntransaction note"
    assert t.line == 4
    t2 = j.transactions[1]
    assert t2.date == datetime.date(2024, 2, 1)
    assert (t2.status, t2.code, t2.description, t2.comment) == ("", "", "Landlord", "")


def test_postings_fields_and_elided_amount():
    j = parse_journal(BASIC)
    p1, p2 = j.transactions[0].postings
    assert isinstance(p1, Posting)
    assert p1.account == "expenses:food:groceries"
    assert p1.amount == Amount(Decimal("86.40"), "$")
    assert p1.comment == "bread, milk"
    assert p1.line == 6 and p1.status == "" and not p1.virtual and not p1.inferred
    assert p2.status == "!" and p2.account == "liabilities:visa"
    assert p2.amount == Amount(Decimal("-86.40"), "$")
    rent, checking = j.transactions[1].postings
    assert rent.amount == Amount(Decimal("1200"), "$")
    assert checking.amount is None
    assert checking.line == 11


def test_account_names_with_single_spaces_and_tabs():
    j = parse_journal("2024-03-01 Lunch\n    expenses:eating out  12 EUR\n\tassets:cash\t-12 EUR\n")
    p1, p2 = j.transactions[0].postings
    assert p1.account == "expenses:eating out"
    assert p1.amount == Amount(Decimal(12), "EUR")
    assert p2.account == "assets:cash"
    assert p2.amount == Amount(Decimal(-12), "EUR")


def test_costs_virtual_and_assertions():
    text = """\
2024-04-02 Exchange
    assets:wallet   400 EUR @ $1.09
    assets:broker   -10 ACME @@ $1,500
    (budget:travel)   -300 EUR
    assets:checking   = $100.00
"""
    wallet, broker, budget, checking = parse_journal(text).transactions[0].postings
    assert wallet.cost == Amount(Decimal("436"), "$")
    assert broker.amount == Amount(Decimal(-10), "ACME")
    assert broker.cost == Amount(Decimal("-1500"), "$")
    assert budget.virtual and budget.account == "budget:travel"
    assert budget.cost is None
    assert checking.amount is None
    assert checking.assertion == Amount(Decimal("100.00"), "$")


def test_directives_and_block_comments():
    text = """\
account assets:cash
account expenses:food  ; groceries and more
account assets:cash
commodity $1,000.000
comment
this is ignored
2024-99-99 not a transaction
end comment
2024-01-01 Snack
    expenses:food  $1.5
    assets:cash
"""
    j = parse_journal(text, source="main.journal")
    assert j.accounts == ["assets:cash", "expenses:food"]
    assert j.commodity_precisions == {"$": 3}
    assert j.source == "main.journal"
    assert len(j.transactions) == 1


def test_display_precisions_and_account_names():
    text = """\
2024-01-01 a
    x:y   $5
    x:z  -$6.50 = $1.2345
    w     $1.5
    v     10 ACME @ $0.001
    u     -10 ACME @ $0.001
"""
    j = parse_journal(text)
    assert j.display_precisions() == {"$": 2, "ACME": 0}
    assert j.account_names() == ["x:y", "x:z", "w", "v", "u"]
    j2 = parse_journal("commodity 1.000 EUR\n" + text.replace("$", "EUR "))
    assert j2.display_precisions()["EUR"] == 3


def test_parse_date():
    assert parse_date("2024-02-29") == datetime.date(2024, 2, 29)
    assert parse_date("2024/1/5") == datetime.date(2024, 1, 5)
    for bad in ["2023-02-29", "2024-13-01", "2024-01/05", "24-01-05", "2024-01-05x"]:
        with pytest.raises(ValueError):
            parse_date(bad)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("2024-02-30 Bad\n    a  $1\n    b\n", 1, "invalid date"),
        ("2024-01-01 ok\n    a  $1\n    b\n\n    c  $2\n", 5, "unexpected indented line"),
        ("\nhello world\n", 2, "unexpected line"),
        ("2024-01-01 empty\n\n", 1, "transaction has no postings"),
        ("2024-01-01 x\n    assets::bank  $1\n    b\n", 2, "invalid account name"),
        ("2024-01-01 x\n    a  $1\n    b:  -$1\n", 3, "invalid account name"),
        ("2024-01-01 x\n    a  12kg5\n    b\n", 2, "invalid amount"),
        ("2024-01-01 x\n    a  @ $5\n    b\n", 2, ""),
        ("2024-01-01 x\n    a  5 ACME @ -$5\n    b\n", 2, ""),
    ],
)
def test_parse_errors(text, line, fragment):
    with pytest.raises(ParseError) as info:
        parse_journal(text, source="bad.journal")
    err = info.value
    assert isinstance(err, JournalError)
    assert err.line == line
    assert err.source == "bad.journal"
    assert fragment in err.message
    assert str(err) == f"bad.journal:{line}: {err.message}"


def test_journal_error_str():
    err = JournalError("boom", "f.journal", 7)
    assert str(err) == "f.journal:7: boom"
    assert (err.message, err.source, err.line) == ("boom", "f.journal", 7)
    assert str(JournalError("boom")) == "<string>:0: boom"
