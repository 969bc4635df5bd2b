"""Syntax tree of a SELECT statement (docs/REQUIREMENTS.md, section 4.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Between",
    "Binary",
    "Call",
    "Column",
    "InList",
    "IsNull",
    "Join",
    "Like",
    "Literal",
    "OrderItem",
    "Select",
    "SelectItem",
    "Star",
    "TableRef",
    "Unary",
]


@dataclass(frozen=True)
class Literal:
    value: Any


@dataclass(frozen=True)
class Column:
    name: str
    table: str | None = None


@dataclass(frozen=True)
class Star:
    table: str | None = None


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Any


@dataclass(frozen=True)
class Binary:
    op: str
    left: Any
    right: Any


@dataclass(frozen=True)
class IsNull:
    operand: Any
    negated: bool = False


@dataclass(frozen=True)
class InList:
    operand: Any
    items: tuple
    negated: bool = False


@dataclass(frozen=True)
class Between:
    operand: Any
    low: Any
    high: Any
    negated: bool = False


@dataclass(frozen=True)
class Like:
    operand: Any
    pattern: Any
    negated: bool = False


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple = ()
    distinct: bool = False
    star: bool = False


@dataclass(frozen=True)
class SelectItem:
    expr: Any
    alias: str | None = None
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class TableRef:
    name: str
    alias: str | None = None


@dataclass(frozen=True)
class Join:
    kind: str
    table: TableRef
    condition: Any = None


@dataclass(frozen=True)
class OrderItem:
    expr: Any
    descending: bool = False


@dataclass(frozen=True)
class Select:
    items: tuple
    distinct: bool = False
    from_: TableRef | None = None
    joins: tuple = ()
    where: Any = None
    group_by: tuple = ()
    having: Any = None
    order_by: tuple = ()
    limit: int | None = None
    offset: int | None = None
