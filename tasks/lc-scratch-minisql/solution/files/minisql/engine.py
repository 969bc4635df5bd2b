"""Query execution over CSV tables (docs/REQUIREMENTS.md, sections 6-8)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from minisql.ast import Call, Column, Literal, Select, Star
from minisql.csvtable import Table, load_table
from minisql.errors import SQLError, SQLNameError
from minisql.expr import AGGREGATES, contains_aggregate, evaluate, is_true, sort_key, to_number
from minisql.parser import parse, parse_script

__all__ = ["Database", "Result"]

_AMBIGUOUS = object()


@dataclass
class Result:
    columns: list[str]
    rows: list[tuple] = field(default_factory=list)


class _Scope:
    """The tables of a FROM clause; maps column keys to positions in a combined row tuple."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, Table, int]] = []  # (effective name, table, offset)
        self.keys: dict[str, Any] = {}
        self.width = 0

    def add(self, name: str, table: Table) -> None:
        low = name.lower()
        if any(src == low for src, _, _ in self.sources):
            raise SQLNameError(f"ambiguous table name: {name}")
        self.sources.append((low, table, self.width))
        for i, col in enumerate(table.columns):
            c = col.lower()
            self.keys[f"{low}.{c}"] = self.width + i
            self.keys[c] = _AMBIGUOUS if c in self.keys else self.width + i
        self.width += len(table.columns)

    def view(self, values: tuple) -> _RowView:
        return _RowView(self, values)

    def star(self, table: str | None) -> list[tuple[str, Any]]:
        if table is None:
            picked = self.sources
        else:
            picked = [s for s in self.sources if s[0] == table.lower()]
            if not picked:
                raise SQLNameError(f"no such table: {table}")
        return [(col, Column(col, src)) for src, t, _ in picked for col in t.columns]


class _RowView(Mapping):
    def __init__(self, scope: _Scope, values: tuple) -> None:
        self.scope = scope
        self.values = values

    def __getitem__(self, key: str) -> Any:
        idx = self.scope.keys[key]
        if idx is _AMBIGUOUS:
            raise SQLNameError(f"ambiguous column name: {key}")
        return self.values[idx]

    def __iter__(self) -> Iterator[str]:
        return iter(self.scope.keys)

    def __len__(self) -> int:
        return len(self.scope.keys)


def _transform(node: Any, fn: Any) -> Any:
    """Rebuild an expression tree bottom-up, replacing each node by fn(node) (or itself)."""
    if not dataclasses.is_dataclass(node):
        return node
    replaced = fn(node)
    if replaced is not None:
        return replaced
    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, tuple):
            changes[f.name] = tuple(_transform(x, fn) for x in v)
        elif dataclasses.is_dataclass(v):
            changes[f.name] = _transform(v, fn)
    return dataclasses.replace(node, **changes) if changes else node


def _substitute(node: Any, values: Mapping[Any, Any]) -> Any:
    """Replace aggregate calls by their computed values (as literals)."""
    return _transform(node, lambda n: Literal(values[n]) if isinstance(n, Call) and n.name in AGGREGATES else None)


def _resolve_aliases(node: Any, aliases: dict[str, Any], scope: _Scope) -> Any:
    """Bare column names that are no FROM column but a select-list alias stand for that item."""

    def fn(n: Any) -> Any:
        if isinstance(n, Column) and n.table is None:
            key = n.name.lower()
            if key not in scope.keys and key in aliases:
                return aliases[key]
        return None

    return _transform(node, fn)


def _aggregate_calls(node: Any, out: list) -> None:
    if isinstance(node, Call) and node.name in AGGREGATES:
        if any(contains_aggregate(a) for a in node.args):
            raise SQLError(f"misuse of aggregate function {node.name}()")
        if node not in out:
            out.append(node)
        return
    if dataclasses.is_dataclass(node) and not isinstance(node, (Literal, Column, Star)):
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                _aggregate_calls(x, out)


