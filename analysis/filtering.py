"""The report's population: which runs every figure counts (``ReportSpec.filters``).

Without filters the report reads the warehouse file itself (read-only). With filters,
:func:`open_population` checks every value against the warehouse (an experiment, task, model...
that no run has is an error listing the ones it has), then builds the report from an in-memory
warehouse holding only the matching runs' rows of every raw table
(:func:`realcli.warehouse.connect_subset`), so each figure, view and summary sees the same
runs without knowing about filters. Within one filter the values are alternatives; across
filters all must hold. ``judges`` keeps the runs and drops other judges' judgements.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from realcli.schema.report import ReportFilters
from realcli.util.errors import RealcliError
from realcli.warehouse import connect, connect_subset

__all__ = ["FILTER_COLUMNS", "describe_filters", "is_filtered", "matching_runs", "open_population"]

FILTER_COLUMNS = {
    "experiments": ("experiment", "experiment"),
    "tasks": ("task", "task_id"),
    "kinds": ("kind", "coalesce(task_kind, 'longcli')"),
    "models": ("model", "model"),
    "harnesses": ("harness", "harness"),
    "modes": ("mode", "mode"),
    "protocols": ("protocol", "protocol"),
}
"""``ReportFilters`` field -> (what a reader calls it, its SQL over ``runs``). A run whose task
kind was not recorded is a LongCLI run, as in the figures (``analysis.systems.longcli_tasks``)."""


def is_filtered(filters: ReportFilters) -> bool:
    return any(getattr(filters, field) for field in ReportFilters.model_fields)


def describe_filters(filters: ReportFilters) -> str:
    """``experiment = a, b · kind = longcli``; ``""`` without filters."""
    labels = {field: label for field, (label, _) in FILTER_COLUMNS.items()} | {"judges": "judge"}
    return " · ".join(
        f"{labels[field]} = {', '.join(values)}"
        for field in ReportFilters.model_fields
        if (values := getattr(filters, field))
    )


def matching_runs(
    con: duckdb.DuckDBPyConnection, filters: ReportFilters, where: str = "warehouse"
) -> list[str]:
    """The run keys every filter admits, sorted. A value no run has raises
    :class:`RealcliError` naming the filter and the values the warehouse has."""
    clauses: list[str] = []
    params: list[object] = []
    for field, (label, column) in FILTER_COLUMNS.items():
        values = list(getattr(filters, field))
        if not values:
            continue
        known = _distinct(con, f"select distinct {column} from runs")
        _check_known(values, known, where, field, label)
        clauses.append(f"{column} in (select unnest(?::varchar[]))")
        params.append(values)
    if filters.judges:
        known = _distinct(con, "select distinct judge from judgements")
        _check_known(list(filters.judges), known, where, "judges", "judge")
    sql = "select run_key from runs" + (f" where {' and '.join(clauses)}" if clauses else "")
    return sorted(str(row[0]) for row in con.execute(sql + " order by run_key", params).fetchall())


def open_population(warehouse: Path, filters: ReportFilters) -> duckdb.DuckDBPyConnection:
    """A read-only view of the runs ``filters`` admit: the warehouse itself when nothing is
    filtered, else an in-memory copy of the matching runs. The caller closes it."""
    if not warehouse.exists():
        if is_filtered(filters):
            raise RealcliError(
                str(warehouse), "report.filters", "no warehouse to filter", "run `realcli ingest`"
            )
        return connect(":memory:")
    con = connect(warehouse, read_only=True)
    if not is_filtered(filters):
        return con
    try:
        keys = matching_runs(con, filters, str(warehouse))
    finally:
        con.close()
    return connect_subset(warehouse, keys, judges=filters.judges)


def _distinct(con: duckdb.DuckDBPyConnection, sql: str) -> list[str]:
    return sorted(str(row[0]) for row in con.execute(sql).fetchall() if row[0] is not None)


def _check_known(values: list[str], known: list[str], where: str, field: str, label: str) -> None:
    unknown = [v for v in values if v not in known]
    if unknown:
        raise RealcliError(
            where,
            f"report.filters.{field}",
            f"no run has {label} {', '.join(repr(v) for v in unknown)}",
            f"use one of: {', '.join(known) or '(none: the warehouse has no runs)'}",
        )
