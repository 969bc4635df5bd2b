"""Section 6: account names and the account tree."""

from decimal import Decimal

import pytest

from ledgerlite import accounts
from ledgerlite.amount import Amount, MixedAmount


def usd(x):
    return MixedAmount([Amount(Decimal(x), "$")])


def test_components_depth_leaf_parent():
    assert accounts.components("assets:bank:checking") == ["assets", "bank", "checking"]
    assert accounts.depth("assets:bank:checking") == 3
    assert accounts.depth("assets") == 1
    assert accounts.leaf("assets:bank:checking") == "checking"
    assert accounts.leaf("equity") == "equity"
    assert accounts.parent("assets:bank:checking") == "assets:bank"
    assert accounts.parent("assets") is None


def test_ancestors():
    assert accounts.ancestors("a:b:c") == ["a", "a:b"]
    assert accounts.ancestors("a") == []
    assert accounts.ancestors("expenses:eating out:lunch") == ["expenses", "expenses:eating out"]


def test_clip():
    assert accounts.clip("a:b:c", 1) == "a"
    assert accounts.clip("a:b:c", 2) == "a:b"
    assert accounts.clip("a:b:c", 5) == "a:b:c"
    with pytest.raises(ValueError):
        accounts.clip("a:b", 0)


def test_tree_order():
    names = ["a-c", "a:b", "a", "b", "a:b", "A"]
    assert accounts.sort_accounts(names) == ["A", "a", "a:b", "a-c", "b"]
    assert accounts.sort_accounts(iter(["x:y:z", "x:y", "x-y"])) == ["x:y", "x:y:z", "x-y"]


def test_expand():
    assert accounts.expand(["assets:bank:checking", "assets:cash", "equity"]) == [
        "assets",
        "assets:bank",
        "assets:bank:checking",
        "assets:cash",
        "equity",
    ]
    assert accounts.expand([]) == []


def test_rollup():
    eur = MixedAmount([Amount(Decimal(7), "EUR")])
    out = accounts.rollup({"assets:bank:checking": usd(100), "assets:cash": usd(20) + eur, "assets": usd(1)})
    assert list(out) == ["assets", "assets:bank", "assets:bank:checking", "assets:cash"]
    assert out["assets"] == usd(121) + eur
    assert out["assets:bank"] == usd(100)
    assert out["assets:cash"] == usd(20) + eur


def test_clip_balances():
    out = accounts.clip_balances(
        {"expenses:food:dining": usd(5), "expenses:food:groceries": usd(7), "expenses:rent": usd(100), "equity": usd(-1)},
        2,
    )
    assert list(out) == ["equity", "expenses:food", "expenses:rent"]
    assert out["expenses:food"] == usd(12)
    assert accounts.clip_balances({"a:b": usd(1), "a": usd(2)}, 1) == {"a": usd(3)}
