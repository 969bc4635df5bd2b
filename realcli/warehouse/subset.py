"""A warehouse holding only some runs: an in-memory copy for a filtered report.

:func:`connect_subset` opens an in-memory warehouse (every migration applied, every view
created, as :func:`~realcli.warehouse.connect` does), ATTACHes the warehouse file READ_ONLY and
copies, from every raw table keyed by ``run_key`` (:data:`RUN_TABLES`) and from
``ingest_problems``, the rows of the chosen runs. Views, figures and queries then see that
population without knowing there was a filter; the file is never written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from realcli.warehouse.db import connect
from realcli.warehouse.ingestion import RUN_TABLES

__all__ = ["SUBSET_TABLES", "connect_subset"]

SUBSET_TABLES = (*RUN_TABLES, "ingest_problems")
"""The tables copied, by ``run_key``; a problem row of a folder never loaded has none."""

_SOURCE = "subset_source"


def connect_subset(
    path: Path, run_keys: Sequence[str], *, judges: Sequence[str] = ()
) -> duckdb.DuckDBPyConnection:
    """An in-memory warehouse with ``run_keys``' rows of ``path`` (opened read-only).

    ``judges``: when given, judge-keyed rows (tables with a ``judge`` column: judgements and
    their deliverables, clauses, dimensions and cheat flags) only of these judges. The caller
    checks first that ``path`` is a warehouse of this realcli (``connect(path,
    read_only=True)``) and owns the returned connection.
    """
    con = connect(":memory:")
    try:
        con.execute(f"attach '{_quoted(path)}' as {_SOURCE} (read_only)")
        try:
            con.execute(
                "create temp table subset_keys as select unnest(?::varchar[]) as run_key",
                [list(run_keys)],
            )
            for table in SUBSET_TABLES:
                _copy(con, table, list(judges))
        finally:
            con.execute(f"detach {_SOURCE}")
    except BaseException:
        con.close()
        raise
    return con


def _copy(con: duckdb.DuckDBPyConnection, table: str, judges: list[str]) -> None:
    where = "run_key in (select run_key from subset_keys)"
    params: list[object] = []
    if judges and _has_column(con, table, "judge"):
        where += " and judge in (select unnest(?::varchar[]))"
        params.append(judges)
    con.execute(
        f"insert into main.{table} by name select * from {_SOURCE}.main.{table} where {where}",
        params,
    )


def _has_column(con: duckdb.DuckDBPyConnection, table: str, column: str) -> bool:
    row = con.execute(
        "select count(*) from information_schema.columns"
        " where table_catalog = current_database() and table_name = ? and column_name = ?",
        [table, column],
    ).fetchone()
    return bool(row and row[0])


def _quoted(path: Path) -> str:
    """``path`` as the body of a SQL string literal (ATTACH takes no parameters)."""
    return str(path).replace("'", "''")
