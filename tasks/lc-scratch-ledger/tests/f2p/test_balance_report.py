"""Section 8: the balance report."""

from decimal import Decimal

from ledgerlite.amount import Amount, MixedAmount
from ledgerlite.loader import read_journal
from ledgerlite.query import parse_query
from ledgerlite.reports import BalanceReport, balance_report, format_mixed, render_balance

JOURNAL = """\
2024-01-01 open
    assets:bank   $500.00
    assets:cash   $1000
    equity

2024-01-02 groceries
    expenses:food:groceries   $20
    expenses:food:dining   $5.5
    expenses:rent  $0
    assets:cash

2024-01-03 refund
    assets:cash   $5.50
    expenses:food:dining
"""


def usd(x):
    return MixedAmount([Amount(Decimal(x), "$")])


def rows(report):
    return [(r.account, r.balance) for r in report.rows]


def test_format_mixed():
    prec = {"$": 2, "EUR": 0}
    m = MixedAmount([Amount(Decimal("3.456"), "$"), Amount(Decimal("-2"), "EUR"), Amount(Decimal(5), "AAPL")])
    assert format_mixed(m, prec) == ["$3.46", "5 AAPL", "-2 EUR"]
    assert format_mixed(MixedAmount(), prec) == ["0"]
    assert format_mixed(MixedAmount([Amount(Decimal("0.004"), "$")]), prec) == ["0"]
    assert format_mixed(Amount(Decimal("-1.5"), "$"), prec) == ["-$1.50"]


def test_tree_rows_are_inclusive_and_in_tree_order():
    report = balance_report(read_journal(JOURNAL))
    assert isinstance(report, BalanceReport)
    assert rows(report) == [
        ("assets", usd(1480)),
        ("assets:bank", usd(500)),
        ("assets:cash", usd(980)),
        ("equity", usd(-1500)),
        ("expenses", usd(20)),
        ("expenses:food", usd(20)),
        ("expenses:food:groceries", usd(20)),
    ]
    assert report.total.is_zero()
    assert report.precisions == {"$": 2}


def test_flat_and_empty():
    j = read_journal(JOURNAL)
    assert rows(balance_report(j, flat=True)) == [
        ("assets:bank", usd(500)),
        ("assets:cash", usd(980)),
        ("equity", usd(-1500)),
        ("expenses:food:groceries", usd(20)),
    ]
    assert [r.account for r in balance_report(j, flat=True, empty=True).rows] == [
        "assets:bank",
        "assets:cash",
        "equity",
        "expenses:food:dining",
        "expenses:food:groceries",
        "expenses:rent",
    ]
    assert [r.account for r in balance_report(j, empty=True).rows] == [
        "assets",
        "assets:bank",
        "assets:cash",
        "equity",
        "expenses",
        "expenses:food",
        "expenses:food:dining",
        "expenses:food:groceries",
        "expenses:rent",
    ]


def test_zero_parent_with_nonzero_children_is_kept():
    j = read_journal("2024-01-01 move\n    assets:bank  $10\n    assets:cash  -$10\n")
    assert rows(balance_report(j)) == [("assets", usd(0)), ("assets:bank", usd(10)), ("assets:cash", usd(-10))]


def test_depth_and_query():
    j = read_journal(JOURNAL)
    assert rows(balance_report(j, depth=1)) == [("assets", usd(1480)), ("equity", usd(-1500)), ("expenses", usd(20))]
    assert rows(balance_report(j, depth=2, flat=True)) == [
        ("assets:bank", usd(500)),
        ("assets:cash", usd(980)),
        ("equity", usd(-1500)),
        ("expenses:food", usd(20)),
    ]
    report = balance_report(j, parse_query(["food"]))
    assert rows(report) == [("expenses", usd(20)), ("expenses:food", usd(20)), ("expenses:food:groceries", usd(20))]
    assert report.total == usd(20)


def test_render_tree():
    text = "2024-01-01 x\n    assets:bank  $500.00\n    assets:cash  $1000\n    equity\n"
    assert render_balance(balance_report(read_journal(text))) == (
        " $1500.00  assets\n"
        "  $500.00    bank\n"
        " $1000.00    cash\n"
        "-$1500.00  equity\n"
        "---------\n"
        "        0\n"
    )


def test_render_flat_without_total():
    text = "2024-01-01 x\n    assets:bank  $500.00\n    assets:cash  $1000\n    equity\n"
    out = render_balance(balance_report(read_journal(text), flat=True), total=False)
    assert out == "  $500.00  assets:bank\n $1000.00  assets:cash\n-$1500.00  equity\n"


def test_render_multi_commodity_label_on_last_line():
    text = """\
2024-01-01 x
    assets:eur   400 EUR @ $1.09
    assets:usd
2024-01-02 y
    (budget)  -300.00 EUR
"""
    out = render_balance(balance_report(read_journal(text)))
    assert out == (
        "   -$436.00\n"
        " 400.00 EUR  assets\n"
        " 400.00 EUR    eur\n"
        "   -$436.00    usd\n"
        "-300.00 EUR  budget\n"
        "-----------\n"
        "   -$436.00\n"
        " 100.00 EUR\n"
    )


def test_render_empty_report():
    j = read_journal(JOURNAL)
    report = balance_report(j, parse_query(["nothing-matches-this"]))
    assert report.rows == []
    assert render_balance(report) == "-\n0\n"
    assert render_balance(report, total=False) == ""
