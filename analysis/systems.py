"""What a "system" is in the tables: one model x harness x mode x protocol, and its label."""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.passk import system_pass_at_k
from realcli.warehouse import fetch_df

__all__ = [
    "PROTOCOL_ORDER",
    "SYSTEM_AXES",
    "longcli_runs",
    "longcli_tasks",
    "pass_at_k_by_system",
    "protocol_rank",
    "with_system_label",
]

SYSTEM_AXES: tuple[str, ...] = ("model", "harness", "mode", "protocol")
"""Group columns of every per-system table, in this order."""

PROTOCOL_ORDER: tuple[str, ...] = (
    "autonomous",
    "plan",
    "interactive",
    "plan_interactive",
    "simulated_user",
    "self_correct",
)
"""The LongCLI protocols in the order tables list them; other protocols follow by name."""

_ALWAYS_LABELLED = ("model", "harness")


def longcli_tasks(alias: str = "") -> str:
    """SQL predicate on ``fct_runs`` (named ``alias`` in the query, if given): LongCLI-style
    tasks, i.e. kind ``longcli`` or not recorded."""
    column = f"{alias}.task_kind" if alias else "task_kind"
    return f"({column} = 'longcli' or {column} is null)"


def longcli_runs(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """``fct_runs`` for LongCLI-style tasks (kind ``longcli``, or not recorded), every status."""
    return fetch_df(con, f"select * from fct_runs where {longcli_tasks()}")


def with_system_label(df: pl.DataFrame) -> pl.DataFrame:
    """Add ``system``: model · harness, plus each other axis that takes more than one value."""
    if df.is_empty():
        return df.with_columns(system=pl.lit(None, dtype=pl.String))
    shown = [a for a in SYSTEM_AXES if a in _ALWAYS_LABELLED or df[a].n_unique() > 1]
    return df.with_columns(system=pl.concat_str([pl.col(a) for a in shown], separator=" · "))


def protocol_rank(column: str = "protocol") -> pl.Expr:
    """Sort key placing :data:`PROTOCOL_ORDER` first, in that order, then the rest."""
    known = {name: i for i, name in enumerate(PROTOCOL_ORDER)}
    return pl.col(column).replace_strict(known, default=len(known), return_dtype=pl.Int64)


def pass_at_k_by_system(runs: pl.DataFrame, k: int) -> pl.DataFrame:
    """Per system: Pass@k over its tasks and the k used, from the finished runs in ``runs``
    (``fct_runs`` rows: n attempts and c passes per task; see :mod:`analysis.passk`)."""
    per_task = (
        runs.filter(pl.col("in_denominator"))
        .group_by([*SYSTEM_AXES, "task_id"])
        .agg(n=pl.len(), c=pl.col("passed").sum())
    )
    attempts: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for row in per_task.iter_rows(named=True):
        key = tuple(row[a] for a in SYSTEM_AXES)
        attempts.setdefault(key, []).append((int(row["n"]), int(row["c"])))
    rows = []
    for key, tasks in attempts.items():
        value, k_used = system_pass_at_k(tasks, k)
        rows.append(
            dict(zip(SYSTEM_AXES, key, strict=True))
            | {"k": k_used, "pass_at_k_pct": None if value is None else value * 100}
        )
    schema = {a: pl.String for a in SYSTEM_AXES} | {"k": pl.Int64, "pass_at_k_pct": pl.Float64}
    return pl.DataFrame(rows, schema=schema)
