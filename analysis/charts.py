"""Shared chart pieces for figure modules."""

from __future__ import annotations

import altair as alt
import polars as pl

__all__ = ["placeholder"]


def placeholder(title: str, message: str) -> alt.Chart:
    """A chart that only says ``message``: for data with nothing to draw (renders fine)."""
    note = pl.DataFrame({"message": [message]})
    return (
        alt.Chart(note)
        .mark_text(fontSize=14, color="#666")
        .encode(text="message:N")
        .properties(title=title, width=480, height=60)
    )
