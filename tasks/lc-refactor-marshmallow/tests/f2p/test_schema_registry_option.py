"""Sub-step 2: the ``registry`` class Meta option and per-schema name lookup."""

import pytest

from marshmallow import Schema, class_registry, fields
from marshmallow.exceptions import RegistryError


@pytest.fixture
def reg():
    return class_registry.ClassRegistry()


def test_default_option_is_the_default_registry():
    class OptDefaultSchema(Schema):
        x = fields.Int()

    assert OptDefaultSchema.opts.registry is class_registry.default_registry
    assert "OptDefaultSchema" in class_registry.default_registry


def test_schema_is_registered_only_in_its_registry(reg):
    class OptOwnRegistrySchema(Schema):
        x = fields.Int()

        class Meta:
            registry = reg

    assert OptOwnRegistrySchema.opts.registry is reg
    assert "OptOwnRegistrySchema" in reg
    assert reg.get_class("OptOwnRegistrySchema") is OptOwnRegistrySchema
    assert "OptOwnRegistrySchema" not in class_registry.default_registry


def test_registry_option_is_inherited(reg):
    class OptBaseSchema(Schema):
        class Meta:
            registry = reg

    class OptDerivedSchema(OptBaseSchema):
        y = fields.Str()

    assert OptDerivedSchema.opts.registry is reg
    assert "OptDerivedSchema" in reg
    assert "OptDerivedSchema" not in class_registry.default_registry


def test_register_false_registers_nowhere(reg):
    class OptUnregisteredSchema(Schema):
        class Meta:
            registry = reg
            register = False

    assert "OptUnregisteredSchema" not in reg
    assert "OptUnregisteredSchema" not in class_registry.default_registry


def test_nested_name_resolves_in_the_owning_schemas_registry(reg):
    # A same-named schema also exists in the default registry; it must not be used.
    class OptSharedChildSchema(Schema):
        default_only = fields.Str()

    class Base(Schema):
        class Meta:
            registry = reg

    own_child = type(
        "OptSharedChildSchema",
        (Base,),
        {"value": fields.Int(), "__module__": "api.v2.schemas"},
    )

    class OptParentSchema(Base):
        child = fields.Nested("OptSharedChildSchema")
        children = fields.List(fields.Nested("OptSharedChildSchema"))

    assert reg.get_class("OptSharedChildSchema") is own_child
    loaded = OptParentSchema().load({"child": {"value": "1"}, "children": [{"value": 2}]})
    assert loaded == {"child": {"value": 1}, "children": [{"value": 2}]}
    dumped = OptParentSchema().dump({"child": {"value": 3}, "children": [{"value": 4}]})
    assert dumped == {"child": {"value": 3}, "children": [{"value": 4}]}


def test_nested_chain_stays_in_the_custom_registry(reg):
    class Base(Schema):
        class Meta:
            registry = reg

    class OptLeafSchema(Base):
        n = fields.Int()

    class OptMiddleSchema(Base):
        leaf = fields.Nested("OptLeafSchema")

    class OptTopSchema(Base):
        middle = fields.Nested("OptMiddleSchema")

    assert OptTopSchema().load({"middle": {"leaf": {"n": "5"}}}) == {
        "middle": {"leaf": {"n": 5}}
    }


def test_name_missing_from_owning_registry_is_an_error(reg):
    class OptOnlyInDefaultSchema(Schema):
        a = fields.Int()

    class OptLookupParentSchema(Schema):
        other = fields.Nested("OptOnlyInDefaultSchema")

        class Meta:
            registry = reg

    with pytest.raises(RegistryError):
        OptLookupParentSchema().dump({"other": {"a": 1}})


def test_unbound_nested_uses_default_registry():
    class OptUnboundTargetSchema(Schema):
        a = fields.Int()

    other = class_registry.ClassRegistry()
    type("OptUnboundTargetSchema", (Schema,), {"Meta": type("Meta", (), {"registry": other})})
    assert "OptUnboundTargetSchema" in other
    field = fields.Nested("OptUnboundTargetSchema")
    assert isinstance(field.schema, OptUnboundTargetSchema)


def test_invalid_registry_option_raises_value_error():
    with pytest.raises(ValueError):

        class OptBadRegistrySchema(Schema):
            class Meta:
                registry = {}
