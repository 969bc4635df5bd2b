"""Tool-call distribution and re-attribution (WeaveBench Figure 5, SPEC §2).

Every tool call of a system's finished weave runs is decomposed into atomic operations
(``fct_tool_ops``, :mod:`realcli.ledger.atomic_ops`): a GUI tool is one ``computer: <primitive>``
op, a shell call one op per simple command it runs (``exec: shell``, ``exec: python``, and
``exec: <program>`` for display-driving programs such as ``gnome-screenshot``, ``xdotool``,
``pyautogui``, which are GUI work).

Two kinds of row (``scope``), per model · harness · mode · protocol:

- ``summary``: tool calls and ops; top-10 share = share of the ops that the ten most frequent
  ops cover; ``exec: shell`` share of ops; GUI share at tool level (GUI tool calls / calls: a
  shell call is CLI) and at atomic level (calls doing GUI work once their ops are
  re-attributed — a GUI tool call, or a shell call with a GUI op — / calls, the paper's
  33.9% → 62.9% comparison); GUI ops / ops; re-attributed ops (GUI work found inside shell
  calls);
- ``op``: the ten most frequent ops (rank, count, share of ops; ties by name).

The paper's GPT-5.5 figures (:data:`analysis.published.TOOL_CALLS`) follow as a summary row and
an ``exec: shell`` op row with ``source`` = the paper when ``spec.published`` (the paper's
shares are of its 10,873 calls; realcli's are of ops, which a compound command multiplies).
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import OURS, PAPER_WEAVE, TOOL_CALLS
from analysis.systems import SYSTEM_AXES
from analysis.weave import weave_runs
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "tool_call_distribution"
TITLE = "Tool-call distribution: top-10 atomic ops and GUI share before/after re-attribution"
CAPTION = (
    "Tool calls decomposed into atomic operations (one per simple command of a shell call). "
    "Top-10 share: ops covered by the ten most frequent ops. GUI share at tool level: GUI tool "
    "calls / calls (a shell call counts as CLI); at atomic level: calls doing GUI work / calls "
    "once shell-routed display work (gnome-screenshot, scrot, import, xwd, xdotool, wmctrl, "
    "xclip, pyautogui...) is re-attributed to the GUI; GUI ops / ops beside it. Rows with "
    "source = the paper are WeaveBench's GPT-5.5 figures (shares of calls), not measurements."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished (graded, infra_error, task_error), every mode, "
    "all their tool calls (a system whose runs made none shows 0 calls); no judge is involved. "
    "Incomplete runs are excluded and counted in Incomplete."
)
EMPTY = "no finished WeaveBench runs under the report's filters"
TOP = 10
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "scope": "Scope",
    "source": "Source",
    "rank": "Rank",
    "op": "Atomic op",
    "n_op": "Count",
    "op_share_pct": "Share of ops (%)",
    "n_runs": "Runs",
    "n_calls": "Tool calls",
    "n_ops": "Atomic ops",
    "top10_share_pct": "Top-10 share (%)",
    "exec_shell_share_pct": "exec: shell share (%)",
    "gui_share_tool_pct": "GUI share, tool level (%)",
    "gui_share_atomic_pct": "GUI share, atomic level (%)",
    "gui_op_share_pct": "GUI ops / ops (%)",
    "n_reattributed_ops": "Re-attributed ops",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}

_OPS = """
select run_key, seq, op_index, op, tool_channel, channel, reattributed
from fct_tool_ops
where list_contains(?, run_key)
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """Summary and top-10 op rows per system (and the paper's rows), as in
    :data:`COLUMN_LABELS`."""
    spec = spec or ReportSpec()
    axes = list(SYSTEM_AXES)
    runs = weave_runs(con, spec, spec.primary_judge).unique("run_key", keep="first")
    finished = runs.filter(pl.col("in_denominator"))
    if finished.is_empty():
        return _empty()
    ops = fetch_df(con, _OPS, [finished["run_key"].to_list()]).join(
        finished.select("run_key", *axes), on="run_key"
    )
    systems = finished.group_by(axes).agg(
        n_runs=pl.len().cast(pl.Int64), run_keys=pl.col("run_key").sort()
    )
    incomplete = runs.group_by(axes).agg(
        n_incomplete=(~pl.col("in_denominator")).sum().cast(pl.Int64)
    )
    calls = ops.group_by([*axes, "run_key", "seq"]).agg(
        pl.col("tool_channel").first(), gui_work=(pl.col("channel") == "gui").any()
    )
    per_call = calls.group_by(axes).agg(
        n_calls=pl.len().cast(pl.Int64),
        gui_share_tool_pct=(pl.col("tool_channel") == "gui").mean() * 100,
        gui_share_atomic_pct=pl.col("gui_work").mean() * 100,
    )
    counts = (
        ops.group_by([*axes, "op"])
        .agg(n_op=pl.len().cast(pl.Int64))
        .with_columns(total=pl.col("n_op").sum().over(axes))
        .sort(
            [*axes, "n_op", "op"], descending=[False] * len(axes) + [True, False], nulls_last=True
        )
        .with_columns(rank=pl.col("n_op").cum_count().over(axes).cast(pl.Int64))
        .with_columns(op_share_pct=pl.col("n_op") / pl.col("total") * 100)
    )
    top = counts.filter(pl.col("rank") <= TOP)
    per_op = ops.group_by(axes).agg(
        n_ops=pl.len().cast(pl.Int64),
        exec_shell_share_pct=(pl.col("op") == "exec: shell").mean() * 100,
        gui_op_share_pct=(pl.col("channel") == "gui").mean() * 100,
        n_reattributed_ops=pl.col("reattributed").sum().cast(pl.Int64),
    )
    top_share = top.group_by(axes).agg(top10_share_pct=pl.col("op_share_pct").sum())
    summary = (
        systems.join(per_call, on=axes, how="left", nulls_equal=True)
        .join(per_op, on=axes, how="left", nulls_equal=True)
        .join(top_share, on=axes, how="left", nulls_equal=True)
        .join(incomplete, on=axes, how="left", nulls_equal=True)
        .with_columns(
            pl.col("n_calls", "n_ops", "n_reattributed_ops").fill_null(0),
            scope=pl.lit("summary"),
            source=pl.lit(OURS),
            rank=pl.lit(0, pl.Int64),
        )
    )
    op_rows = top.join(
        systems.select(*axes, "run_keys"), on=axes, how="left", nulls_equal=True
    ).with_columns(scope=pl.lit("op"), source=pl.lit(OURS))
    table = pl.concat([summary, op_rows.drop("total")], how="diagonal_relaxed")
    if spec.published:
        table = pl.concat([table, _published()], how="diagonal_relaxed")
    return (
        table.with_columns(_paper=pl.col("source") != OURS)
        .sort([*axes, "_paper", "rank"], nulls_last=True)
        .select(list(COLUMN_LABELS))
    )


