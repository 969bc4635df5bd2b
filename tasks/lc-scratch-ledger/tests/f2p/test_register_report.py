"""Section 9: the register report."""

import datetime
from decimal import Decimal

from ledgerlite.amount import Amount, MixedAmount
from ledgerlite.loader import read_journal
from ledgerlite.query import parse_query
from ledgerlite.reports import RegisterReport, register_report, render_register

JOURNAL = """\
2024-01-03 Landlord
    expenses:rent   $1,200.00
    assets:bank:checking

2024-01-01 Opening balances for the new year
    assets:bank:checking   $2,500.00
    equity:opening

2024-01-03 Fresh Market
    expenses:food:groceries   $86.40
    assets:bank:checking
"""


def usd(x):
    return MixedAmount([Amount(Decimal(x), "$")])


def test_rows_in_date_order_with_running_total():
    report = register_report(read_journal(JOURNAL))
    assert isinstance(report, RegisterReport)
    got = [(r.date.isoformat(), r.description, r.account, r.amount, r.total, r.first) for r in report.rows]
    assert got == [
        ("2024-01-01", "Opening balances for the new year", "assets:bank:checking", Amount(Decimal(2500), "$"), usd(2500), True),
        ("2024-01-01", "Opening balances for the new year", "equity:opening", Amount(Decimal(-2500), "$"), usd(0), False),
        ("2024-01-03", "Landlord", "expenses:rent", Amount(Decimal(1200), "$"), usd(1200), True),
        ("2024-01-03", "Landlord", "assets:bank:checking", Amount(Decimal(-1200), "$"), usd(0), False),
        ("2024-01-03", "Fresh Market", "expenses:food:groceries", Amount(Decimal("86.40"), "$"), usd("86.40"), True),
        ("2024-01-03", "Fresh Market", "assets:bank:checking", Amount(Decimal("-86.40"), "$"), usd(0), False),
    ]
    assert report.rows[0].date == datetime.date(2024, 1, 1)
    assert report.precisions == {"$": 2}


def test_query_filters_rows_and_total():
    report = register_report(read_journal(JOURNAL), parse_query(["checking"]))
    assert [(r.account, r.total, r.first) for r in report.rows] == [
        ("assets:bank:checking", usd(2500), True),
        ("assets:bank:checking", usd(1300), True),
        ("assets:bank:checking", usd("1213.60"), True),
    ]


def test_first_is_first_shown_posting():
    report = register_report(read_journal(JOURNAL), parse_query(["equity", "groceries"]))
    assert [(r.account, r.first) for r in report.rows] == [("equity:opening", True), ("expenses:food:groceries", True)]


def test_render_layout():
    out = render_register(register_report(read_journal(JOURNAL)))
    assert out == (
        "2024-01-01 Opening balances f.. assets:bank:checking       $2500.00     $2500.00\n"
        "                                equity:opening            -$2500.00            0\n"
        "2024-01-03 Landlord             expenses:rent              $1200.00     $1200.00\n"
        "                                assets:bank:checking      -$1200.00            0\n"
        "2024-01-03 Fresh Market         expenses:food:grocer..       $86.40       $86.40\n"
        "                                assets:bank:checking        -$86.40            0\n"
    )


def test_render_exact_width_is_not_cut():
    text = "2024-05-01 Exactly twenty chars\n    assets:exactly22:chars  $1\n    b\n"
    first = render_register(register_report(read_journal(text))).splitlines()[0]
    assert first == "2024-05-01 Exactly twenty chars assets:exactly22:chars           $1           $1"


def test_render_multi_commodity_total():
    text = """\
2024-04-02 Exchange
    assets:wallet   400 EUR @ $1.09
    assets:checking  -$436.00

2024-04-03 Hotel
    expenses:lodging   210.00 EUR
    assets:wallet
"""
    out = render_register(register_report(read_journal(text)))
    assert out == (
        "2024-04-02 Exchange             assets:wallet            400.00 EUR   400.00 EUR\n"
        "                                assets:checking            -$436.00     -$436.00\n"
        "                                                                      400.00 EUR\n"
        "2024-04-03 Hotel                expenses:lodging         210.00 EUR     -$436.00\n"
        "                                                                      610.00 EUR\n"
        "                                assets:wallet           -210.00 EUR     -$436.00\n"
        "                                                                      400.00 EUR\n"
    )


def test_render_empty_and_wide_amounts():
    assert render_register(register_report(read_journal(JOURNAL), parse_query(["nomatch"]))) == ""
    text = "2024-01-01 Big\n    assets  $12345678901.00\n    equity\n"
    lines = render_register(register_report(read_journal(text))).splitlines()
    assert lines[0] == "2024-01-01 " + "Big".ljust(20) + " " + "assets".ljust(22) + " $12345678901.00 $12345678901.00"
    assert lines[1].endswith(" -$12345678901.00            0")
