"""Bug 3: a one-element list index returns 1-tuples."""

import toolz.curried
from toolz import countby, groupby, join, pluck
from toolz.itertoolz import getter

ROWS = [
    {"name": "Alice", "dept": "eng", "salary": 100},
    {"name": "Bob", "dept": "ops", "salary": 80},
    {"name": "Carol", "dept": "eng", "salary": 120},
]


def test_getter_single_index():
    assert getter([0])("Alice") == ("A",)
    assert getter(["dept"])(ROWS[0]) == ("eng",)
    assert getter([])("Alice") == ()
    assert getter([0, 1])("Alice") == ("A", "l")


def test_pluck_single_key_list():
    data = [{"id": 1, "name": "cheese"}, {"id": 2, "name": "pies", "price": 1}]
    assert list(pluck(["name"], data)) == [("cheese",), ("pies",)]
    assert list(pluck([1], [[0, 1], [2, 3]])) == [(1,), (3,)]


def test_groupby_single_index_list():
    assert groupby([0], [(1, 2), (1, 3), (2, 2), (2, 4)]) == {
        (1,): [(1, 2), (1, 3)],
        (2,): [(2, 2), (2, 4)],
    }
    assert set(groupby(["dept"], ROWS)) == {("eng",), ("ops",)}


def test_countby_single_index_list():
    assert countby(["dept"], ROWS) == {("eng",): 2, ("ops",): 1}


def test_join_single_index_lists():
    left = [(1, "one"), (2, "two")]
    right = [("uno", 1), ("dos", 2), ("tres", 3)]
    # the right key is a callable producing 1-tuples: it must meet the list-index key
    result = sorted(join([0], left, lambda r: (r[1],), right))
    assert result == [((1, "one"), ("uno", 1)), ((2, "two"), ("dos", 2))]


def test_curried_pluck():
    assert list(toolz.curried.pluck(["name"])(ROWS)) == [("Alice",), ("Bob",), ("Carol",)]
