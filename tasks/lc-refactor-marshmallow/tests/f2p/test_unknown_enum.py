"""Sub-step 3: ``marshmallow.constants`` with the ``Unknown`` enum and ``missing``."""

import enum
import json

import pytest

import marshmallow
from marshmallow import Schema, ValidationError, fields, utils


def _constants():
    import marshmallow.constants

    return marshmallow.constants


def test_unknown_enum_members():
    Unknown = _constants().Unknown
    assert issubclass(Unknown, enum.Enum)
    assert issubclass(Unknown, str)
    assert {m.name: m.value for m in Unknown} == {
        "RAISE": "raise",
        "INCLUDE": "include",
        "EXCLUDE": "exclude",
    }
    assert marshmallow.Unknown is Unknown


@pytest.mark.parametrize("name", ["RAISE", "INCLUDE", "EXCLUDE"])
def test_constants_are_the_enum_members_everywhere(name):
    constants = _constants()
    member = getattr(constants.Unknown, name)
    assert getattr(constants, name) is member
    assert getattr(marshmallow, name) is member
    assert getattr(utils, name) is member
    assert member == name.lower()


def test_missing_sentinel_moved_to_constants():
    constants = _constants()
    assert marshmallow.missing is constants.missing
    assert utils.missing is constants.missing
    assert not constants.missing
    assert repr(constants.missing) == "<marshmallow.missing>"


def test_options_are_normalised_to_members():
    Unknown = _constants().Unknown

    class NormDefaultSchema(Schema):
        a = fields.Int()

    class NormExcludeSchema(Schema):
        a = fields.Int()

        class Meta:
            unknown = "exclude"

    assert NormDefaultSchema.opts.unknown is Unknown.RAISE
    assert NormDefaultSchema().unknown is Unknown.RAISE
    assert NormExcludeSchema.opts.unknown is Unknown.EXCLUDE
    assert NormExcludeSchema().unknown is Unknown.EXCLUDE
    assert NormDefaultSchema(unknown="include").unknown is Unknown.INCLUDE
    assert NormDefaultSchema(unknown=Unknown.EXCLUDE).unknown is Unknown.EXCLUDE


def test_members_and_strings_behave_the_same_on_load():
    Unknown = _constants().Unknown

    class LoadSchema(Schema):
        a = fields.Int()

    data = {"a": "1", "extra": True}
    assert LoadSchema(unknown=Unknown.INCLUDE).load(data) == {"a": 1, "extra": True}
    assert LoadSchema().load(data, unknown="include") == {"a": 1, "extra": True}
    assert LoadSchema().load(data, unknown=Unknown.EXCLUDE) == {"a": 1}
    assert LoadSchema().loads(json.dumps(data), unknown="exclude") == {"a": 1}
    with pytest.raises(ValidationError) as excinfo:
        LoadSchema().load(data)
    assert excinfo.value.messages == {"extra": ["Unknown field."]}


def test_invalid_meta_option_raises_value_error():
    with pytest.raises(ValueError, match="'ignore'"):

        class BadMetaSchema(Schema):
            class Meta:
                unknown = "ignore"


@pytest.mark.parametrize("bad", ["RAISE", "skip", 1])
def test_invalid_constructor_value_raises_value_error(bad):
    class CtorSchema(Schema):
        a = fields.Int()

    with pytest.raises(ValueError) as excinfo:
        CtorSchema(unknown=bad)
    assert repr(bad) in str(excinfo.value)


def test_invalid_load_value_raises_value_error():
    class LoadArgSchema(Schema):
        a = fields.Int()

    with pytest.raises(ValueError, match="'Include'"):
        LoadArgSchema().load({"a": 1}, unknown="Include")
    with pytest.raises(ValueError, match="'drop'"):
        LoadArgSchema().loads('{"a": 1}', unknown="drop")


def test_nested_unknown_is_validated_and_normalised():
    Unknown = _constants().Unknown

    class InnerSchema(Schema):
        b = fields.Int()

    with pytest.raises(ValueError, match="'bogus'"):
        fields.Nested(InnerSchema, unknown="bogus")

    field = fields.Nested(InnerSchema, unknown="include")
    assert field.unknown is Unknown.INCLUDE

    class OuterSchema(Schema):
        inner = fields.Nested(InnerSchema, unknown="include")

    assert OuterSchema().load({"inner": {"b": 1, "c": 2}}) == {"inner": {"b": 1, "c": 2}}
