"""Kaplan–Meier curve of the steps until a goal's first violation (SPEC §4).

Goals followed step by step by the progress replay (``fct_goal_outcomes``, history ``steps``)
that were ever satisfied: the time at risk starts at the step where the goal first held (0 when
it held initially); the event is its first break (``first_violation_at``), the time being the
steps from establishment to that break; a goal never broken is right-censored at the run's last
step (its ``exposure``). The survival function per system is the product-limit estimator of
``scipy.stats.ecdf`` on ``scipy.stats.CensoredData`` with its Greenwood 95% interval
(``confidence_interval``, scipy's default ``method='linear'``). One row per system and
time at which a goal broke or was censored, plus the start (0 steps, survival 100%).
"""

from __future__ import annotations

import math
import warnings

import altair as alt
import duckdb
import numpy as np
import polars as pl
from scipy import stats as scipy_stats

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = [
    "CAPTION",
    "COLUMN_LABELS",
    "EMPTY",
    "NAME",
    "POPULATION",
    "TITLE",
    "chart",
    "data",
    "survival",
]

NAME = "first_violation_km"
TITLE = "Steps until a goal's first violation (Kaplan–Meier)"
CAPTION = (
    "Share of goals (sub-steps, P2P tests of the progress replay) not yet broken, by steps "
    "since each first held; goals never broken are censored at the end of their run. "
    "Product-limit estimate (scipy.stats.ecdf) with a 95% Greenwood interval."
)
POPULATION = (
    "Finished runs of every task kind with a progress replay (progress.json); their goals "
    "ever satisfied."
)
EMPTY = "no finished runs with a progress replay"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "steps": "Steps since established",
    "n_at_risk": "At risk",
    "n_violations": "Broken here",
    "n_censored": "Censored here",
    "survival_pct": "Not yet broken (%)",
    "ci_low": "CI low",
    "ci_high": "CI high",
    "run_keys": "Runs",
}

_GOALS = """
select model, harness, mode, protocol, run_key, exposure,
       case when violated then first_violation_at - established_at end as violation_steps
from fct_goal_outcomes
where history = 'steps' and ever_satisfied
"""


def _pct(value: float) -> float | None:
    return None if math.isnan(value) else float(value) * 100


def survival(times: np.ndarray, observed: np.ndarray) -> list[dict[str, float | int | None]]:
    """Kaplan–Meier rows (``steps``, ``n_at_risk``, ``n_violations``, ``n_censored``,
    ``survival_pct``, ``ci_low``, ``ci_high``) of durations ``times`` whose event was observed
    where ``observed`` (else right-censored), starting at step 0 with 100%."""
    data = scipy_stats.CensoredData(uncensored=times[observed], right=times[~observed])
    sf = scipy_stats.ecdf(data).sf
    with warnings.catch_warnings(action="ignore", category=RuntimeWarning):
        interval = sf.confidence_interval(0.95)  # undefined where S = 0 or 1: NaN
    rows: list[dict[str, float | int | None]] = []
    if not (len(sf.quantiles) and sf.quantiles[0] == 0):
        rows.append(
            {
                "steps": 0,
                "n_at_risk": len(times),
                "n_violations": 0,
                "n_censored": 0,
                "survival_pct": 100.0,
                "ci_low": 100.0,
                "ci_high": 100.0,
            }
        )
    ordered = np.sort(times)
    broken = np.sort(times[observed])
    censored = np.sort(times[~observed])

    def count(sorted_times: np.ndarray, t: float) -> int:
        return int(
            np.searchsorted(sorted_times, t, side="right")
            - np.searchsorted(sorted_times, t, side="left")
        )

    for i, t in enumerate(sf.quantiles):
        rows.append(
            {
                "steps": int(t),
                "n_at_risk": int(len(ordered) - np.searchsorted(ordered, t, side="left")),
                "n_violations": count(broken, t),
                "n_censored": count(censored, t),
                "survival_pct": _pct(sf.probabilities[i]),
                "ci_low": _pct(interval.low.probabilities[i]),
                "ci_high": _pct(interval.high.probabilities[i]),
            }
        )
    return rows


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system and step at which a goal broke or was censored, in step order."""
    axes = list(SYSTEM_AXES)
    goals = fetch_df(con, _GOALS).with_columns(
        observed=pl.col("violation_steps").is_not_null(),
        time=pl.coalesce("violation_steps", "exposure"),
    )
    rows = []
    for key, group in goals.group_by(axes, maintain_order=True):
        times = group["time"].cast(pl.Float64).to_numpy()
        observed = group["observed"].to_numpy()
        system = dict(zip(axes, key, strict=True))
        runs_at = dict(
            group.group_by("time")
            .agg(pl.col("run_key").unique().sort())
            .select(pl.col("time").cast(pl.Int64), "run_key")
            .iter_rows()
        )
        for row in survival(times, observed):
            rows.append(system | row | {"run_keys": runs_at.get(row["steps"], [])})
    schema: dict[str, pl.DataType | type[pl.DataType]] = dict.fromkeys(axes, pl.String)
    schema |= {
        "steps": pl.Int64,
        "n_at_risk": pl.Int64,
        "n_violations": pl.Int64,
        "n_censored": pl.Int64,
        "survival_pct": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
        "run_keys": pl.List(pl.String()),
    }
    table = pl.DataFrame(rows, schema=schema)
    table = table.sort([*axes[:3], protocol_rank(), "protocol", "steps"])
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.LayerChart | alt.FacetChart | alt.Chart:
    """Step curves of the survival function per system, with the interval as a band."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].unique(maintain_order=True).to_list()
    source = df.drop("run_keys")
    color = alt.Color("system:N", sort=systems, legend=alt.Legend(orient="bottom", columns=2))
    x = alt.X("steps:Q", title="steps since the goal first held")
    band = (
        alt.Chart(source)
        .mark_area(interpolate="step-after", opacity=0.15)
        .encode(
            x=x,
            y="ci_low:Q",
            y2="ci_high:Q",
            color=alt.Color("system:N", sort=systems, legend=None),
        )
    )
    curve = (
        alt.Chart(source)
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=x,
            y=alt.Y("survival_pct:Q", scale=alt.Scale(domain=[0, 100]), title="not yet broken (%)"),
            color=color,
            tooltip=[
                "system:N",
                "steps:Q",
                alt.Tooltip("survival_pct:Q", format=".1f"),
                "n_at_risk:Q",
                "n_violations:Q",
            ],
        )
    )
    return alt.layer(band, curve).properties(width=420, height=260, title=TITLE)
