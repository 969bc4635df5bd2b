"""Bug 4: reduceby without init must not apply binop to the first item twice."""

from operator import add

import toolz.curried
from toolz import reduceby


def iseven(x):
    return x % 2 == 0


def test_report_example():
    assert reduceby(iseven, add, [1, 2, 3, 4]) == {False: 4, True: 6}


def test_string_concatenation():
    assert reduceby(len, add, ["a", "bb", "c"]) == {1: "ac", 2: "bb"}


def test_single_item_group_is_the_item():
    assert reduceby(iseven, add, [1]) == {False: 1}
    assert reduceby(iseven, add, [3, 4]) == {False: 3, True: 4}


def test_index_key():
    pairs = [("a", 1), ("b", 2), ("a", 3)]

    def merge(x, y):
        return (x[0], x[1] + y[1])

    assert reduceby(0, merge, pairs) == {"a": ("a", 4), "b": ("b", 2)}


def test_single_index_list_key():
    pairs = [("a", 1), ("b", 2), ("a", 3), ("a", 5)]

    def merge(x, y):
        return (x[0], x[1] + y[1])

    assert reduceby([0], merge, pairs) == {("a",): ("a", 9), ("b",): ("b", 2)}


def test_multiplication_per_group():
    from operator import mul

    assert reduceby(iseven, mul, [1, 2, 3, 4, 5]) == {False: 15, True: 8}


def test_curried_reduceby():
    total_by_parity = toolz.curried.reduceby(iseven, add)
    assert total_by_parity(range(1, 7)) == {False: 9, True: 12}
