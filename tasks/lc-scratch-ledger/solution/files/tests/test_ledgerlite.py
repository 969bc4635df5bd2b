"""Tests for the journal pipeline, queries and reports (docs/REQUIREMENTS.md, sections 3-10)."""

import subprocess
import sys
from decimal import Decimal

import pytest

from ledgerlite import accounts
from ledgerlite.amount import Amount, MixedAmount
from ledgerlite.journal import JournalError, ParseError
from ledgerlite.loader import load_journal, read_journal
from ledgerlite.parser import parse_journal
from ledgerlite.query import QueryError, parse_period, parse_query
from ledgerlite.reports import balance_report, register_report, render_balance, render_register

SAMPLE = """\
2024-01-01 * Opening
    assets:bank   $500.00
    equity

2024-01-10 Shop
    expenses:food   $20
    assets:bank   = $480.00
"""


def test_parse_and_infer():
    j = read_journal(SAMPLE)
    assert j.transactions[0].postings[1].amount == Amount(Decimal("-500.00"), "$")
    assert j.transactions[1].postings[1].inferred


def test_parse_error_location():
    with pytest.raises(ParseError) as info:
        parse_journal("2024-01-01 x\n    a::b  $1\n", source="s")
    assert str(info.value).startswith("s:2: invalid account name")


def test_unbalanced_and_failed_assertion():
    with pytest.raises(JournalError, match="unbalanced by \\$1"):
        read_journal("2024-01-01 x\n    a  $1\n    b  $0\n")
    with pytest.raises(JournalError, match="expected \\$1.00, calculated \\$480.00"):
        read_journal(SAMPLE.replace("= $480.00", "= $1.00"))


def test_tree_helpers():
    assert accounts.sort_accounts(["a-c", "a:b", "a"]) == ["a", "a:b", "a-c"]
    assert accounts.rollup({"a:b": MixedAmount([Amount(Decimal(1), "$")])})["a"].quantity("$") == 1


def test_query_and_period():
    assert parse_period("2024-01..2024-03")[1].month == 3
    with pytest.raises(QueryError):
        parse_query(["status:?"])


def test_reports():
    j = read_journal(SAMPLE)
    assert render_balance(balance_report(j, depth=1), total=False) == " $480.00  assets\n-$500.00  equity\n  $20.00  expenses\n"
    assert len(register_report(j, parse_query("bank")).rows) == 2
    assert render_register(register_report(j, parse_query("food"))).startswith("2024-01-10 Shop ")


def test_examples_load():
    assert len(load_journal("examples/household.journal").transactions) == 14
    assert len(load_journal("examples/travel.journal").transactions) == 7


def test_cli_check():
    proc = subprocess.run(
        [sys.executable, "-m", "ledgerlite", "-f", "examples/household.journal", "check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout == "ok: 14 transactions, 31 postings\n"
