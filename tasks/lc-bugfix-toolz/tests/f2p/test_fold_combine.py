"""Bug 2: toolz.sandbox.parallel.fold must merge chunk results with ``combine``."""

from functools import reduce
from operator import add

import pytest

from toolz.sandbox.parallel import fold


def count(acc, _item):
    return acc + 1


def longest(best, word):
    return max(best, len(word))


def test_count_with_combine():
    assert fold(count, list(range(10)), 0, chunksize=4, combine=add) == 10


def test_longest_word_with_combine_max():
    words = ["a", "bbb", "cc", "dddd", "e"]
    assert fold(longest, words, 0, chunksize=2, combine=max) == 4


@pytest.mark.parametrize("chunksize", [2, 3, 5, 8, 16])
def test_matches_sequential_reduction(chunksize):
    data = list(range(1, 40))
    expected = reduce(count, data, 0)
    assert fold(count, data, 0, chunksize=chunksize, combine=add) == expected


def test_collect_into_lists():
    data = list(range(23))

    def append(acc, x):
        return acc + [x]

    result = fold(append, data, [], chunksize=4, combine=add)
    assert sorted(result) == data


def test_generator_input_with_combine():
    # 10 items in chunks of 3: the last chunk has a single item.
    gen = (c for c in "abcdefghij")
    assert fold(count, gen, 0, chunksize=3, combine=add) == 10


def test_generator_input_many_levels():
    gen = (i for i in range(1, 101))  # 100 items, chunks of 3 -> last chunk of one
    assert fold(count, gen, 0, chunksize=3, combine=add) == 100


def test_custom_map_with_combine():
    calls = []

    def recording_map(func, seq):
        calls.append(func)
        return map(func, seq)

    assert fold(count, list(range(20)), 0, map=recording_map, chunksize=6, combine=add) == 20
    assert calls  # the provided map implementation is used
