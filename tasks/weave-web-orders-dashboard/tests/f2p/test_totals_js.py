"""site/js/totals.js on hidden cases: string amounts, refunded orders, money format."""

from __future__ import annotations

import pytest
from _node import run_js


def totals(orders_js: str):
    return run_js(
        f"const t = T.computeTotals({orders_js});\n"
        "console.log(JSON.stringify({orders: t.orders, revenue: t.revenue, "
        "refunded: t.refunded, type: typeof t.revenue}));"
    )


def test_string_amounts_are_added():
    t = totals(
        '[{"total": "0.10", "status": "paid"}, {"total": "0.20", "status": "shipped"},'
        ' {"total": "1999.99", "status": "delivered"}, {"total": "41.75", "status": "paid"}]'
    )
    assert t["type"] == "number", f"revenue is a {t['type']}: {t['revenue']!r}"
    assert t["orders"] == 4
    assert abs(t["revenue"] - 2042.04) < 1e-6


def test_refunded_orders_left_out():
    t = totals(
        '[{"total": "100.00", "status": "refunded"}, {"total": "12.34", "status": "paid"},'
        ' {"total": "8.00", "status": "refunded"}, {"total": "0.66", "status": "delivered"}]'
    )
    assert (t["orders"], t["refunded"]) == (2, 2)
    assert abs(t["revenue"] - 13.00) < 1e-6


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("6072.399999999998", "$6,072.40"),
        ("0.1 + 0.2", "$0.30"),
        ("5", "$5.00"),
        ("1234567.5", "$1,234,567.50"),
        ("999.999", "$1,000.00"),
        ('"2187.1"', "$2,187.10"),
    ],
)
def test_money_format(value, expected):
    assert run_js(f"console.log(JSON.stringify(T.formatMoney({value})));") == expected
