"""Sub-step 1: an explicit ClassRegistry object replaces the module-level dict."""

import warnings

import pytest

import marshmallow
from marshmallow import Schema, class_registry, fields
from marshmallow.exceptions import RegistryError


def _cls(name, module):
    return type(name, (), {"__module__": module})


def test_class_registry_class_is_exported():
    assert isinstance(class_registry.ClassRegistry, type)
    assert marshmallow.ClassRegistry is class_registry.ClassRegistry


def test_register_adds_short_name_and_full_path():
    registry = class_registry.ClassRegistry()
    Foo = _cls("Foo", "pkg.alpha")
    registry.register("Foo", Foo)
    assert "Foo" in registry
    assert "pkg.alpha.Foo" in registry
    assert "Bar" not in registry
    assert len(registry) == 2
    assert registry.get_class("Foo") is Foo
    assert registry.get_class("pkg.alpha.Foo") is Foo


def test_same_name_from_another_module_needs_the_full_path():
    registry = class_registry.ClassRegistry()
    FooA = _cls("Foo", "pkg.alpha")
    FooB = _cls("Foo", "pkg.beta")
    registry.register("Foo", FooA)
    registry.register("Foo", FooB)
    assert len(registry) == 3
    with pytest.raises(RegistryError, match="Multiple classes with name 'Foo'"):
        registry.get_class("Foo")
    assert registry.get_class("Foo", all=True) == [FooA, FooB]
    assert registry.get_class("pkg.beta.Foo") is FooB


def test_same_module_path_replaces_the_full_path_entry():
    registry = class_registry.ClassRegistry()
    old = _cls("Thing", "pkg.same")
    new = _cls("Thing", "pkg.same")
    registry.register("Thing", old)
    registry.register("Thing", new)
    assert len(registry) == 2
    assert registry.get_class("pkg.same.Thing") is new


def test_unknown_name_raises_registry_error():
    registry = class_registry.ClassRegistry()
    with pytest.raises(RegistryError, match="Class with name 'Nope' was not found"):
        registry.get_class("Nope")


def test_clear_and_independence():
    first = class_registry.ClassRegistry()
    second = class_registry.ClassRegistry()
    Foo = _cls("IsolatedFoo", "pkg.iso")
    first.register("IsolatedFoo", Foo)
    assert "IsolatedFoo" in first
    assert "IsolatedFoo" not in second
    assert "IsolatedFoo" not in class_registry.default_registry
    first.clear()
    assert len(first) == 0
    assert "IsolatedFoo" not in first


def test_schemas_register_in_default_registry():
    assert isinstance(class_registry.default_registry, class_registry.ClassRegistry)

    class RegistryObjectDefaultSchema(Schema):
        name = fields.Str()

    default = class_registry.default_registry
    assert "RegistryObjectDefaultSchema" in default
    full = RegistryObjectDefaultSchema.__module__ + ".RegistryObjectDefaultSchema"
    assert full in default
    assert default.get_class("RegistryObjectDefaultSchema") is RegistryObjectDefaultSchema
    assert class_registry.get_class(full) is RegistryObjectDefaultSchema


def test_module_functions_use_default_registry():
    Foo = _cls("ModuleFunctionFoo", "pkg.modfunc")
    class_registry.register("ModuleFunctionFoo", Foo)
    assert "ModuleFunctionFoo" in class_registry.default_registry
    assert class_registry.default_registry.get_class("ModuleFunctionFoo") is Foo
    assert class_registry.get_class("pkg.modfunc.ModuleFunctionFoo") is Foo


def test_no_module_level_registry_dict():
    assert "_registry" not in vars(class_registry)


def test_legacy_registry_attribute_warns_and_is_live():
    class LegacyAccessSchema(Schema):
        pass

    with pytest.warns(DeprecationWarning):
        legacy = class_registry._registry
    assert "LegacyAccessSchema" in legacy
    assert legacy["LegacyAccessSchema"] == [LegacyAccessSchema]

    Foo = _cls("LegacyLiveFoo", "pkg.legacy")
    class_registry.default_registry.register("LegacyLiveFoo", Foo)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert "LegacyLiveFoo" in class_registry._registry
    assert "LegacyLiveFoo" in legacy
