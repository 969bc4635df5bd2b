"""The paper's tables and figures, one module each; :data:`FIGURES` is the registry.

A figure module defines ``NAME`` (file stem of its outputs), ``TITLE``, ``CAPTION``,
``POPULATION`` (which runs it counts, in a reader's words: kinds, statuses, judges — stated under
the caption, so nothing is filtered silently), ``COLUMN_LABELS`` (column → header shown in the
report), ``data(con, *, spec=None) -> polars.DataFrame`` (``spec``: the report's
:class:`~realcli.schema.report.ReportSpec`; ``None`` means its defaults) and
``chart(df) -> altair chart``; optionally ``EMPTY``, what the report says when ``data`` has no
rows although the warehouse has runs. A table row that stands for runs carries them in a
``run_keys`` column (``list[str]``): the report links the row to those runs' pages and writes
the column to the CSV space-separated. Rows quoted from a paper carry
``source`` = :data:`analysis.published.PAPER_WEAVE` / ``PAPER_LONGCLI`` (ours: ``"realcli"``).
Adding a figure: write the module, add it to :data:`FIGURES`.
"""

from __future__ import annotations

from typing import Protocol

import altair as alt
import duckdb
import polars as pl

from analysis.figures import (
    collaboration,
    coverage,
    cross_channel_drift,
    early_retention,
    evidence_provenance,
    failure_taxonomy,
    first_violation_km,
    goal_maintenance,
    halt_indicators,
    harness_audit,
    interface_ablation,
    judge_ablation,
    longcli_main_table,
    p2p_vs_progress,
    paired_flips,
    progress_order,
    reordering,
    round_retention,
    self_correction,
    step_distribution,
    tool_call_distribution,
    trajectory_profile,
    weave_cross_harness,
    weave_leaderboard,
)
from realcli.schema.report import ReportSpec

__all__ = ["FIGURES", "Figure", "by_name"]


class Figure(Protocol):
    NAME: str
    TITLE: str
    CAPTION: str
    POPULATION: str
    COLUMN_LABELS: dict[str, str]

    def data(
        self, con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None
    ) -> pl.DataFrame: ...

    def chart(self, df: pl.DataFrame) -> alt.TopLevelMixin: ...


FIGURES: tuple[Figure, ...] = (
    longcli_main_table,
    step_distribution,
    self_correction,
    collaboration,
    progress_order,
    harness_audit,
    weave_leaderboard,
    weave_cross_harness,
    interface_ablation,
    judge_ablation,
    failure_taxonomy,
    paired_flips,
    reordering,
    evidence_provenance,
    goal_maintenance,
    round_retention,
    p2p_vs_progress,
    early_retention,
    first_violation_km,
    halt_indicators,
    cross_channel_drift,
    trajectory_profile,
    tool_call_distribution,
    coverage,
)


def by_name(name: str) -> Figure:
    for figure in FIGURES:
        if name == figure.NAME:
            return figure
    known = ", ".join(f.NAME for f in FIGURES)
    raise KeyError(f"no figure {name!r} (known: {known})")
