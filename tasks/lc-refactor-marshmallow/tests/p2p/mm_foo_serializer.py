# Copied from the marshmallow 3.13.0 test suite (tests/foo_serializer.py);
# imports adapted to run from this folder.
from marshmallow import Schema, fields


class FooSerializer(Schema):
    _id = fields.Integer()
