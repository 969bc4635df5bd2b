"""Section 7: query terms and periods."""

import datetime

import pytest

from ledgerlite.parser import parse_journal
from ledgerlite.query import Query, QueryError, parse_period, parse_query

D = datetime.date

JOURNAL = """\
2024-01-05 * Fresh Market
    expenses:food:groceries   $86.40
    ! liabilities:visa       -$86.40

2024-02-01 Landlord
    expenses:rent   1200 USD
    assets:bank:checking   -1200 USD

2024-02-29 ! Corner Bistro
    expenses:food:dining   12 EUR
    * assets:cash   -12 EUR

2024-03-01 * Market hall
    expenses:food:groceries   $5
    assets:cash   -$5
"""


def _postings():
    j = parse_journal(JOURNAL)
    return [(t, p) for t in j.transactions for p in t.postings]


def _select(*terms):
    q = parse_query(list(terms))
    return [(t.date.isoformat(), p.account) for t, p in _postings() if q.matches(t, p)]


def test_empty_query_matches_everything():
    q = parse_query([])
    assert isinstance(q, Query) and q.is_empty()
    assert all(q.matches(t, p) for t, p in _postings())
    assert not parse_query(["food"]).is_empty()


def test_account_regex_case_insensitive_and_colons():
    assert _select("FOOD") == [
        ("2024-01-05", "expenses:food:groceries"),
        ("2024-02-29", "expenses:food:dining"),
        ("2024-03-01", "expenses:food:groceries"),
    ]
    assert _select("bank:check") == [("2024-02-01", "assets:bank:checking")]
    assert _select("acct:^assets") == [
        ("2024-02-01", "assets:bank:checking"),
        ("2024-02-29", "assets:cash"),
        ("2024-03-01", "assets:cash"),
    ]


def test_same_kind_ored_different_kinds_anded():
    assert _select("rent", "dining") == [("2024-02-01", "expenses:rent"), ("2024-02-29", "expenses:food:dining")]
    assert _select("food", "desc:market") == [
        ("2024-01-05", "expenses:food:groceries"),
        ("2024-03-01", "expenses:food:groceries"),
    ]
    assert _select("desc:landlord", "desc:bistro", "expenses") == [
        ("2024-02-01", "expenses:rent"),
        ("2024-02-29", "expenses:food:dining"),
    ]


def test_not_terms():
    assert _select("expenses", "not:food") == [("2024-02-01", "expenses:rent")]
    assert _select("not:desc:market", "not:assets") == [
        ("2024-02-01", "expenses:rent"),
        ("2024-02-29", "expenses:food:dining"),
    ]


def test_cur_matches_whole_commodity():
    assert [a for _, a in _select("cur:eur")] == ["expenses:food:dining", "assets:cash"]
    assert _select("cur:E") == []
    assert [d for d, _ in _select(r"cur:\$")] == ["2024-01-05", "2024-01-05", "2024-03-01", "2024-03-01"]


def test_status_uses_posting_then_transaction_status():
    assert _select("status:*") == [
        ("2024-01-05", "expenses:food:groceries"),
        ("2024-02-29", "assets:cash"),
        ("2024-03-01", "expenses:food:groceries"),
        ("2024-03-01", "assets:cash"),
    ]
    assert _select("status:!") == [("2024-01-05", "liabilities:visa"), ("2024-02-29", "expenses:food:dining")]
    assert _select("status:") == [("2024-02-01", "expenses:rent"), ("2024-02-01", "assets:bank:checking")]


def test_date_terms():
    assert {d for d, _ in _select("date:2024-02")} == {"2024-02-01", "2024-02-29"}
    assert {d for d, _ in _select("date:2024-02-29")} == {"2024-02-29"}
    assert {d for d, _ in _select("date:2024-01..2024-03")} == {"2024-01-05", "2024-02-01", "2024-02-29"}
    assert {d for d, _ in _select("date:2024-02-02..")} == {"2024-02-29", "2024-03-01"}
    assert {d for d, _ in _select("date:..2024/2/1")} == {"2024-01-05"}


def test_string_query_is_split_on_whitespace():
    q = parse_query("food  not:dining")
    got = [p.account for t, p in _postings() if q.matches(t, p)]
    assert got == ["expenses:food:groceries", "expenses:food:groceries"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024", (D(2024, 1, 1), D(2025, 1, 1))),
        ("2024-02", (D(2024, 2, 1), D(2024, 3, 1))),
        ("2024-12", (D(2024, 12, 1), D(2025, 1, 1))),
        ("2024/3/7", (D(2024, 3, 7), D(2024, 3, 8))),
        ("2024-12-31", (D(2024, 12, 31), D(2025, 1, 1))),
        ("2024-01..2024-03", (D(2024, 1, 1), D(2024, 3, 1))),
        ("2024-02..", (D(2024, 2, 1), None)),
        ("..2024", (None, D(2024, 1, 1))),
        ("2023-06-15..2024", (D(2023, 6, 15), D(2024, 1, 1))),
    ],
)
def test_parse_period(text, expected):
    assert parse_period(text) == expected


@pytest.mark.parametrize(
    "terms",
    [["date:2024-13"], ["date:2024-02-30"], ["date:yesterday"], ["acct:("], ["desc:[a"], ["status:x"], [""], ["not:"], ["acct:"]],
)
def test_query_errors(terms):
    with pytest.raises(QueryError):
        parse_query(terms)
    assert issubclass(QueryError, ValueError)
