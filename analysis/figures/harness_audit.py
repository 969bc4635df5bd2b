"""Harness audit: what each harness actually offered the model and did, next to its score.

The seeds' central finding is that a score depends on the runtime as much as the model; this
table makes the runtime visible. Per harness (and model): the tools of its first tool pool
(as the gateway saw them), how many distinct pools it offered, the system prompt's length,
the permission mode it ran in, how often the fidelity check (gateway vs the harness's own
session log) held, and model calls, tool calls, tokens and cost per run. The chart compares tools
offered with model and tool calls per run.

Infra errors (a run that never started: the agent was not installed, could not be launched,
or ended before its first model call; the GUI tools missing) stay in ``n_runs`` and the pass
rate's denominator, labelled in ``n_infra_errors``, SWE-bench style. They are left out of what
the harness did (tools, pools, prompt, fidelity, usage means): a run that never reached the
model says nothing about the harness's behaviour, and its fidelity check does not apply.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "NAME", "TITLE", "chart", "data"]

NAME = "harness_audit"
TITLE = "Harness audit: tool pools, fidelity and usage"
CAPTION = (
    "Per model x harness x mode x protocol, finished runs; infra errors (runs that never "
    "started) count in Runs and in the pass rate's denominator and are labelled, but not in "
    "the columns after Infra errors. Tools: the first tool pool "
    "the harness offered, as the gateway recorded it. Pools: distinct (tools, system "
    "prompt) pairs per run (max). Fidelity: share of runs whose gateway calls and tokens "
    "match the harness's own session log (blank: the harness keeps no such log). "
    "Means are per run."
)
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "n_runs": "Runs",
    "pass_pct": "Pass (%)",
    "n_infra_errors": "Infra errors",
    "permission_mode": "Permission mode",
    "n_tools": "Tools offered",
    "tools": "Tool names (first pool)",
    "max_pools": "Pools",
    "system_chars": "System prompt (chars)",
    "fidelity_pct": "Fidelity ok (%)",
    "mean_model_calls": "Model calls",
    "mean_tool_calls": "Tool calls",
    "mean_tokens_in": "Tokens in",
    "mean_tokens_out": "Tokens out",
    "mean_cost_usd": "Cost (USD)",
    "run_keys": "Runs behind the row",
}

_RUNS = """
select r.model, r.harness, r.mode, r.protocol, r.run_key, r.passed, r.is_infra_error,
       r.permission_mode,
       r.n_tool_pools, r.fidelity_ok, r.n_model_calls, r.n_tool_calls, r.tokens_in,
       r.tokens_out, r.cost_usd, p.tools, p.system_chars
from fct_runs r
left join (
    select run_key, tools, system_chars,
           row_number() over (partition by run_key order by seq) as n
    from tool_pools
) p on p.run_key = r.run_key and p.n = 1
where r.in_denominator
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    runs = fetch_df(con, _RUNS)
    if runs.is_empty():
        return pl.DataFrame(
            schema={c: pl.List(pl.String) if c == "run_keys" else pl.String for c in COLUMN_LABELS}
        )
    runs = runs.with_columns(
        tools=pl.col("tools").list.join(", "), n_tools=pl.col("tools").list.len()
    )
    ran = ~pl.col("is_infra_error")  # the harness's behaviour: runs that reached the model

    def of_ran(column: str) -> pl.Expr:
        return pl.col(column).filter(ran)

    table = runs.group_by(*SYSTEM_AXES).agg(
        n_runs=pl.len().cast(pl.Int64),
        pass_pct=pl.col("passed").cast(pl.Float64).mean() * 100,
        n_infra_errors=pl.col("is_infra_error").sum().cast(pl.Int64),
        permission_mode=of_ran("permission_mode").drop_nulls().unique().sort().str.join(", "),
        n_tools=of_ran("n_tools").max(),
        tools=of_ran("tools").drop_nulls().first(),
        max_pools=of_ran("n_tool_pools").max(),
        system_chars=of_ran("system_chars").median(),
        fidelity_pct=of_ran("fidelity_ok").drop_nulls().cast(pl.Float64).mean() * 100,
        mean_model_calls=of_ran("n_model_calls").mean(),
        mean_tool_calls=of_ran("n_tool_calls").mean(),
        mean_tokens_in=of_ran("tokens_in").mean(),
        mean_tokens_out=of_ran("tokens_out").mean(),
        mean_cost_usd=of_ran("cost_usd").mean(),
        run_keys=pl.col("run_key").sort(),
    )
    return table.sort(*SYSTEM_AXES).select(list(COLUMN_LABELS))


_CHART = {
    "n_tools": "tools offered",
    "mean_model_calls": "model calls / run",
    "mean_tool_calls": "tool calls / run",
}


def chart(df: pl.DataFrame) -> alt.Chart:
    """Grouped bars per harness x model: tools offered, model calls and tool calls per run."""
    if df.is_empty():
        return placeholder(TITLE, "no finished runs")
    long = (
        with_system_label(df)
        .select("system", *_CHART)
        .unpivot(index="system", variable_name="metric", value_name="value")
        .drop_nulls("value")
        .with_columns(pl.col("metric").replace_strict(_CHART))
    )
    order = list(_CHART.values())
    return (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("system:N", title=None, axis=alt.Axis(labelLimit=320)),
            yOffset=alt.YOffset("metric:N", sort=order),
            x=alt.X("value:Q", title="count"),
            color=alt.Color("metric:N", sort=order, title=None, legend=alt.Legend(orient="bottom")),
            tooltip=["system", "metric", alt.Tooltip("value:Q", format=".1f")],
        )
        .properties(title=TITLE, width=480)
    )