def _published() -> pl.DataFrame:
    p = TOOL_CALLS
    common = {"model": p["model"], "mode": "hybrid", "source": PAPER_WEAVE, "run_keys": []}
    return pl.DataFrame(
        [
            common
            | {
                "scope": "summary",
                "rank": 0,
                "n_calls": p["n_calls"],
                "top10_share_pct": p["top10_share_pct"],
                "exec_shell_share_pct": p["exec_shell_share_pct"],
                "gui_share_tool_pct": p["gui_share_tool_level_pct"],
                "gui_share_atomic_pct": p["gui_share_atomic_level_pct"],
            },
            common
            | {"scope": "op", "op": "exec: shell", "op_share_pct": p["exec_shell_share_pct"]},
        ],
        schema_overrides={
            "run_keys": pl.List(pl.String),
            "rank": pl.Int64,
            "n_calls": pl.Int64,
            "op_share_pct": pl.Float64,
        },
    )


def _empty() -> pl.DataFrame:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.Float64 for c in COLUMN_LABELS}
    schema |= {c: pl.String for c in ("scope", *SYSTEM_AXES, "source", "op")}
    ints = ("rank", "n_op", "n_runs", "n_calls", "n_ops", "n_reattributed_ops", "n_incomplete")
    schema |= {c: pl.Int64 for c in ints}
    schema["run_keys"] = pl.List(pl.String)
    return pl.DataFrame(schema=schema)


def chart(df: pl.DataFrame) -> alt.TopLevelMixin:
    """Left: the top-10 ops' shares per system. Right: GUI share at tool vs atomic level."""
    ours = df.filter(pl.col("source") == OURS)
    if ours.is_empty():
        return placeholder(TITLE, EMPTY)
    system = pl.concat_str(
        [pl.col("model"), pl.col("harness"), pl.col("mode")], separator=" · ", ignore_nulls=True
    )
    ops = ours.filter(pl.col("scope") == "op").with_columns(system=system)
    bars = (
        alt.Chart(ops.select("system", "op", "op_share_pct", "rank"))
        .mark_bar()
        .encode(
            x=alt.X("op_share_pct:Q", title="share of atomic ops (%)"),
            y=alt.Y(
                "op:N", title=None, sort=alt.EncodingSortField("op_share_pct", order="descending")
            ),
            row=alt.Row("system:N", title=None),
            color=alt.Color("system:N", legend=None),
            tooltip=["system:N", "op:N", "op_share_pct:Q", "rank:Q"],
        )
        .properties(width=300, title="top-10 atomic operations")
    )
    summary = df.filter(pl.col("scope") == "summary").with_columns(
        system=pl.when(pl.col("source") != OURS)
        .then(pl.concat_str([pl.col("model"), pl.lit("(paper)")], separator=" "))
        .otherwise(system)
    )
    long = (
        summary.select("system", "gui_share_tool_pct", "gui_share_atomic_pct")
        .unpivot(index="system", variable_name="level", value_name="gui_share_pct")
        .with_columns(
            level=pl.col("level").replace_strict(
                {"gui_share_tool_pct": "tool level", "gui_share_atomic_pct": "atomic level"}
            )
        )
    )
    gui = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            x=alt.X("level:N", title=None, sort=["tool level", "atomic level"]),
            y=alt.Y("gui_share_pct:Q", title="GUI share (%)", scale=alt.Scale(domain=[0, 100])),
            column=alt.Column("system:N", title=None),
            color=alt.Color("level:N", sort=["tool level", "atomic level"]),
            tooltip=["system:N", "level:N", "gui_share_pct:Q"],
        )
        .properties(width=90, title="GUI share before/after re-attribution")
    )
    return alt.hconcat(bars, gui).properties(title=TITLE)
