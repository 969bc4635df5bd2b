"""Shared chart pieces for figure modules."""

from __future__ import annotations

import altair as alt
import polars as pl

__all__ = ["bar_panels", "placeholder"]


def placeholder(title: str, message: str) -> alt.Chart:
    """A chart that only says ``message``: for data with nothing to draw (renders fine)."""
    note = pl.DataFrame({"message": [message]})
    return (
        alt.Chart(note)
        .mark_text(fontSize=14, color="#666")
        .encode(text="message:N")
        .properties(title=title, width=480, height=60)
    )


def bar_panels(
    source: pl.DataFrame,
    systems: list[str],
    panels: list[tuple[str, str, list[float] | None]],
    *,
    tooltips: list[str],
    color: str,
    title: str,
    width: int = 200,
    step: int = 22,
) -> alt.HConcatChart:
    """One horizontal bar panel per (column, panel title, x domain or None), systems down the
    side (labelled on the first panel only), each bar with its value (one decimal)."""
    charts = []
    for i, (column, panel_title, domain) in enumerate(panels):
        scale = alt.Scale(domain=domain) if domain else alt.Scale(zero=True)
        base = alt.Chart(source).encode(
            y=alt.Y(
                "system:N",
                sort=systems,
                title=None,
                axis=alt.Axis(labelLimit=280) if i == 0 else None,
            ),
            x=alt.X(f"{column}:Q", scale=scale, title=None),
            tooltip=[
                "system:N",
                alt.Tooltip(f"{column}:Q", format=".1f", title=panel_title),
                *tooltips,
            ],
        )
        text = base.mark_text(align="left", dx=2, fontSize=9).encode(
            text=alt.Text(f"{column}:Q", format=".1f")
        )
        charts.append(
            (base.mark_bar(color=color) + text).properties(
                title=alt.TitleParams(panel_title, fontSize=11), width=width, height=alt.Step(step)
            )
        )
    return alt.hconcat(*charts, spacing=12).properties(title=title)