def _compute_aggregate(call: Call, scope: _Scope, rows: list[tuple]) -> Any:
    name = call.name
    if call.star:
        if name != "COUNT":
            raise SQLError(f"invalid use of * in {name}()")
        return len(rows)
    if len(call.args) != 1:
        raise SQLError(f"wrong number of arguments to function {name}()")
    values = [evaluate(call.args[0], scope.view(r)) for r in rows]
    values = [v for v in values if v is not None]
    if call.distinct:
        seen, unique = set(), []
        for v in values:
            k = sort_key(v)
            if k not in seen:
                seen.add(k)
                unique.append(v)
        values = unique
    if name == "COUNT":
        return len(values)
    if name in ("MIN", "MAX"):
        if not values:
            return None
        pick = min if name == "MIN" else max
        return pick(values, key=sort_key)
    numbers = [to_number(v) for v in values]
    if not numbers:
        return None
    total = sum(numbers)
    if name == "SUM":
        return total
    return total / len(numbers)


class Database:
    """A set of named tables; `execute` runs one SELECT statement."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self._tables: dict[str, Table] = {}
        if directory is not None:
            d = Path(directory)
            if not d.is_dir():
                raise SQLError(f"no such directory: {directory}")
            for path in sorted(d.glob("*.csv")):
                self.add_table(load_table(path))

    def add_table(self, table: Table) -> None:
        self._tables[table.name.lower()] = table

    def tables(self) -> list[str]:
        return sorted(self._tables)

    def table(self, name: str) -> Table:
        try:
            return self._tables[name.lower()]
        except KeyError:
            raise SQLNameError(f"no such table: {name}") from None

    def execute(self, sql: str) -> Result:
        return self.run(parse(sql))

    def execute_script(self, sql: str) -> list[Result]:
        return [self.run(stmt) for stmt in parse_script(sql)]

    # -- execution -----------------------------------------------------
    def _from(self, stmt: Select) -> tuple[_Scope, list[tuple]]:
        scope = _Scope()
        if stmt.from_ is None:
            return scope, [()]
        first = self.table(stmt.from_.name)
        scope.add(stmt.from_.alias or stmt.from_.name, first)
        rows = [tuple(r) for r in first.rows]
        for join in stmt.joins:
            right = self.table(join.table.name)
            scope.add(join.table.alias or join.table.name, right)
            if join.condition is not None and contains_aggregate(join.condition):
                raise SQLError("misuse of aggregate function in ON clause")
            joined = []
            pad = (None,) * len(right.columns)
            for left in rows:
                matched = False
                for r in right.rows:
                    combined = left + tuple(r)
                    if join.kind == "CROSS" or is_true(evaluate(join.condition, scope.view(combined))):
                        joined.append(combined)
                        matched = True
                if join.kind == "LEFT" and not matched:
                    joined.append(left + pad)
            rows = joined
        return scope, rows

    def _items(self, stmt: Select, scope: _Scope) -> list[tuple[str, Any]]:
        items: list[tuple[str, Any]] = []
        for item in stmt.items:
            if isinstance(item.expr, Star):
                if stmt.from_ is None:
                    raise SQLError("no tables specified")
                items.extend(scope.star(item.expr.table))
            elif item.alias:
                items.append((item.alias, item.expr))
            elif isinstance(item.expr, Column):
                items.append((item.expr.name, item.expr))
            else:
                items.append((item.text, item.expr))
        return items

    def run(self, stmt: Select) -> Result:
        scope, rows = self._from(stmt)
        aliases = {i.alias.lower(): i.expr for i in stmt.items if i.alias and not isinstance(i.expr, Star)}
        if aliases and (stmt.group_by or stmt.having is not None):
            stmt = dataclasses.replace(
                stmt,
                group_by=tuple(_resolve_aliases(g, aliases, scope) for g in stmt.group_by),
                having=None if stmt.having is None else _resolve_aliases(stmt.having, aliases, scope),
            )
        if stmt.where is not None:
            if contains_aggregate(stmt.where):
                raise SQLError("misuse of aggregate function in WHERE clause")
            rows = [r for r in rows if is_true(evaluate(stmt.where, scope.view(r)))]
        items = self._items(stmt, scope)
        names = [n for n, _ in items]
        exprs = [e for _, e in items]

        order = []
        for o in stmt.order_by:
            target: Any = None
            e = o.expr
            if isinstance(e, Literal) and isinstance(e.value, int):
                if not 1 <= e.value <= len(items):
                    raise SQLError(f"ORDER BY term out of range: {e.value}")
                target = e.value - 1
            elif isinstance(e, Column) and e.table is None and e.name.lower() in [n.lower() for n in names]:
                target = [n.lower() for n in names].index(e.name.lower())
            elif e in exprs:
                target = exprs.index(e)
            elif stmt.distinct:
                raise SQLError("ORDER BY term does not match any column in the result set")
            order.append((target, e, o.descending))

        aggregate = bool(stmt.group_by) or any(
            contains_aggregate(x) for x in [*exprs, stmt.having, *(o.expr for o in stmt.order_by)] if x is not None
        )
        if stmt.having is not None and not aggregate:
            raise SQLError("a GROUP BY clause is required before HAVING")

        # Each context: a function evaluating an expression for one output row.
        contexts: list[Any] = []
        if aggregate:
            contexts = self._groups(stmt, scope, rows, exprs)
        else:
            for r in rows:
                view = scope.view(r)
                contexts.append(lambda node, view=view: evaluate(node, view))

        produced = []
        for ctx in contexts:
            out = tuple(ctx(e) for e in exprs)
            keys = [out[t] if t is not None else ctx(e) for t, e, _ in order]
            produced.append((out, keys))

        if stmt.distinct:
            seen, unique = set(), []
            for out, keys in produced:
                k = tuple(sort_key(v) for v in out)
                if k not in seen:
                    seen.add(k)
                    unique.append((out, keys))
            produced = unique

        for i in range(len(order) - 1, -1, -1):
            produced.sort(key=lambda pk, i=i: sort_key(pk[1][i]), reverse=order[i][2])

        result_rows = [out for out, _ in produced]
        start = stmt.offset or 0
        if stmt.limit is not None:
            result_rows = result_rows[start : start + stmt.limit]
        elif start:
            result_rows = result_rows[start:]
        return Result(names, result_rows)

    def _groups(self, stmt: Select, scope: _Scope, rows: list[tuple], exprs: list[Any]) -> list[Any]:
        for g in stmt.group_by:
            if contains_aggregate(g):
                raise SQLError("aggregate functions are not allowed in GROUP BY")
        calls: list[Call] = []
        for x in [*exprs, stmt.having, *(o.expr for o in stmt.order_by)]:
            if x is not None:
                _aggregate_calls(x, calls)
        groups: dict[tuple, tuple[tuple, list[tuple]]] = {}
        if stmt.group_by:
            for r in rows:
                view = scope.view(r)
                values = tuple(evaluate(g, view) for g in stmt.group_by)
                key = tuple(sort_key(v) for v in values)
                groups.setdefault(key, (values, []))[1].append(r)
            ordered = [groups[k][1] for k in sorted(groups)]
        else:
            ordered = [rows]
        contexts = []
        for members in ordered:
            values = {c: _compute_aggregate(c, scope, members) for c in calls}
            first = members[0] if members else (None,) * scope.width
            view = scope.view(first)

            def ctx(node: Any, view: _RowView = view, values: dict = values) -> Any:
                return evaluate(_substitute(node, values), view)

            if stmt.having is not None and not is_true(ctx(stmt.having)):
                continue
            contexts.append(ctx)
        return contexts

