"""P1 atom coverage and P2/P3 per domain (WeaveBench appendix A.1 Table A2 and A.2).

The tasks are those of the report's weave runs; a task's atoms are the ``atoms`` of its most
recent run's task copy (``run_task_atoms``; a task edited between runs shows its latest
annotation). Three kinds of row (``scope``):

- ``task``: the 19 atoms × tasks matrix (one boolean column per atom of
  :data:`realcli.schema.atoms.ATOMS`), CLI/GUI atom counts, the three coverage levels of
  :func:`realcli.schema.atoms.coverage_levels` (any-side: an atom on each side; non-universal:
  an atom beyond the anchors F3/V1; depth: two atoms on each side), and the task's best hybrid
  rollout (:func:`analysis.trajectories.best_rollouts`): tool calls, channel phases at atomic
  level, apps/states, and P2 / P3;
- ``domain`` (one per domain with tasks) and ``all``: counts and % of tasks at each level, mean
  CLI / GUI atoms per task, and P2 / P3 counts and % over the tasks that have a finished
  hybrid rollout.

P2 = the best rollout has at least :data:`~analysis.trajectories.P2_MIN_TOOL_CALLS` tool calls
and :data:`~analysis.trajectories.P2_MIN_PHASES` channel phases; P3 = at least
:data:`~analysis.trajectories.P3_MIN_APPS` apps/states — realcli's operational thresholds. The
paper's Table A2 figures (:data:`analysis.published.COVERAGE`) follow the ``all`` row when
``spec.published``.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import COVERAGE, OURS, PAPER_WEAVE
from analysis.systems import SYSTEM_AXES
from analysis.trajectories import (
    P2_MIN_PHASES,
    P2_MIN_TOOL_CALLS,
    P3_MIN_APPS,
    best_rollouts,
    trajectory_runs,
)
from analysis.weave import DOMAINS
from realcli.schema.atoms import ATOMS, coverage_levels
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "coverage"
TITLE = "P1 atom coverage (Table A2) and P2/P3 per domain"
CAPTION = (
    "Each task's catalogue atoms (task.toml atoms; K/N/F CLI-bound, V/I/S GUI-bound, F3 and V1 "
    "anchors). Any-side: an atom on each side; non-universal: an atom beyond the anchors; "
    f"depth: two atoms on each side. P2: the best hybrid rollout has ≥ {P2_MIN_TOOL_CALLS} tool "
    f"calls and ≥ {P2_MIN_PHASES} GUI/CLI phases; P3: ≥ {P3_MIN_APPS} apps/states (realcli's "
    "thresholds). Rows with source = the paper are WeaveBench's Table A2 and appendix A.2."
)
POPULATION = (
    "The tasks of WeaveBench (kind weave) runs under the report's filters, any status; atoms "
    "from each task's most recent run. P2/P3 use each task's best-scoring finished hybrid run "
    "(the report's primary judge); a task without one has P2/P3 empty and is left out of the "
    "P2/P3 percentages."
)
EMPTY = "no WeaveBench runs under the report's filters"
_LEVELS = ("any_side", "non_universal", "depth", "p2", "p3")
COLUMN_LABELS = {
    "model": "Model (best rollout)",
    "harness": "Harness (best rollout)",
    "mode": "Mode (best rollout)",
    "protocol": "Protocol (best rollout)",
    "scope": "Scope",
    "task_id": "Task",
    "task_domain": "Domain",
    "source": "Source",
    **{a: a for a in ATOMS},
    "n_cli_atoms": "CLI atoms",
    "n_gui_atoms": "GUI atoms",
    "any_side": "Any-side",
    "non_universal": "Non-universal",
    "depth": "Depth",
    "n_tool_calls": "Tool calls (best)",
    "phases_atomic": "GUI/CLI phases (best)",
    "apps_states": "Apps/states (best)",
    "p2": "P2",
    "p3": "P3",
    "n_tasks": "Tasks",
    **{f"{lv}_n": f"{lv.replace('_', '-')} tasks" for lv in _LEVELS},
    **{f"{lv}_pct": f"{lv.replace('_', '-')} (%)" for lv in _LEVELS},
    "n_tasks_with_rollout": "Tasks with a hybrid rollout",
    "mean_cli_atoms": "Mean CLI atoms",
    "mean_gui_atoms": "Mean GUI atoms",
    "run_keys": "Runs behind the row",
}

_ATOMS = """
select a.run_key, a.atom, r.started_at, r.ingested_at
from run_task_atoms as a
join runs as r on r.run_key = a.run_key
where list_contains(?, a.run_key)
"""
_RUN_TIMES = "select run_key, started_at, ingested_at from runs where list_contains(?, run_key)"


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """Task rows, domain rows, the all-tasks row (and the paper's), as in
    :data:`COLUMN_LABELS`."""
    spec = spec or ReportSpec()
    runs = trajectory_runs(con, spec).unique("run_key", keep="first")
    if runs.is_empty():
        return _empty()
    keys = runs["run_key"].to_list()
    latest = (
        runs.select("run_key", "task_id", "task_domain")
        .join(fetch_df(con, _RUN_TIMES, [keys]), on="run_key")
        .sort(["task_id", "started_at", "ingested_at", "run_key"], nulls_last=False)
        .group_by("task_id", maintain_order=True)
        .last()
    )
    atoms = fetch_df(con, _ATOMS, [latest["run_key"].to_list()])
    by_run: dict[str, list[str]] = {}
    for run_key, atom in atoms.select("run_key", "atom").iter_rows():
        by_run.setdefault(run_key, []).append(atom)
    best = {row["task_id"]: row for row in best_rollouts(runs).iter_rows(named=True)}
    rows = []
    for task in latest.iter_rows(named=True):
        ids = [a for a in ATOMS if a in by_run.get(task["run_key"], [])]
        levels = coverage_levels(ids)
        b = best.get(task["task_id"])
        row: dict[str, object] = {
            "scope": "task",
            "task_id": task["task_id"],
            "task_domain": task["task_domain"],
            "source": OURS,
            **{a: a in ids for a in ATOMS},
            **levels,
            "run_keys": sorted({task["run_key"], *([b["run_key"]] if b else [])}),
        }
        if b is not None:
            calls, phases, apps = (
                int(b["n_tool_calls"] or 0),
                int(b["phases_atomic"] or 0),
                int(b["apps_states"] or 0),
            )
            row |= {
                **{axis: b[axis] for axis in SYSTEM_AXES},
                "n_tool_calls": calls,
                "phases_atomic": phases,
                "apps_states": apps,
                "p2": calls >= P2_MIN_TOOL_CALLS and phases >= P2_MIN_PHASES,
                "p3": apps >= P3_MIN_APPS,
            }
        rows.append(row)
    tasks = pl.DataFrame(rows, schema=_task_schema())
    rank = {d: i for i, d in enumerate(DOMAINS)}
    domains = (
        _summary(tasks, ["task_domain"])
        .with_columns(
            scope=pl.lit("domain"),
            _d=pl.col("task_domain").replace_strict(rank, default=len(rank), return_dtype=pl.Int64),
        )
        .sort(["_d", "task_domain"], nulls_last=True)
        .drop("_d")
    )
    parts = [
        tasks.sort(["task_domain", "task_id"], nulls_last=True),
        domains,
        _summary(tasks, []).with_columns(scope=pl.lit("all")),
    ]
    if spec.published:
        parts.append(_published())
    return pl.concat(parts, how="diagonal_relaxed").select(list(COLUMN_LABELS))


def _summary(tasks: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    n = pl.len()
    with_rollout = pl.col("p2").is_not_null().sum()
    aggs = [
        n.cast(pl.Int64).alias("n_tasks"),
        *(pl.col(lv).sum().cast(pl.Int64).alias(f"{lv}_n") for lv in _LEVELS),
        *(
            (pl.col(lv).cast(pl.Float64).sum() / n * 100).alias(f"{lv}_pct")
            for lv in ("any_side", "non_universal", "depth")
        ),
        *(
            (pl.col(lv).cast(pl.Float64).sum() / with_rollout * 100).alias(f"{lv}_pct")
            for lv in ("p2", "p3")
        ),
        with_rollout.cast(pl.Int64).alias("n_tasks_with_rollout"),
        pl.col("n_cli_atoms").mean().alias("mean_cli_atoms"),
        pl.col("n_gui_atoms").mean().alias("mean_gui_atoms"),
        pl.col("run_keys").list.explode().drop_nulls().unique().sort().alias("run_keys"),
    ]
    keys = by or ["_all"]
    out = tasks.with_columns(_all=pl.lit(0)).group_by(keys).agg(aggs)
    out = out if by else out.drop("_all")
    return out.with_columns(
        source=pl.lit(OURS),
        p2_pct=pl.when(pl.col("n_tasks_with_rollout") > 0).then(pl.col("p2_pct")),
        p3_pct=pl.when(pl.col("n_tasks_with_rollout") > 0).then(pl.col("p3_pct")),
    )


def _published() -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "scope": "all",
                "source": PAPER_WEAVE,
                "n_tasks": int(COVERAGE["n_tasks"]),
                **{k: float(v) for k, v in COVERAGE.items() if k != "n_tasks"},
                "run_keys": [],
            }
        ],
        schema_overrides={"run_keys": pl.List(pl.String)},
    )


def _task_schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {
        **{axis: pl.String for axis in SYSTEM_AXES},
        "scope": pl.String,
        "task_id": pl.String,
        "task_domain": pl.String,
        "source": pl.String,
    }
    schema |= {a: pl.Boolean for a in ATOMS}
    schema |= {"n_cli_atoms": pl.Int64, "n_gui_atoms": pl.Int64}
    schema |= {c: pl.Boolean for c in ("any_side", "non_universal", "depth")}
    schema |= {c: pl.Int64 for c in ("n_tool_calls", "phases_atomic", "apps_states")}
    schema |= {"p2": pl.Boolean, "p3": pl.Boolean, "run_keys": pl.List(pl.String)}
    return schema


def _empty() -> pl.DataFrame:
    schema = _task_schema()
    schema |= {c: pl.Int64 for c in COLUMN_LABELS if c.endswith("_n")}
    schema |= {c: pl.Float64 for c in COLUMN_LABELS if c.endswith("_pct") or c.startswith("mean")}
    schema |= {"n_tasks": pl.Int64, "n_tasks_with_rollout": pl.Int64}
    return pl.DataFrame(schema={c: schema[c] for c in COLUMN_LABELS})


def chart(df: pl.DataFrame) -> alt.TopLevelMixin:
    """The atoms × tasks matrix (filled: the task requires the atom), families in Table A1's
    order, CLI-bound left of GUI-bound."""
    tasks = df.filter(pl.col("scope") == "task")
    if tasks.is_empty():
        return placeholder(TITLE, EMPTY)
    long = (
        tasks.select("task_id", *ATOMS)
        .unpivot(index="task_id", variable_name="atom", value_name="required")
        .with_columns(
            side=pl.col("atom").replace_strict({a.id: a.group for a in ATOMS.values()}),
            name=pl.col("atom").replace_strict({a.id: a.name for a in ATOMS.values()}),
        )
    )
    return (
        alt.Chart(long)
        .mark_rect(stroke="#ddd")
        .encode(
            x=alt.X("atom:N", sort=list(ATOMS), title="atom (K N F: CLI-bound · V I S: GUI-bound)"),
            y=alt.Y("task_id:N", title=None),
            color=alt.Color(
                "required:N",
                scale=alt.Scale(domain=[True, False], range=["#2b6cb0", "#f4f4f4"]),
                legend=alt.Legend(title="required"),
            ),
            tooltip=["task_id:N", "atom:N", "name:N", "side:N", "required:N"],
        )
        .properties(title=TITLE, width=19 * 26)
    )
