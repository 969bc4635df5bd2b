"""Interface ablation: PassRate@τ per model · harness in hybrid, cli_only and gui_only mode,
and the hybrid gain.

A row is one model · harness · mode · protocol over its finished weave runs, judged by
``spec.primary_judge`` (counting as in :mod:`analysis.figures.weave_leaderboard`: a finished
run the judge did not score is a failure, incomplete runs are excluded). The hybrid row of a
model · harness · protocol also carries the **hybrid gain**, the seed's definition (§4.3:
"the hybrid gain over the strongest reported single channel"): hybrid PassRate minus the
better of its cli_only and gui_only PassRate, in points (the paper's +31.6 pp is Claude Opus
4.7's 35.1 hybrid minus the 3.5 CLI-only bound). Its CI comes from the same paired task
bootstrap as the rates (``spec.bootstrap``): each replicate resamples the tasks once for all
three modes and takes hybrid − max(single modes) in that replicate. No gain without a hybrid
row and at least one single-channel row. Published bounds
(:data:`analysis.published.INTERFACE_ABLATION`) follow as ``source`` = the paper rows.
"""

from __future__ import annotations

import warnings

import altair as alt
import duckdb
import numpy as np
import polars as pl

from analysis.charts import placeholder
from analysis.published import INTERFACE_ABLATION, OURS, PAPER_WEAVE
from analysis.stats import bootstrap_replicates, per_task_scores, score_matrix
from analysis.systems import SYSTEM_AXES
from analysis.weave import MODES, rate_with_ci, run_counts, run_key_lists, weave_runs
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "interface_ablation"
TITLE = "Interface ablation: PassRate@τ in hybrid, CLI-only and GUI-only mode"
CAPTION = (
    "Per model x harness x mode x protocol: PassRate@τ with its 95% paired task bootstrap CI. "
    "Hybrid gain (hybrid rows): hybrid PassRate minus the best single-channel mode's "
    "(cli_only or gui_only), in points, with a paired bootstrap CI. Rows with source = the "
    "paper are WeaveBench's published bounds (single-channel PassRate at most 1.8 / 3.5) and "
    "gains, not measurements."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished, in modes hybrid, cli_only and gui_only (any "
    "other mode has its own row and no gain), judged by the report's primary judge (default "
    "trajectory); a finished run it did not score is a failure, counted in Unjudged; "
    "incomplete runs are excluded and counted."
)
EMPTY = "no finished WeaveBench runs under the report's filters"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "source": "Source",
    "n_runs": "Runs",
    "n_tasks": "Tasks",
    "pass_rate_pct": "PassRate (%)",
    "pass_rate_ci_low": "CI low",
    "pass_rate_ci_high": "CI high",
    "best_single_mode": "Best single mode",
    "hybrid_gain_pp": "Hybrid gain (pp)",
    "gain_ci_low": "Gain CI low",
    "gain_ci_high": "Gain CI high",
    "note": "Note",
    "n_unjudged": "Unjudged (failures)",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}
_GROUP = ("model", "harness", "protocol")
_SINGLE = tuple(m for m in MODES if m != "hybrid")


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per model · harness · mode · protocol (hybrid first), then the paper's rows."""
    spec = spec or ReportSpec()
    runs = weave_runs(con, spec, spec.primary_judge)
    axes = list(SYSTEM_AXES)
    finished = runs.filter(pl.col("in_denominator"))
    if finished.is_empty():
        return pl.DataFrame(schema=_schema())
    table = (
        run_counts(runs, axes)
        .filter(pl.col("n_runs") > 0)
        .join(rate_with_ci(finished, axes, "passed", spec, prefix="pass_rate"), on=axes, how="left")
        .join(run_key_lists(finished, axes), on=axes, how="left", nulls_equal=True)
        .join(_gains(finished, spec), on=axes, how="left", nulls_equal=True)
        .with_columns(source=pl.lit(OURS), note=pl.lit(None, pl.String))
    )
    mode_rank = {m: i for i, m in enumerate(MODES)}
    table = table.sort(
        [
            pl.col("model"),
            pl.col("harness"),
            pl.col("protocol"),
            pl.col("mode").replace_strict(mode_rank, default=len(MODES), return_dtype=pl.Int64),
            pl.col("mode"),
        ]
    )
    if spec.published:
        table = pl.concat([table, _published()], how="diagonal_relaxed")
    return table.select(list(COLUMN_LABELS)).cast(_schema())  # type: ignore[arg-type]


