"""
Field references, sort keys and result shaping.

A *field reference* names a (possibly nested) field of a document. It is either
a ``str`` (a top-level key; dots have no special meaning) or a
:class:`~tinydb.queries.Query` path such as ``Query().address.city``. Field
references are used by ``order_by``, ``fields`` and ``distinct`` as well as by
:meth:`tinydb.table.Document.get_field`.
"""

from collections.abc import Mapping
from typing import Any, Tuple, Union

from .queries import Query

#: Marker for "this document has no such field"
MISSING = object()

FieldRef = Union[str, Query]


def field_path(field: Any) -> Tuple[str, ...]:
    """
    Turn a field reference into a tuple of keys.
    """
    if isinstance(field, str):
        return (field,)
    return tuple(field._path)


def resolve(document: Mapping, path: Tuple[str, ...], default: Any = MISSING) -> Any:
    """
    Follow ``path`` into ``document``; return ``default`` if it's missing.
    """
    value: Any = document
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return default
        value = value[key]
    return value
