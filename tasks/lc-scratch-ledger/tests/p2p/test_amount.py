"""Tests for the provided amount helpers (docs/REQUIREMENTS.md, section 2)."""

from decimal import Decimal

import pytest

from ledgerlite.amount import Amount, AmountError, MixedAmount, format_amount, parse_amount


@pytest.mark.parametrize(
    ("text", "quantity", "commodity"),
    [
        ("$1,234.50", "1234.50", "$"),
        ("-$5", "-5", "$"),
        ("$-5", "-5", "$"),
        ("10 EUR", "10", "EUR"),
        ("EUR 10.25", "10.25", "EUR"),
        ("-2.5", "-2.5", ""),
        ("+7", "7", ""),
        ("3AAPL", "3", "AAPL"),
        ("€.5", "0.5", "€"),
    ],
)
def test_parse(text, quantity, commodity):
    a = parse_amount(text)
    assert a.quantity == Decimal(quantity)
    assert a.commodity == commodity


@pytest.mark.parametrize("text", ["", "$", "1,23", "1.2.3", "--5", "-$-5", "5 $ 5", "12kg5", "1e3"])
def test_parse_invalid(text):
    with pytest.raises(AmountError):
        parse_amount(text)


def test_precision():
    assert parse_amount("$1.50").precision == 2
    assert parse_amount("$1").precision == 0
    assert parse_amount("1,000.125 EUR").precision == 3


@pytest.mark.parametrize(
    ("amount", "precision", "text"),
    [
        (Amount(Decimal("1.5"), "$"), None, "$1.5"),
        (Amount(Decimal("1.5"), "$"), 2, "$1.50"),
        (Amount(Decimal("-1.5"), "$"), 2, "-$1.50"),
        (Amount(Decimal("-1234.5"), "EUR"), 2, "-1234.50 EUR"),
        (Amount(Decimal("2.125"), ""), 2, "2.12"),
        (Amount(Decimal("2.135"), ""), 2, "2.14"),
        (Amount(Decimal("-0.001"), "$"), 2, "$0.00"),
        (Amount(Decimal("10"), "AAPL"), 0, "10 AAPL"),
    ],
)
def test_format(amount, precision, text):
    assert format_amount(amount, precision) == text


def test_amount_arithmetic():
    a = parse_amount("$1.50") + parse_amount("$2.25")
    assert a == Amount(Decimal("3.75"), "$")
    assert -a == Amount(Decimal("-3.75"), "$")
    with pytest.raises(AmountError):
        parse_amount("$1") + parse_amount("1 EUR")


def test_mixed_amount():
    m = MixedAmount([parse_amount("$1"), parse_amount("2 EUR"), parse_amount("-$1")])
    assert m.commodities() == ["EUR"]
    assert m.amounts() == [Amount(Decimal(2), "EUR")]
    assert (m + parse_amount("$3")).quantity("$") == Decimal(3)
    assert (m - m).is_zero()
    assert MixedAmount([parse_amount("$0.004")]).rounded({"$": 2}).is_zero()
