"""What a "system" is in the tables: one model x harness x mode x protocol, and its label."""

from __future__ import annotations

import duckdb
import polars as pl

from realcli.warehouse import fetch_df

__all__ = ["SYSTEM_AXES", "longcli_runs", "with_system_label"]

SYSTEM_AXES: tuple[str, ...] = ("model", "harness", "mode", "protocol")
"""Group columns of every per-system table, in this order."""

_ALWAYS_LABELLED = ("model", "harness")


def longcli_runs(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """``fct_runs`` for LongCLI-style tasks (kind ``longcli``, or not recorded), every status."""
    return fetch_df(con, "select * from fct_runs where task_kind = 'longcli' or task_kind is null")


def with_system_label(df: pl.DataFrame) -> pl.DataFrame:
    """Add ``system``: model · harness, plus each other axis that takes more than one value."""
    if df.is_empty():
        return df.with_columns(system=pl.lit(None, dtype=pl.String))
    shown = [a for a in SYSTEM_AXES if a in _ALWAYS_LABELLED or df[a].n_unique() > 1]
    return df.with_columns(system=pl.concat_str([pl.col(a) for a in shown], separator=" · "))
