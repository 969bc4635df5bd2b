import pytest

from tinydb import Query, TinyDB, asc, desc, where
from tinydb.storages import MemoryStorage
from tinydb.table import Document

User = Query()


@pytest.fixture
def users():
    db = TinyDB(storage=MemoryStorage)
    db.insert_multiple([
        {'name': 'John', 'age': 37, 'address': {'city': 'Paris'}},
        {'name': 'Megan', 'age': 27, 'tags': ['a']},
        {'name': 'Bob', 'age': 42, 'address': {'city': 'Oslo'}},
        {'name': 'Ann', 'age': None},
        {'name': 'John', 'age': 22, 'tags': ['a']},
    ])
    return db


def names(docs):
    return [doc['name'] for doc in docs]


def test_get_field():
    doc = Document({'a': {'b': 1}, 'a.b': 2, 'c': None}, doc_id=1)
    assert doc.get_field(User.a.b) == 1
    assert doc.get_field('a.b') == 2
    assert doc.get_field('c', default=0) is None
    assert doc.get_field(User.a.x, default=0) == 0


def test_order_by(users):
    assert names(users.all(order_by='age')) == ['John', 'Megan', 'John', 'Bob', 'Ann']
    assert names(users.all(order_by=desc('age'))) == ['Bob', 'John', 'Megan', 'John', 'Ann']
    assert [d.doc_id for d in users.all(order_by=['name', desc('age')])] == [4, 3, 1, 5, 2]
    assert names(users.search(User.address.exists(), order_by=asc(User.address.city))) \
        == ['Bob', 'John']


def test_order_by_keeps_query_cache(users):
    q = (User.name != 'Ann') & (User.age > 25)
    assert names(users.search(q, order_by='age')) == ['Megan', 'John', 'Bob']
    assert names(users.search(q)) == ['John', 'Megan', 'Bob']


def test_pagination(users):
    assert names(users.all(order_by='name', skip=1, limit=2)) == ['Bob', 'John']
    assert users.all(skip=10) == []
    assert users.all(limit=0) == []


def test_projection(users):
    got = users.search(User.address.exists(), fields=['name', User.address.city])
    assert got == [{'name': 'John', 'address': {'city': 'Paris'}},
                   {'name': 'Bob', 'address': {'city': 'Oslo'}}]
    assert [d.doc_id for d in got] == [1, 3]
    got = users.all(fields=['tags'])
    got[1]['tags'].append('b')
    assert users.get(doc_id=2)['tags'] == ['a']


def test_get(users):
    assert users.get(User.age.exists(), order_by=desc('age'))['name'] == 'Bob'
    assert users.get(doc_id=3, fields='name') == {'name': 'Bob'}
    assert names(users.get(doc_ids=[1, 2, 3], order_by='age')) == ['Megan', 'John', 'Bob']


def test_distinct_and_count(users):
    assert users.distinct('name') == ['John', 'Megan', 'Bob', 'Ann']
    assert users.distinct('tags') == [['a']]
    assert users.distinct(User.address.city, where('name') == 'Bob') == ['Oslo']
    assert users.count() == 5


@pytest.mark.parametrize('kwargs, error', [
    ({'order_by': 1}, TypeError),
    ({'order_by': where('a') == 1}, TypeError),
    ({'order_by': Query()}, ValueError),
    ({'fields': [User.a.map(str)]}, ValueError),
    ({'skip': -1}, ValueError),
    ({'limit': 1.5}, ValueError),
    ({'limit': True}, ValueError),
])
def test_validation(kwargs, error):
    db = TinyDB(storage=MemoryStorage)
    with pytest.raises(error):
        db.all(**kwargs)
