"""Table.distinct and Table.count() without a condition."""

import pytest

from tinydb import Query, TinyDB, where
from tinydb.storages import JSONStorage, MemoryStorage


@pytest.fixture(params=['memory', 'json'])
def db(request, tmp_path):
    if request.param == 'json':
        database = TinyDB(tmp_path / 'db.json', storage=JSONStorage)
    else:
        database = TinyDB(storage=MemoryStorage)
    database.insert_multiple([
        {'fruit': 'apple', 'color': 'red', 'origin': {'country': 'NZ'}, 'sizes': [1, 2]},
        {'fruit': 'pear', 'color': 'green', 'origin': {'country': 'IT'}, 'sizes': [3]},
        {'fruit': 'apple', 'color': 'green', 'sizes': [1, 2]},
        {'fruit': 'cherry', 'color': None, 'origin': {'country': 'NZ'}},
        {'color': 'red'},
        {'fruit': 'pear', 'color': None},
    ])
    yield database
    database.close()


def test_distinct_values_in_first_occurrence_order(db):
    assert db.distinct('fruit') == ['apple', 'pear', 'cherry']


def test_distinct_none_is_a_value(db):
    assert db.distinct('color') == ['red', 'green', None]


def test_distinct_nested_field(db):
    assert db.distinct(Query().origin.country) == ['NZ', 'IT']


def test_distinct_with_condition(db):
    assert db.distinct('fruit', where('color') == 'green') == ['pear', 'apple']
    assert db.distinct('color', Query().fruit == 'pear') == ['green', None]
    assert db.distinct('fruit', Query().fruit == 'kiwi') == []


def test_distinct_unhashable_values(db):
    assert db.distinct('sizes') == [[1, 2], [3]]


def test_distinct_on_table_and_empty_table(db):
    table = db.table('other')
    assert table.distinct('x') == []
    table.insert_multiple([{'x': {'a': 1}}, {'x': {'a': 1}}, {'x': {'a': 2}}])
    assert table.distinct('x') == [{'a': 1}, {'a': 2}]


def test_count_without_condition(db):
    assert db.count() == 6
    assert db.count(Query().fruit == 'apple') == 2
    assert db.table('empty').count() == 0
    db.remove(doc_ids=[1])
    assert db.count() == 5
