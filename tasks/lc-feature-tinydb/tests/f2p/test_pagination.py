"""skip/limit pagination of search and all."""

import pytest

from tinydb import Query, TinyDB, desc, where
from tinydb.storages import MemoryStorage


@pytest.fixture
def db():
    database = TinyDB(storage=MemoryStorage)
    database.insert_multiple({'n': n, 'even': n % 2 == 0} for n in [5, 3, 8, 1, 9, 2, 7])
    return database


def ns(docs):
    return [d['n'] for d in docs]


def test_limit_on_all(db):
    assert ns(db.all(limit=3)) == [5, 3, 8]
    assert ns(db.all(limit=100)) == [5, 3, 8, 1, 9, 2, 7]
    assert db.all(limit=0) == []


def test_skip_on_all(db):
    assert ns(db.all(skip=4)) == [9, 2, 7]
    assert db.all(skip=7) == []
    assert db.all(skip=50) == []


def test_pages(db):
    pages = [ns(db.all(order_by='n', skip=offset, limit=3)) for offset in (0, 3, 6, 9)]
    assert pages == [[1, 2, 3], [5, 7, 8], [9], []]


def test_search_with_limit_and_skip(db):
    q = where('even') == False  # noqa: E712
    assert ns(db.search(q)) == [5, 3, 1, 9, 7]
    assert ns(db.search(q, skip=1, limit=2)) == [3, 1]
    assert ns(db.search(q, order_by=desc('n'), limit=2)) == [9, 7]
    assert ns(db.search(q, order_by='n', skip=3)) == [7, 9]


def test_limit_none_is_no_limit(db):
    assert ns(db.all(limit=None, skip=5)) == [2, 7]


def test_pagination_does_not_change_cached_results(db):
    q = Query().n > 2
    assert ns(db.search(q, limit=1)) == [5]
    assert ns(db.search(q)) == [5, 3, 8, 9, 7]
    assert ns(db.search(q, skip=4)) == [7]
    assert db.count(q) == 5


def test_returns_documents(db):
    got = db.all(skip=2, limit=1)
    assert got[0].doc_id == 3
    assert got == [{'n': 8, 'even': True}]
