"""Table.get with order_by and fields."""

import pytest

from tinydb import Query, TinyDB, desc, where
from tinydb.storages import MemoryStorage


@pytest.fixture
def db():
    database = TinyDB(storage=MemoryStorage)
    database.insert_multiple([
        {'item': 'pen', 'price': 3, 'stock': {'count': 10}},
        {'item': 'ink', 'price': 9, 'stock': {'count': 0}},
        {'item': 'pad', 'price': 1, 'stock': {'count': 4}},
        {'item': 'cap', 'price': 9, 'stock': {'count': 2}},
    ])
    return database


def test_get_cheapest_and_most_expensive(db):
    q = Query().price.exists()
    cheapest = db.get(q, order_by='price')
    assert cheapest['item'] == 'pad'
    assert cheapest.doc_id == 3
    priciest = db.get(q, order_by=desc('price'))
    assert priciest['item'] == 'ink'


def test_get_with_condition_and_nested_order(db):
    got = db.get(Query().price > 2, order_by=desc(Query().stock.count))
    assert got['item'] == 'pen'


def test_get_without_order_by_unchanged(db):
    assert db.get(Query().price == 9)['item'] == 'ink'


def test_get_no_match_is_none(db):
    assert db.get(Query().price > 100, order_by='price') is None
    assert db.get(Query().price > 100, fields=['item']) is None


def test_get_with_fields(db):
    got = db.get(where('item') == 'cap', fields=['item', Query().stock.count])
    assert got == {'item': 'cap', 'stock': {'count': 2}}
    assert got.doc_id == 4


def test_get_by_doc_id_with_fields(db):
    got = db.get(doc_id=2, fields=['price'])
    assert got == {'price': 9}
    assert got.doc_id == 2
    assert db.get(doc_id=2, order_by='price', fields='item') == {'item': 'ink'}
    assert db.get(doc_id=99, fields=['price']) is None


def test_get_by_doc_ids_ordered_and_projected(db):
    got = db.get(doc_ids=[1, 2, 3], order_by='price', fields=['item'])
    assert got == [{'item': 'pad'}, {'item': 'pen'}, {'item': 'ink'}]
    assert [d.doc_id for d in got] == [3, 1, 2]


def test_projected_get_does_not_touch_data(db):
    got = db.get(doc_id=1, fields=[Query().stock])
    got['stock']['count'] = -1
    assert db.get(doc_id=1)['stock'] == {'count': 10}
