"""Move rows between Python and DuckDB in bulk, without pyarrow or pandas.

DuckDB's ``executemany`` costs about a millisecond per row, so batches go through a Parquet file
written by polars (``insert into t by name select * from read_parquet(...)``); query results come
back through a Parquet file too (DuckDB's ``write_parquet`` of the query's relation, read by polars
and cast to the mapped types), since ``fetchall`` builds a Python tuple per row: at 100k-row
results that was most of a report's time.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

__all__ = ["fetch_df", "insert_rows", "polars_type"]

_SCALARS: dict[str, pl.DataType] = {
    "VARCHAR": pl.String(),
    "JSON": pl.String(),
    "BOOLEAN": pl.Boolean(),
    "TINYINT": pl.Int64(),
    "SMALLINT": pl.Int64(),
    "INTEGER": pl.Int64(),
    "BIGINT": pl.Int64(),
    "HUGEINT": pl.Int64(),
    "UTINYINT": pl.Int64(),
    "USMALLINT": pl.Int64(),
    "UINTEGER": pl.Int64(),
    "UBIGINT": pl.Int64(),
    "FLOAT": pl.Float64(),
    "DOUBLE": pl.Float64(),
    "DATE": pl.Date(),
    "TIMESTAMP": pl.Datetime("us"),
    "TIMESTAMP WITH TIME ZONE": pl.Datetime("us", "UTC"),
}


def polars_type(duckdb_type: str) -> pl.DataType:
    """The polars dtype used for a DuckDB column type (DECIMAL becomes Float64)."""
    t = duckdb_type.strip().upper()
    if t.endswith("[]"):
        return pl.List(polars_type(t[:-2]))
    if t.startswith("DECIMAL"):
        return pl.Float64()
    return _SCALARS.get(t, pl.String())


def fetch_df(
    con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] | None = None
) -> pl.DataFrame:
    """Run ``sql`` and return the result as a polars frame (typed even when empty).

    Scalar and list columns take the types of :func:`polars_type`; nested columns (STRUCT, MAP)
    keep the type polars reads from Parquet.
    """
    # A caller's earlier execute() that was not read to its end (fetchone) blocks sql(); execute()
    # would have replaced it, so finish it the same way.
    con.complete()
    rel = con.sql(sql, params=params) if params is not None else con.sql(sql)
    if rel is None:  # a statement without a result
        return pl.DataFrame()
    types = [str(t) for t in rel.types]
    with tempfile.TemporaryDirectory(prefix="realcli-fetch-") as tmp:
        path = Path(tmp) / "result.parquet"
        rel.write_parquet(str(path))
        frame = pl.read_parquet(path)
    # Positional: polars renames a repeated column name (a, a_1), DuckDB's types do not.
    schema = {
        name: polars_type(t) for name, t in zip(frame.columns, types, strict=True) if not _nested(t)
    }
    return frame.cast(schema)  # type: ignore[arg-type]


def _nested(duckdb_type: str) -> bool:
    return duckdb_type.strip().upper().startswith(("STRUCT", "MAP", "UNION"))


def insert_rows(
    con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[Mapping[str, Any]]
) -> int:
    """Insert ``rows`` (dicts keyed by column name) into ``table`` in one statement.

    Column types come from the table itself, so the migration stays the only schema.
    Columns missing from every dict take their default; a column that only some dicts have is
    NULL in the others. Runs inside the caller's transaction.
    """
    if not rows:
        return 0
    table_types = dict(
        con.execute(
            "select column_name, data_type from information_schema.columns"
            " where table_name = ? and table_schema = 'main'",
            [table],
        ).fetchall()
    )
    names = list(dict.fromkeys(name for row in rows for name in row))
    unknown = [n for n in names if n not in table_types]
    if unknown:
        raise KeyError(f"{table}: no column(s) {unknown}")
    schema = {n: polars_type(str(table_types[n])) for n in names}
    # polars builds a list column from Python lists one Series per row (a third of an ingest's
    # time): list columns travel as JSON text instead, and DuckDB casts them back in the insert.
    lists = [n for n, t in schema.items() if isinstance(t, pl.List)]
    columns: dict[str, list[Any]] = {n: [r.get(n) for r in rows] for n in names}
    for n in lists:
        columns[n] = [None if v is None else json.dumps(v, default=str) for v in columns[n]]
        schema[n] = pl.String()
    frame = pl.DataFrame(columns, schema=schema)
    select = "*"
    if lists:
        casts = ", ".join(f'cast("{n}" as json)::{table_types[n]} as "{n}"' for n in lists)
        select = f"* replace ({casts})"
    with tempfile.TemporaryDirectory(prefix="realcli-ingest-") as tmp:
        path = Path(tmp) / f"{table}.parquet"
        frame.write_parquet(path)
        con.execute(
            f'insert into "{table}" by name select {select} from read_parquet(?)', [str(path)]
        )
    return len(rows)
