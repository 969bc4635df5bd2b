"""Field classes for various types of data.

The fields are defined in submodules of this package, grouped by kind:

- `marshmallow.fields.base`: `Field`, `Raw`
- `marshmallow.fields.nested`: `Nested`, `Pluck`
- `marshmallow.fields.containers`: `List`, `Tuple`, `Mapping`, `Dict`
- `marshmallow.fields.strings`: `String`, `UUID`, `Url`, `Email`
- `marshmallow.fields.numbers`: `Number`, `Integer`, `Float`, `Decimal`
- `marshmallow.fields.temporal`: `DateTime`, `NaiveDateTime`, `AwareDateTime`,
  `Time`, `Date`, `TimeDelta`
- `marshmallow.fields.network`: `IP`, `IPv4`, `IPv6`, `IPInterface`,
  `IPv4Interface`, `IPv6Interface`
- `marshmallow.fields.misc`: `Boolean`, `Method`, `Function`, `Constant`, `Inferred`

Import them from `marshmallow.fields`, which re-exports all of them.
"""
from marshmallow.fields.base import Field, Raw
from marshmallow.fields.nested import Nested, Pluck
from marshmallow.fields.containers import List, Tuple, Mapping, Dict
from marshmallow.fields.strings import String, UUID, Url, URL, Email, Str
from marshmallow.fields.numbers import Number, Integer, Int, Float, Decimal
from marshmallow.fields.temporal import (
    DateTime,
    NaiveDateTime,
    AwareDateTime,
    Time,
    Date,
    TimeDelta,
)
from marshmallow.fields.network import (
    IP,
    IPv4,
    IPv6,
    IPInterface,
    IPv4Interface,
    IPv6Interface,
)
from marshmallow.fields.misc import (
    Boolean,
    Bool,
    Method,
    Function,
    Constant,
    Inferred,  # noqa: F401 (not in __all__, like before)
)

__all__ = [
    "Field",
    "Raw",
    "Nested",
    "Mapping",
    "Dict",
    "List",
    "Tuple",
    "String",
    "UUID",
    "Number",
    "Integer",
    "Decimal",
    "Boolean",
    "Float",
    "DateTime",
    "NaiveDateTime",
    "AwareDateTime",
    "Time",
    "Date",
    "TimeDelta",
    "Url",
    "URL",
    "Email",
    "IP",
    "IPv4",
    "IPv6",
    "IPInterface",
    "IPv4Interface",
    "IPv6Interface",
    "Method",
    "Function",
    "Str",
    "Bool",
    "Int",
    "Constant",
    "Pluck",
]
