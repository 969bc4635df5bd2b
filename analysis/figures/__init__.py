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

:data:`FIGURES` is a :class:`~realcli.registry.Registry` of figure modules (``realcli.figures``
entry-point group). The built-ins register here, in the order below (the report's order); a
plugin's figures (an entry point naming a module: ``myfig = "mypkg.myfig"``) come after them,
by entry-point name. Adding a built-in figure: write the module, add it to ``_BUILTINS``.
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
from realcli.registry import Registry
from realcli.schema.report import ReportSpec

__all__ = ["FIGURES", "Figure", "all_figures", "by_name"]


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


_BUILTINS: tuple[Figure, ...] = (
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


FIGURES: Registry[Figure] = Registry("figure", "realcli.figures", ordered=True)
"""Figures by ``NAME``: the built-ins in report order, then plugins."""
for _figure in _BUILTINS:
    FIGURES.register(_figure.NAME)(_figure)


def all_figures() -> tuple[Figure, ...]:
    """Every registered figure, in report order (built-ins first, then plugins by name).

    Raises:
        TypeError: a plugin's entry point is not a figure module (no NAME, data or chart).
    """
    out = []
    for name, figure in FIGURES:
        missing = [
            a for a in ("NAME", "TITLE", "CAPTION", "data", "chart") if not hasattr(figure, a)
        ]
        if missing:
            raise TypeError(f"realcli.figures entry {name!r} has no {', '.join(missing)}")
        if name != figure.NAME:
            raise TypeError(f"realcli.figures entry {name!r} names a figure {figure.NAME!r}")
        out.append(figure)
    return tuple(out)


def by_name(name: str) -> Figure:
    """The figure ``name``. Raises KeyError naming the known figures."""
    if name in FIGURES:
        return FIGURES.get(name)
    known = ", ".join(f.NAME for f in all_figures())
    raise KeyError(f"no figure {name!r} (known: {known})")
