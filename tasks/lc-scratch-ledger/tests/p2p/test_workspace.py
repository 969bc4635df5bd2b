"""The provided skeleton, sample journals and requirement document stay intact."""

import re
from decimal import Decimal
from pathlib import Path

import pytest

import ledgerlite
from ledgerlite.amount import SYMBOLS, Amount, MixedAmount, parse_amount

EXAMPLES = Path("examples")


def test_version():
    assert ledgerlite.__version__ == "0.1.0"


def test_symbols_unchanged():
    assert SYMBOLS == "$€£¥"


@pytest.mark.parametrize(("name", "headers"), [("household.journal", 14), ("travel.journal", 7)])
def test_sample_journal_transactions(name, headers):
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    assert sum(1 for line in lines if line[:1].isdigit()) == headers


@pytest.mark.parametrize("name", ["household.journal", "travel.journal"])
def test_sample_journal_amounts_parse(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    found = re.findall(r"-?\$[\d,]+(?:\.\d+)?|-?[\d.]+ (?:EUR|ACME)", text)
    assert found
    for token in found:
        parse_amount(token)


def test_household_dollar_postings_sum_to_zero_without_elided():
    text = (EXAMPLES / "household.journal").read_text(encoding="utf-8")
    block = text.split("2024-02-20 * Transfer to savings\n", 1)[1].split("\n\n", 1)[0]
    amounts = [parse_amount(line.split("  ")[-1]) for line in block.splitlines()]
    assert MixedAmount(amounts).is_zero()


def test_requirements_document_sections():
    doc = Path("docs/REQUIREMENTS.md").read_text(encoding="utf-8")
    for n in range(1, 12):
        assert re.search(rf"^## {n}\. ", doc, re.MULTILINE), n
    assert len(doc.split()) > 2500


def test_mixed_amount_negation_and_equality():
    m = MixedAmount([Amount(Decimal("1.0"), "$")])
    assert m == MixedAmount([Amount(Decimal("1.00"), "$")])
    assert -m == MixedAmount([Amount(Decimal(-1), "$")])
    assert m == Amount(Decimal(1), "$")
    assert MixedAmount() == MixedAmount([Amount(Decimal(0), "EUR")])