def _gains(finished: pl.DataFrame, spec: ReportSpec) -> pl.DataFrame:
    """Hybrid rows' gain over the best single mode, with its paired bootstrap CI."""
    rows = []
    alpha = (1 - spec.bootstrap.level) / 2
    for key, group in finished.group_by(list(_GROUP), maintain_order=True):
        share = group.group_by("mode").agg(pl.col("passed").cast(pl.Float64).mean() * 100)
        rates = dict(share.iter_rows())
        singles = {m: rates[m] for m in _SINGLE if m in rates}
        if "hybrid" not in rates or not singles:
            continue
        best = max(singles, key=lambda m: (singles[m], m == "cli_only"))
        matrix = score_matrix(per_task_scores(group, ["mode"], "passed"), ["mode"])
        index = {system[0]: i for i, system in enumerate(matrix.systems)}
        gains = [
            # fmax ignores a mode with no run on the drawn tasks (NaN), without a warning
            reps[:, index["hybrid"]] - np.fmax.reduce(reps[:, [index[m] for m in singles]], axis=1)
            for reps in bootstrap_replicates(matrix, spec.bootstrap)
        ]
        sample = np.concatenate(gains) * 100
        with warnings.catch_warnings(action="ignore", category=RuntimeWarning):  # all-NaN: NULL
            low, high = np.nanquantile(sample, [alpha, 1 - alpha])
        rows.append(
            dict(zip(_GROUP, key, strict=True))
            | {
                "mode": "hybrid",
                "best_single_mode": best,
                "hybrid_gain_pp": rates["hybrid"] - singles[best],
                "gain_ci_low": None if np.isnan(low) else float(low),
                "gain_ci_high": None if np.isnan(high) else float(high),
            }
        )
    schema = {a: pl.String for a in SYSTEM_AXES} | {
        "best_single_mode": pl.String,
        "hybrid_gain_pp": pl.Float64,
        "gain_ci_low": pl.Float64,
        "gain_ci_high": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def _published() -> pl.DataFrame:
    bounds = INTERFACE_ABLATION
    rows: list[dict[str, object]] = [
        {
            "mode": "gui_only",
            "pass_rate_pct": bounds["gui_only_max_pct"],
            "note": "upper bound over the backbones (GUI-only at most this)",
        },
        {
            "mode": "cli_only",
            "pass_rate_pct": bounds["cli_only_max_pct"],
            "note": "upper bound over the backbones (CLI-only at most this)",
        },
        {
            "mode": "hybrid",
            "best_single_mode": "cli_only",
            "hybrid_gain_pp": bounds["hybrid_gain_pp"],
            "note": "WeaveBench hybrid gain over the strongest single channel",
        },
        {
            "mode": "hybrid",
            "hybrid_gain_pp": bounds["mcpworld_gain_pp"],
            "note": "MCPWorld (another benchmark): hybrid gain over its strongest single channel",
        },
        {
            "mode": "hybrid",
            "hybrid_gain_pp": bounds["osworld_mcp_gain_pp"],
            "note": "OSWorld-MCP (another benchmark): hybrid gain over its strongest single "
            "channel",
        },
    ]
    return pl.DataFrame(
        [r | {"source": PAPER_WEAVE, "run_keys": []} for r in rows],
        schema_overrides={"run_keys": pl.List(pl.String)},
    )


def _schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.String for c in COLUMN_LABELS}
    schema |= {c: pl.Int64 for c in ("n_runs", "n_tasks", "n_unjudged", "n_incomplete")}
    floats = ("pass_rate_pct", "pass_rate_ci_low", "pass_rate_ci_high", "hybrid_gain_pp")
    schema |= {c: pl.Float64 for c in (*floats, "gain_ci_low", "gain_ci_high")}
    schema["run_keys"] = pl.List(pl.String)
    return schema


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """Grouped bars (one bar per mode, with CI) per model · harness, beside the hybrid gains."""
    ours = df.filter(pl.col("source") == OURS)
    if ours.is_empty():
        return placeholder(TITLE, EMPTY)
    show_protocol = ours["protocol"].n_unique() > 1
    parts = [pl.col("model"), pl.col("harness")] + ([pl.col("protocol")] if show_protocol else [])
    ours = ours.with_columns(system=pl.concat_str(parts, separator=" · "))
    modes = [m for m in MODES if m in ours["mode"].to_list()] + sorted(
        set(ours["mode"].to_list()) - set(MODES)
    )
    rates = ours.select(
        "system",
        "mode",
        "pass_rate_pct",
        "pass_rate_ci_low",
        "pass_rate_ci_high",
        text_x=pl.max_horizontal("pass_rate_pct", "pass_rate_ci_high"),
    )
    base = alt.Chart().encode(
        y=alt.Y("system:N", title=None, axis=alt.Axis(labelLimit=260)),
        yOffset=alt.YOffset("mode:N", sort=modes),
    )
    bars = base.mark_bar().encode(
        x=alt.X("pass_rate_pct:Q", title="PassRate (%)", scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("mode:N", sort=modes, title="Mode", legend=alt.Legend(orient="bottom")),
        tooltip=[
            "system:N",
            "mode:N",
            alt.Tooltip("pass_rate_pct:Q", format=".1f"),
            alt.Tooltip("pass_rate_ci_low:Q", format=".1f"),
            alt.Tooltip("pass_rate_ci_high:Q", format=".1f"),
        ],
    )
    rules = base.mark_rule(color="black").encode(x="pass_rate_ci_low:Q", x2="pass_rate_ci_high:Q")
    values = base.mark_text(align="left", dx=3, fontSize=9).encode(
        x="text_x:Q", text=alt.Text("pass_rate_pct:Q", format=".1f")
    )
    left = alt.layer(bars, rules, values, data=rates).properties(
        width=300, height=alt.Step(12), title="PassRate per mode (95% CI)"
    )
    gains = ours.filter(pl.col("hybrid_gain_pp").is_not_null()).select(
        "system", "best_single_mode", "hybrid_gain_pp", "gain_ci_low", "gain_ci_high"
    )
    paper = df.filter(
        (pl.col("source") == PAPER_WEAVE) & pl.col("hybrid_gain_pp").is_not_null()
    ).select(
        system=pl.col("note")
        .str.split(":")
        .list.first()
        .str.replace(
            "WeaveBench hybrid gain over the strongest single channel", "WeaveBench (paper)"
        ),
        best_single_mode=pl.col("best_single_mode"),
        hybrid_gain_pp=pl.col("hybrid_gain_pp"),
        gain_ci_low=pl.col("gain_ci_low"),
        gain_ci_high=pl.col("gain_ci_high"),
    )
    gain_data = pl.concat(
        [gains.with_columns(source=pl.lit(OURS)), paper.with_columns(source=pl.lit(PAPER_WEAVE))]
    ).with_columns(text_x=pl.max_horizontal("hybrid_gain_pp", "gain_ci_high"))
    if gain_data.is_empty():
        return alt.hconcat(left).properties(title=TITLE)
    g = alt.Chart().encode(
        y=alt.Y("system:N", title=None, sort=None, axis=alt.Axis(labelLimit=260))
    )
    gain_bars = g.mark_bar().encode(
        x=alt.X("hybrid_gain_pp:Q", title="Hybrid gain over best single mode (pp)"),
        color=alt.Color("source:N", title="Source", legend=alt.Legend(orient="bottom")),
        tooltip=[
            "system:N",
            "best_single_mode:N",
            alt.Tooltip("hybrid_gain_pp:Q", format=".1f"),
            alt.Tooltip("gain_ci_low:Q", format=".1f"),
            alt.Tooltip("gain_ci_high:Q", format=".1f"),
        ],
    )
    gain_rules = g.mark_rule(color="black").encode(x="gain_ci_low:Q", x2="gain_ci_high:Q")
    gain_text = g.mark_text(align="left", dx=4, fontSize=10).encode(
        x="text_x:Q", text=alt.Text("hybrid_gain_pp:Q", format="+.1f")
    )
    right = alt.layer(gain_bars, gain_rules, gain_text, data=gain_data).properties(
        width=260, height=alt.Step(18), title="Hybrid gain (95% CI)"
    )
    return alt.hconcat(left, right).resolve_scale(color="independent").properties(title=TITLE)
