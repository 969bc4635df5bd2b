"""Field references resolved by Document.get_field."""

import pytest

from tinydb import Query, TinyDB, where
from tinydb.storages import MemoryStorage
from tinydb.table import Document


@pytest.fixture
def doc():
    return Document(
        {
            'name': 'Ann',
            'a.b': 'dotted key',
            'address': {'city': 'Paris', 'zip code': '75001', 'geo': {'lat': 48.85}},
            'tags': ['x', 'y'],
            'nothing': None,
        },
        doc_id=7,
    )


def test_top_level_string(doc):
    assert doc.get_field('name') == 'Ann'
    assert doc.get_field('tags') == ['x', 'y']


def test_dots_are_not_special_in_strings(doc):
    assert doc.get_field('a.b') == 'dotted key'
    assert doc.get_field('address.city') is None


def test_query_paths(doc):
    assert doc.get_field(Query().address.city) == 'Paris'
    assert doc.get_field(where('address')['zip code']) == '75001'
    assert doc.get_field(Query().address.geo.lat) == 48.85
    assert doc.get_field(Query().name) == 'Ann'
    assert doc.get_field(Query()['a.b']) == 'dotted key'


def test_missing_gives_default(doc):
    assert doc.get_field('age') is None
    assert doc.get_field('age', default=0) == 0
    assert doc.get_field(Query().address.country, 'n/a') == 'n/a'
    assert doc.get_field(Query().phone.mobile, default=-1) == -1


def test_non_mapping_intermediate_is_missing(doc):
    assert doc.get_field(Query().name.first, default='?') == '?'
    assert doc.get_field(Query().tags.x, default='?') == '?'


def test_present_none_is_returned(doc):
    assert doc.get_field('nothing', default='dflt') is None


def test_on_documents_from_a_table():
    db = TinyDB(storage=MemoryStorage)
    db.insert({'user': {'name': 'Bob'}})
    found = db.all()[0]
    assert found.get_field(Query().user.name) == 'Bob'
    assert found.get_field('user') == {'name': 'Bob'}
