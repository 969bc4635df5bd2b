"""Projection of results onto some fields with fields=."""

import pytest

from tinydb import Query, TinyDB, desc, where
from tinydb.storages import JSONStorage, MemoryStorage
from tinydb.table import Document

ROWS = [
    {'name': 'Ann', 'age': 31, 'address': {'city': 'Paris', 'zip': '75001', 'street': 'Rue A'},
     'tags': ['a', 'b']},
    {'name': 'Ben', 'age': 22, 'address': {'city': 'Lyon'}},
    {'name': 'Cid', 'age': 45},
]


@pytest.fixture(params=['memory', 'json'])
def db(request, tmp_path):
    if request.param == 'json':
        database = TinyDB(tmp_path / 'db.json', storage=JSONStorage)
    else:
        database = TinyDB(storage=MemoryStorage)
    database.insert_multiple(ROWS)
    yield database
    database.close()


def test_top_level_fields(db):
    got = db.all(fields=['name', 'age'])
    assert got == [{'name': 'Ann', 'age': 31}, {'name': 'Ben', 'age': 22}, {'name': 'Cid', 'age': 45}]
    assert [d.doc_id for d in got] == [1, 2, 3]
    assert all(isinstance(d, Document) for d in got)


def test_single_field_reference(db):
    assert db.all(fields='name') == [{'name': 'Ann'}, {'name': 'Ben'}, {'name': 'Cid'}]
    assert db.search(Query().age > 40, fields=Query().name) == [{'name': 'Cid'}]


def test_nested_paths_and_merging(db):
    got = db.all(fields=[Query().address.city, Query().address.zip, 'name'])
    assert got[0] == {'address': {'city': 'Paris', 'zip': '75001'}, 'name': 'Ann'}
    assert got[1] == {'address': {'city': 'Lyon'}, 'name': 'Ben'}
    assert got[2] == {'name': 'Cid'}


def test_missing_fields_left_out(db):
    got = db.all(fields=['tags', Query().address.zip])
    assert got == [{'tags': ['a', 'b'], 'address': {'zip': '75001'}}, {}, {}]
    assert [d.doc_id for d in got] == [1, 2, 3]


def test_whole_subdocument(db):
    got = db.search(where('name') == 'Ann', fields=['address'])
    assert got == [{'address': {'city': 'Paris', 'zip': '75001', 'street': 'Rue A'}}]


def test_projected_documents_are_independent_copies(db):
    got = db.search(where('name') == 'Ann', fields=['tags', Query().address.city])
    got[0]['tags'].append('MUTATED')
    got[0]['address']['city'] = 'MUTATED'
    got[0]['extra'] = 1
    fresh = db.search(where('name') == 'Ann')
    assert fresh[0]['tags'] == ['a', 'b']
    assert fresh[0]['address']['city'] == 'Paris'
    assert 'extra' not in fresh[0]
    assert db.get(doc_id=1) == ROWS[0]


def test_projection_applied_after_ordering_and_pagination(db):
    got = db.all(order_by=desc('age'), limit=2, fields=['name'])
    assert got == [{'name': 'Cid'}, {'name': 'Ann'}]
    assert [d.doc_id for d in got] == [3, 1]


def test_fields_none_returns_full_documents(db):
    assert db.all(fields=None) == ROWS


def test_custom_document_class():
    class MyDoc(Document):
        pass

    database = TinyDB(storage=MemoryStorage)
    table = database.table('t')
    table.document_class = MyDoc
    table.insert({'a': 1, 'b': 2})
    got = table.all(fields=['a'])
    assert type(got[0]) is MyDoc
    assert got == [{'a': 1}]
    assert got[0].doc_id == 1
