"""Argument validation of the result shaping options."""

import pytest

from tinydb import Query, TinyDB, asc, desc, where
from tinydb.storages import MemoryStorage
from tinydb.table import Document


@pytest.fixture(params=['empty', 'filled'])
def db(request):
    database = TinyDB(storage=MemoryStorage)
    if request.param == 'filled':
        database.insert_multiple([{'a': 2, 'b': {'c': 1}}, {'a': 1, 'b': {'c': 2}}])
    return database




@pytest.mark.parametrize('bad', [5, 2.0, where('a') == 1, Query().a.exists(), {'a': 1}])
def test_order_by_bad_field_type(db, bad):
    with pytest.raises(TypeError):
        db.all(order_by=bad)
    with pytest.raises(TypeError):
        db.search(Query().a.exists(), order_by=[bad])


@pytest.mark.parametrize('bad', [5, where('a') == 1, Query().a.exists()])
def test_sort_key_bad_field_type(db, bad):
    with pytest.raises(TypeError):
        db.all(order_by=asc(bad))
    with pytest.raises(TypeError):
        db.all(order_by=[desc(bad)])


def test_order_by_empty_query_or_map(db):
    with pytest.raises(ValueError):
        db.all(order_by=Query())
    with pytest.raises(ValueError):
        db.all(order_by=desc(Query().a.map(str)))


@pytest.mark.parametrize('bad', [-1, 1.0, '1', True, None])
def test_bad_skip(db, bad):
    with pytest.raises(ValueError, match='skip'):
        db.all(skip=bad)
    with pytest.raises(ValueError, match='skip'):
        db.search(Query().a.exists(), skip=bad)


@pytest.mark.parametrize('bad', [-1, 2.0, '2', False])
def test_bad_limit(db, bad):
    with pytest.raises(ValueError, match='limit'):
        db.all(limit=bad)
    with pytest.raises(ValueError, match='limit'):
        db.search(Query().a.exists(), limit=bad)


@pytest.mark.parametrize('bad', [[5], ['a', where('a') == 1], 7])
def test_bad_fields_type(db, bad):
    with pytest.raises(TypeError):
        db.all(fields=bad)


def test_bad_fields_value(db):
    with pytest.raises(ValueError):
        db.all(fields=[Query()])
    with pytest.raises(ValueError):
        db.search(Query().a.exists(), fields=[Query().b.map(len)])


def test_get_validates(db):
    with pytest.raises(TypeError):
        db.get(Query().a.exists(), order_by=5)
    with pytest.raises(TypeError):
        db.get(doc_id=1, fields=[5])
    with pytest.raises(ValueError):
        db.get(doc_ids=[1, 2], order_by=Query())


def test_distinct_validates(db):
    with pytest.raises(TypeError):
        db.distinct(5)
    with pytest.raises(TypeError):
        db.distinct(where('a') == 1)
    with pytest.raises(ValueError):
        db.distinct(Query())


def test_get_field_validates():
    doc = Document({'a': 1}, doc_id=1)
    with pytest.raises(TypeError):
        doc.get_field(1)
    with pytest.raises(TypeError):
        doc.get_field(where('a') == 1)
    with pytest.raises(ValueError):
        doc.get_field(Query())
    with pytest.raises(ValueError):
        doc.get_field(Query().a.map(str))


def test_valid_values_still_accepted(db):
    assert db.all(skip=0, limit=0) == []
    assert len(db.all(order_by=['a', desc(Query().b.c)], skip=0, limit=None, fields=('a',))) == len(db)
