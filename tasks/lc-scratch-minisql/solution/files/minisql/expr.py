"""Expression values, NULL semantics and type coercion (docs/REQUIREMENTS.md, section 5)."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

from minisql.ast import Between, Binary, Call, Column, InList, IsNull, Like, Literal, Star, Unary
from minisql.errors import SQLError, SQLNameError, SQLTypeError

__all__ = [
    "AGGREGATES",
    "compare",
    "contains_aggregate",
    "evaluate",
    "is_true",
    "sort_key",
    "to_number",
    "to_text",
]

AGGREGATES = frozenset({"COUNT", "SUM", "AVG", "MIN", "MAX"})

_INT = re.compile(r"\s*[-+]?\d+\s*")
_FLOAT = re.compile(r"\s*[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][-+]?\d+)?\s*")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numeric_string(s: str) -> int | float | None:
    if _INT.fullmatch(s):
        return int(s)
    if _FLOAT.fullmatch(s):
        return float(s)
    return None


def to_number(v: Any) -> int | float | None:
    """NULL stays NULL; numbers pass; numeric strings convert; other strings: SQLTypeError."""
    if v is None:
        return None
    if isinstance(v, bool):
        return int(v)
    if _is_number(v):
        return v
    if isinstance(v, str):
        n = _numeric_string(v)
        if n is None:
            raise SQLTypeError(f"cannot convert {v!r} to a number")
        return n
    raise SQLTypeError(f"unsupported value {v!r}")  # pragma: no cover


def to_text(v: Any) -> str | None:
    """NULL stays NULL; floats as in section 9.1; everything else with str()."""
    if v is None:
        return None
    if isinstance(v, float):
        return format_float(v)
    return str(v)


def format_float(v: float) -> str:
    text = format(v, ".15g")
    if not any(c in text for c in ".einf"):
        text += ".0"
    return text


def sort_key(v: Any) -> tuple:
    """Total order: NULL < numbers (by value) < strings (by code point)."""
    if v is None:
        return (0, 0)
    if _is_number(v) or isinstance(v, bool):
        return (1, v)
    return (2, str(v))


def compare(a: Any, b: Any) -> int | None:
    """-1/0/1 with coercion between numbers and numeric strings; None if either is NULL."""
    if a is None or b is None:
        return None
    if isinstance(a, str) and _is_number(b):
        n = _numeric_string(a)
        if n is None:
            return 1
        a = n
    elif _is_number(a) and isinstance(b, str):
        n = _numeric_string(b)
        if n is None:
            return -1
        b = n
    ka, kb = sort_key(a), sort_key(b)
    return (ka > kb) - (ka < kb)


def is_true(v: Any) -> bool:
    """A WHERE/HAVING/ON condition holds: not NULL and numerically non-zero."""
    if v is None:
        return False
    if isinstance(v, str):
        n = _numeric_string(v)
        return bool(n)
    return bool(v)


def _truth(v: Any) -> bool | None:
    return None if v is None else is_true(v)


def _bool(b: bool | None) -> int | None:
    return None if b is None else int(b)


def _like(value: str, pattern: str) -> bool:
    rx = []
    for ch in pattern:
        if ch == "%":
            rx.append(".*")
        elif ch == "_":
            rx.append(".")
        else:
            rx.append(re.escape(ch))
    return re.fullmatch("".join(rx), value, re.IGNORECASE | re.DOTALL) is not None


def _arith(op: str, a: Any, b: Any) -> Any:
    a, b = to_number(a), to_number(b)
    if a is None or b is None:
        return None
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        return None
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        if op == "/":
            return q if (a >= 0) == (b >= 0) else -q
        r = abs(a) - q * abs(b)
        return r if a >= 0 else -r
    if op == "/":
        return a / b
    return math.fmod(a, b)


def _round(x: Any, digits: Any = 0) -> float | None:
    x, digits = to_number(x), to_number(digits)
    if x is None or digits is None:
        return None
    q = Decimal(1).scaleb(-int(digits))
    return float(Decimal(repr(float(x))).quantize(q, rounding=ROUND_HALF_UP))


def _call(node: Call, row: Mapping[str, Any] | None) -> Any:
    name = node.name
    if name in AGGREGATES:
        raise SQLError(f"misuse of aggregate function {name}()")
    if node.star or node.distinct:
        raise SQLError(f"invalid use of {'*' if node.star else 'DISTINCT'} in {name}()")
    args = [evaluate(a, row) for a in node.args]
    arity = {"UPPER": (1, 1), "LOWER": (1, 1), "LENGTH": (1, 1), "ABS": (1, 1), "ROUND": (1, 2), "COALESCE": (1, None), "NULLIF": (2, 2)}
    if name not in arity:
        raise SQLNameError(f"no such function: {name}")
    lo, hi = arity[name]
    if len(args) < lo or (hi is not None and len(args) > hi):
        raise SQLError(f"wrong number of arguments to function {name}()")
    if name == "COALESCE":
        return next((a for a in args if a is not None), None)
    if name == "NULLIF":
        return None if compare(args[0], args[1]) == 0 else args[0]
    if name == "ROUND":
        return _round(*args)
    x = args[0]
    if x is None:
        return None
    if name == "UPPER":
        return to_text(x).upper()
    if name == "LOWER":
        return to_text(x).lower()
    if name == "LENGTH":
        return len(to_text(x))
    n = to_number(x)
    return abs(n)


def _column(node: Column, row: Mapping[str, Any] | None) -> Any:
    key = f"{node.table}.{node.name}".lower() if node.table else node.name.lower()
    label = f"{node.table}.{node.name}" if node.table else node.name
    if row is None:
        raise SQLNameError(f"no such column: {label}")
    try:
        return row[key]
    except KeyError:
        raise SQLNameError(f"no such column: {label}") from None


def evaluate(node: Any, row: Mapping[str, Any] | None = None) -> Any:
    """The value of expression `node`; column references are looked up in `row`."""
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Column):
        return _column(node, row)
    if isinstance(node, Binary):
        op = node.op
        if op == "AND":
            a = _truth(evaluate(node.left, row))
            if a is False:
                return 0
            b = _truth(evaluate(node.right, row))
            if b is False:
                return 0
            return None if a is None or b is None else 1
        if op == "OR":
            a = _truth(evaluate(node.left, row))
            if a is True:
                return 1
            b = _truth(evaluate(node.right, row))
            if b is True:
                return 1
            return None if a is None or b is None else 0
        left, right = evaluate(node.left, row), evaluate(node.right, row)
        if op in ("+", "-", "*", "/", "%"):
            return _arith(op, left, right)
        if op == "||":
            if left is None or right is None:
                return None
            return to_text(left) + to_text(right)
        c = compare(left, right)
        if c is None:
            return None
        return int({"=": c == 0, "<>": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op])
    if isinstance(node, Unary):
        v = evaluate(node.operand, row)
        if node.op == "NOT":
            t = _truth(v)
            return None if t is None else int(not t)
        n = to_number(v)
        if n is None:
            return None
        return -n if node.op == "-" else n
    if isinstance(node, IsNull):
        v = evaluate(node.operand, row)
        return int((v is None) != node.negated)
    if isinstance(node, InList):
        v = evaluate(node.operand, row)
        result: bool | None = False
        if v is None:
            result = None
        else:
            for item in node.items:
                c = compare(v, evaluate(item, row))
                if c == 0:
                    result = True
                    break
                if c is None:
                    result = None
        if result is None:
            return None
        return int(result != node.negated)
    if isinstance(node, Between):
        v = evaluate(node.operand, row)
        lo = compare(v, evaluate(node.low, row))
        hi = compare(v, evaluate(node.high, row))
        ge = None if lo is None else lo >= 0
        le = None if hi is None else hi <= 0
        if ge is False or le is False:
            result = False
        elif ge is None or le is None:
            return None
        else:
            result = True
        return int(result != node.negated)
    if isinstance(node, Like):
        v, p = evaluate(node.operand, row), evaluate(node.pattern, row)
        if v is None or p is None:
            return None
        return int(_like(to_text(v), to_text(p)) != node.negated)
    if isinstance(node, Call):
        return _call(node, row)
    if isinstance(node, Star):
        raise SQLError("'*' is not allowed here")
    raise SQLError(f"cannot evaluate {node!r}")  # pragma: no cover


def contains_aggregate(node: Any) -> bool:
    """True if the expression contains an aggregate call (COUNT, SUM, AVG, MIN, MAX)."""
    if isinstance(node, Call):
        return node.name in AGGREGATES or any(contains_aggregate(a) for a in node.args)
    if isinstance(node, Binary):
        return contains_aggregate(node.left) or contains_aggregate(node.right)
    if isinstance(node, Unary | IsNull):
        return contains_aggregate(node.operand)
    if isinstance(node, InList):
        return contains_aggregate(node.operand) or any(contains_aggregate(i) for i in node.items)
    if isinstance(node, Between):
        return any(contains_aggregate(x) for x in (node.operand, node.low, node.high))
    if isinstance(node, Like):
        return contains_aggregate(node.operand) or contains_aggregate(node.pattern)
    return False
