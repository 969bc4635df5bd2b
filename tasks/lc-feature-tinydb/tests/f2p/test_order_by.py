"""Ordering search results with order_by, asc() and desc()."""

import pytest

import tinydb
from tinydb import Query, TinyDB, asc, desc, where
from tinydb.storages import JSONStorage, MemoryStorage

PEOPLE = [
    {'name': 'Carl', 'age': 30, 'city': {'name': 'Oslo'}},
    {'name': 'Anna', 'age': 25, 'city': {'name': 'Bern'}},
    {'name': 'Bert', 'age': 30},
    {'name': 'Dora', 'age': None, 'city': {'name': 'Athens'}},
    {'name': 'Eve'},
    {'name': 'Finn', 'age': 19, 'city': {'name': 'Bern'}},
]


@pytest.fixture(params=['memory', 'json'])
def db(request, tmp_path):
    if request.param == 'json':
        database = TinyDB(tmp_path / 'db.json', storage=JSONStorage)
    else:
        database = TinyDB(storage=MemoryStorage)
    database.insert_multiple(PEOPLE)
    yield database
    database.close()


def names(docs):
    return [d['name'] for d in docs]


def test_exports():
    assert 'asc' in tinydb.__all__ and 'desc' in tinydb.__all__
    assert tinydb.asc is asc and tinydb.desc is desc


def test_all_ascending_by_string_field(db):
    assert names(db.all(order_by='name')) == ['Anna', 'Bert', 'Carl', 'Dora', 'Eve', 'Finn']
    assert names(db.all(order_by=asc('name'))) == names(db.all(order_by='name'))


def test_descending(db):
    assert names(db.all(order_by=desc('name'))) == ['Finn', 'Eve', 'Dora', 'Carl', 'Bert', 'Anna']


def test_missing_and_none_last_in_both_directions_ties_stable(db):
    assert names(db.all(order_by='age')) == ['Finn', 'Anna', 'Carl', 'Bert', 'Dora', 'Eve']
    assert names(db.all(order_by=desc('age'))) == ['Carl', 'Bert', 'Anna', 'Finn', 'Dora', 'Eve']


def test_multiple_keys(db):
    got = db.all(order_by=[desc('age'), 'name'])
    assert names(got) == ['Bert', 'Carl', 'Anna', 'Finn', 'Dora', 'Eve']
    got = db.all(order_by=(asc(Query().city.name), desc('name')))
    assert names(got) == ['Dora', 'Finn', 'Anna', 'Carl', 'Eve', 'Bert']


def test_nested_query_path(db):
    got = db.search(Query().city.exists(), order_by=Query().city.name)
    assert names(got) == ['Dora', 'Anna', 'Finn', 'Carl']
    got = db.search(where('city').exists(), order_by=desc(where('city')['name']))
    assert names(got) == ['Carl', 'Anna', 'Finn', 'Dora']


def test_search_with_condition(db):
    got = db.search(Query().city.exists(), order_by=desc('name'))
    assert names(got) == ['Finn', 'Dora', 'Carl', 'Anna']
    got = db.search(Query().name < 'D', order_by=desc('age'))
    assert names(got) == ['Carl', 'Bert', 'Anna']


def test_results_are_documents_with_ids(db):
    got = db.all(order_by='name')
    assert [d.doc_id for d in got] == [2, 3, 1, 4, 5, 6]
    assert got[0] == PEOPLE[1]


def test_incomparable_values_raise_type_error():
    db = TinyDB(storage=MemoryStorage)
    db.insert_multiple([{'v': 1}, {'v': 'one'}])
    with pytest.raises(TypeError):
        db.all(order_by='v')


def test_plain_search_and_cache_unaffected(db):
    q = Query().age.exists()
    assert names(db.search(q)) == ['Carl', 'Anna', 'Bert', 'Dora', 'Finn']
    assert names(db.search(q, order_by='age')) == ['Finn', 'Anna', 'Carl', 'Bert', 'Dora']
    assert names(db.search(q)) == ['Carl', 'Anna', 'Bert', 'Dora', 'Finn']
    assert names(db.all()) == [p['name'] for p in PEOPLE]


def test_table_level(db):
    table = db.table('scores')
    table.insert_multiple([{'s': 3}, {'s': 1}, {'s': 2}])
    assert [d['s'] for d in table.all(order_by=desc('s'))] == [3, 2, 1]
    assert [d['s'] for d in table.search(where('s') > 1, order_by='s')] == [2, 3]
