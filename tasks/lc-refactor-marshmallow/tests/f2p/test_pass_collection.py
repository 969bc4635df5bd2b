"""Sub-step 5: ``pass_many`` is renamed to ``pass_collection``."""

import inspect
import warnings

import pytest

from marshmallow import (
    Schema,
    ValidationError,
    fields,
    post_dump,
    post_load,
    pre_dump,
    pre_load,
    validates_schema,
)
from marshmallow.warnings import RemovedInMarshmallow4Warning

DECORATORS = [pre_dump, post_dump, pre_load, post_load, validates_schema]


@pytest.mark.parametrize("decorator", DECORATORS, ids=lambda d: d.__name__)
def test_pass_collection_takes_the_place_of_pass_many(decorator):
    params = list(inspect.signature(decorator).parameters)
    assert params[0] == "fn"
    assert params[1] == "pass_collection"
    assert inspect.signature(decorator).parameters["pass_collection"].default is False


def test_load_processors_with_pass_collection_receive_the_collection():
    seen = []

    class EnvelopeSchema(Schema):
        name = fields.Str()

        @pre_load(pass_collection=True)
        def unwrap(self, data, many, **kwargs):
            seen.append(("pre", many, type(data).__name__))
            return data["items" if many else "item"]

        @post_load(pass_collection=True)
        def count(self, data, many, **kwargs):
            seen.append(("post", many, type(data).__name__))
            return {"count": len(data)} if many else data

    result = EnvelopeSchema(many=True).load({"items": [{"name": "a"}, {"name": "b"}]})
    assert result == {"count": 2}
    assert EnvelopeSchema().load({"item": {"name": "c"}}) == {"name": "c"}
    assert seen[:2] == [("pre", True, "dict"), ("post", True, "list")]


def test_dump_processors_with_pass_collection_receive_the_collection():
    class WrapSchema(Schema):
        name = fields.Str()

        @pre_dump(pass_collection=True)
        def sort(self, data, many, **kwargs):
            return sorted(data, key=lambda d: d["name"]) if many else data

        @post_dump(pass_collection=True)
        def wrap(self, data, many, **kwargs):
            return {"results" if many else "result": data}

    dumped = WrapSchema(many=True).dump([{"name": "b"}, {"name": "a"}])
    assert dumped == {"results": [{"name": "a"}, {"name": "b"}]}
    assert WrapSchema().dump({"name": "x"}) == {"result": {"name": "x"}}


def test_validates_schema_with_pass_collection():
    class UniqueSchema(Schema):
        name = fields.Str()

        @validates_schema(pass_collection=True)
        def unique(self, data, many, **kwargs):
            if many and len({d["name"] for d in data}) != len(data):
                raise ValidationError("duplicate names")

    assert UniqueSchema(many=True).validate([{"name": "a"}, {"name": "b"}]) == {}
    errors = UniqueSchema(many=True).validate([{"name": "a"}, {"name": "a"}])
    assert errors == {"_schema": ["duplicate names"]}


@pytest.mark.parametrize("decorator", DECORATORS, ids=lambda d: d.__name__)
def test_pass_many_is_deprecated_at_decoration_time(decorator):
    def hook(self, data, **kwargs):
        return data

    with pytest.warns(RemovedInMarshmallow4Warning) as record:
        decorator(pass_many=True)(hook)
    assert any("pass_collection" in str(w.message) for w in record)


def test_pass_many_still_behaves_like_pass_collection():
    with pytest.warns(DeprecationWarning):

        class OldSpellingSchema(Schema):
            name = fields.Str()

            @post_dump(pass_many=True)
            def wrap(self, data, many, **kwargs):
                return {"results" if many else "result": data}

    class NewSpellingSchema(Schema):
        name = fields.Str()

        @post_dump(pass_collection=True)
        def wrap(self, data, many, **kwargs):
            return {"results" if many else "result": data}

    items = [{"name": "a"}, {"name": "b"}]
    assert OldSpellingSchema(many=True).dump(items) == NewSpellingSchema(
        many=True
    ).dump(items)


def test_new_spelling_and_plain_decorators_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        class QuietSchema(Schema):
            name = fields.Str()

            @pre_load
            def a(self, data, **kwargs):
                return data

            @post_load(pass_collection=False)
            def b(self, data, **kwargs):
                return data

            @post_dump(pass_collection=True, pass_original=True)
            def c(self, data, original, many, **kwargs):
                return data

            @validates_schema(pass_collection=True, skip_on_field_errors=False)
            def d(self, data, **kwargs):
                pass

        QuietSchema(many=True).load([{"name": "a"}])
        QuietSchema(many=True).dump([{"name": "a"}])
