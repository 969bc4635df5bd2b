"""The paper's tables and figures, one module each; :data:`FIGURES` is the registry.

A figure module defines ``NAME`` (file stem of its outputs), ``TITLE``, ``CAPTION``,
``COLUMN_LABELS`` (column → header shown in the report), ``data(con) -> polars.DataFrame`` and
``chart(df) -> altair chart``; optionally ``EMPTY``, what the report says when ``data`` has no
rows although the warehouse has runs. Adding a figure: write the module, add it to
:data:`FIGURES`.
"""

from __future__ import annotations

from typing import Protocol

import altair as alt
import duckdb
import polars as pl

from analysis.figures import (
    collaboration,
    harness_audit,
    longcli_main_table,
    progress_order,
    self_correction,
    step_distribution,
)

__all__ = ["FIGURES", "Figure", "by_name"]


class Figure(Protocol):
    NAME: str
    TITLE: str
    CAPTION: str
    COLUMN_LABELS: dict[str, str]

    def data(self, con: duckdb.DuckDBPyConnection) -> pl.DataFrame: ...

    def chart(self, df: pl.DataFrame) -> alt.TopLevelMixin: ...


FIGURES: tuple[Figure, ...] = (
    longcli_main_table,
    step_distribution,
    self_correction,
    collaboration,
    progress_order,
    harness_audit,
)


def by_name(name: str) -> Figure:
    for figure in FIGURES:
        if name == figure.NAME:
            return figure
    known = ", ".join(f.NAME for f in FIGURES)
    raise KeyError(f"no figure {name!r} (known: {known})")
