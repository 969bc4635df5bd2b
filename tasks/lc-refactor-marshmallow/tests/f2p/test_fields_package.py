"""Sub-step 6: ``marshmallow/fields.py`` becomes the ``marshmallow/fields/`` package."""

import ast
import datetime as dt
import decimal
import importlib
import ipaddress
import uuid
from pathlib import Path

import pytest

import marshmallow
from marshmallow import Schema, fields

LAYOUT = {
    "base": ["Field", "Raw"],
    "nested": ["Nested", "Pluck"],
    "containers": ["List", "Tuple", "Mapping", "Dict"],
    "strings": ["String", "UUID", "Url", "Email"],
    "numbers": ["Number", "Integer", "Float", "Decimal"],
    "temporal": ["DateTime", "NaiveDateTime", "AwareDateTime", "Time", "Date", "TimeDelta"],
    "network": ["IP", "IPv4", "IPv6", "IPInterface", "IPv4Interface", "IPv6Interface"],
    "misc": ["Boolean", "Method", "Function", "Constant", "Inferred"],
}

ALIASES = {
    "strings": {"Str": "String", "URL": "Url"},
    "numbers": {"Int": "Integer"},
    "misc": {"Bool": "Boolean"},
}

ORIGINAL_ALL = {
    "Field", "Raw", "Nested", "Mapping", "Dict", "List", "Tuple", "String", "UUID",
    "Number", "Integer", "Decimal", "Boolean", "Float", "DateTime", "NaiveDateTime",
    "AwareDateTime", "Time", "Date", "TimeDelta", "Url", "URL", "Email", "IP", "IPv4",
    "IPv6", "IPInterface", "IPv4Interface", "IPv6Interface", "Method", "Function", "Str",
    "Bool", "Int", "Constant", "Pluck",
}

CASES = [(mod, name) for mod, names in LAYOUT.items() for name in names]


def test_fields_is_a_package_and_the_module_is_gone():
    assert hasattr(fields, "__path__")
    assert Path(fields.__file__).name == "__init__.py"
    assert not (Path(marshmallow.__file__).parent / "fields.py").exists()


@pytest.mark.parametrize(("module", "name"), CASES)
def test_class_is_defined_in_its_submodule(module, name):
    mod = importlib.import_module(f"marshmallow.fields.{module}")
    cls = getattr(mod, name)
    assert cls.__module__ == f"marshmallow.fields.{module}"
    assert getattr(fields, name) is cls


@pytest.mark.parametrize("module", sorted(ALIASES))
def test_aliases_live_next_to_their_classes(module):
    mod = importlib.import_module(f"marshmallow.fields.{module}")
    for alias, target in ALIASES[module].items():
        assert getattr(mod, alias) is getattr(mod, target)
        assert getattr(fields, alias) is getattr(mod, target)


def test_public_names_are_unchanged_and_come_from_submodules():
    assert set(fields.__all__) == ORIGINAL_ALL
    for name in fields.__all__:
        cls = getattr(fields, name)
        assert issubclass(cls, fields.Field)
        assert cls.__module__.startswith("marshmallow.fields."), (name, cls.__module__)


def test_package_init_defines_no_classes():
    tree = ast.parse(Path(fields.__file__).read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]


def test_class_hierarchy_is_unchanged():
    from marshmallow.base import FieldABC
    from marshmallow.fields.base import Field, Raw
    from marshmallow.fields.containers import Dict, Mapping
    from marshmallow.fields.nested import Nested, Pluck
    from marshmallow.fields.network import IP, IPInterface, IPv4, IPv6Interface
    from marshmallow.fields.numbers import Decimal, Integer, Number
    from marshmallow.fields.strings import UUID, Email, String, Url
    from marshmallow.fields.temporal import (
        AwareDateTime,
        Date,
        DateTime,
        NaiveDateTime,
        Time,
    )

    pairs = [
        (Raw, Field),
        (Nested, Field),
        (Pluck, Nested),
        (Dict, Mapping),
        (UUID, String),
        (Url, String),
        (Email, String),
        (Integer, Number),
        (Decimal, Number),
        (NaiveDateTime, DateTime),
        (AwareDateTime, DateTime),
        (Date, DateTime),
        (Time, DateTime),
        (IPv4, IP),
        (IPv6Interface, IPInterface),
    ]
    for sub, base in pairs:
        assert issubclass(sub, base), (sub, base)
    assert issubclass(Field, FieldABC)


def test_schema_round_trip_across_submodules():
    from marshmallow.fields.misc import Constant, Method
    from marshmallow.fields.network import IPv4
    from marshmallow.fields.nested import Pluck

    class ItemSchema(Schema):
        sku = fields.Str(required=True)

    class OrderSchema(Schema):
        id = fields.UUID()
        total = fields.Decimal(as_string=True)
        qty = fields.Int()
        paid = fields.Bool()
        created = fields.DateTime()
        tags = fields.List(fields.Str())
        meta = fields.Dict(keys=fields.Str(), values=fields.Int())
        items = fields.List(fields.Nested(ItemSchema))
        first_sku = Pluck(ItemSchema, "sku")
        ip = IPv4()
        label = Method("get_label")
        kind = Constant("order")

        def get_label(self, obj):
            return "#" + str(obj["qty"])

    order = {
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        "total": decimal.Decimal("9.50"),
        "qty": 2,
        "paid": True,
        "created": dt.datetime(2021, 7, 1, 12, 0),
        "tags": ["a"],
        "meta": {"x": 1},
        "items": [{"sku": "A1"}],
        "first_sku": {"sku": "A1"},
        "ip": ipaddress.IPv4Address("127.0.0.1"),
    }
    dumped = OrderSchema().dump(order)
    assert dumped["id"] == "12345678-1234-5678-1234-567812345678"
    assert dumped["total"] == "9.50"
    assert dumped["created"] == "2021-07-01T12:00:00"
    assert dumped["first_sku"] == "A1"
    assert dumped["label"] == "#2"
    assert dumped["kind"] == "order"
    assert dumped["ip"] == "127.0.0.1"
    loaded = OrderSchema().load({k: v for k, v in dumped.items() if k != "label"})
    assert loaded["total"] == decimal.Decimal("9.50")
    assert loaded["items"] == [{"sku": "A1"}]
    assert loaded["first_sku"] == {"sku": "A1"}
