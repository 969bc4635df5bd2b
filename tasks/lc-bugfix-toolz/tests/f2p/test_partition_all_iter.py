"""Bug 1: partition_all must not lose the last element of iterators."""

import pytest

import toolz.curried
from toolz import partition_all


def _gen(seq):
    for item in seq:
        yield item


class NoLen:
    """An iterable without __len__."""

    def __init__(self, items):
        self.items = list(items)

    def __iter__(self):
        return iter(self.items)


def test_report_example():
    assert list(partition_all(3, iter(range(7)))) == [(0, 1, 2), (3, 4, 5), (6,)]


@pytest.mark.parametrize("n,length", [(2, 1), (2, 5), (3, 4), (4, 9), (5, 6), (7, 15)])
def test_iterator_matches_list(n, length):
    data = list(range(length))
    expected = list(partition_all(n, data))
    assert list(partition_all(n, iter(data))) == expected
    assert list(partition_all(n, _gen(data))) == expected
    assert [x for chunk in partition_all(n, iter(data)) for x in chunk] == data


def test_generator_of_strings():
    assert list(partition_all(2, _gen("abcde"))) == [("a", "b"), ("c", "d"), ("e",)]


def test_falsy_values_are_kept():
    data = [None, 0, "", None, False]
    assert list(partition_all(2, iter(data))) == [(None, 0), ("", None), (False,)]


def test_iterable_without_len():
    assert list(partition_all(4, NoLen("abcdefghi"))) == [
        ("a", "b", "c", "d"),
        ("e", "f", "g", "h"),
        ("i",),
    ]


def test_curried_partition_all_on_generator():
    chunks = toolz.curried.partition_all(3)
    assert list(chunks(_gen([1, 2, 3, 4]))) == [(1, 2, 3), (4,)]
