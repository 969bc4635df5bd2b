"""Statistics shared by every leaderboard: paired task bootstrap CIs, paired flips, Kendall τ_b.

The unit of resampling is the *task* (SPEC §3A): each bootstrap replicate draws the task ids with
replacement once and applies the same draw to every system, so intervals and rank statistics
are paired. A system's score on a task is the mean of its finished runs on that task (its seeds);
a system's score is the mean over its tasks. Replicates come from
``numpy.random.default_rng(spec.seed)``: the same spec gives the same intervals, bit for bit.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np
import polars as pl
from scipy import stats as scipy_stats

from realcli.schema.report import BootstrapSpec

__all__ = [
    "ScoreMatrix",
    "bootstrap_ci",
    "bootstrap_replicates",
    "kendall_tau_b",
    "paired_flips",
    "per_task_scores",
    "score_matrix",
]

_CHUNK = 256


def per_task_scores(
    runs: pl.DataFrame,
    system_cols: Sequence[str],
    value_col: str,
    *,
    task_col: str = "task_id",
) -> pl.DataFrame:
    """Mean of ``value_col`` (bool or numeric) per system and task: columns ``*system_cols``,
    ``task_col``, ``value``, ``n_runs``. Null values are left out of the mean."""
    keys = [*system_cols, task_col]
    return (
        runs.group_by(keys)
        .agg(
            value=pl.col(value_col).cast(pl.Float64).mean(),
            n_runs=pl.col(value_col).count().cast(pl.Int64),
        )
        .sort(keys, nulls_last=True)
    )


class ScoreMatrix:
    """Per-task scores as a systems × tasks array (NaN: the system has no run on the task)."""

    def __init__(self, systems: list[tuple[object, ...]], tasks: list[str], values: np.ndarray):
        self.systems = systems
        self.tasks = tasks
        self.values = values

    def means(self) -> np.ndarray:
        """Each system's score: the mean over the tasks it has."""
        with _quiet():
            return np.nanmean(self.values, axis=1)


def score_matrix(
    scores: pl.DataFrame, system_cols: Sequence[str], *, task_col: str = "task_id"
) -> ScoreMatrix:
    """:func:`per_task_scores` output as a :class:`ScoreMatrix` (systems and tasks sorted)."""
    systems = sorted(
        {tuple(r) for r in scores.select(system_cols).iter_rows()}, key=lambda t: tuple(map(str, t))
    )
    tasks = sorted({str(t) for t in scores[task_col].to_list()})
    s_index = {s: i for i, s in enumerate(systems)}
    t_index = {t: i for i, t in enumerate(tasks)}
    values = np.full((len(systems), len(tasks)), np.nan)
    for row in scores.select([*system_cols, task_col, "value"]).iter_rows():
        *system, task, value = row
        if value is not None:
            values[s_index[tuple(system)], t_index[str(task)]] = float(value)
    return ScoreMatrix(systems, tasks, values)


def bootstrap_replicates(matrix: ScoreMatrix, spec: BootstrapSpec) -> Iterator[np.ndarray]:
    """Yield, chunk by chunk, arrays of shape (chunk, n_systems): each system's mean over one
    paired resample of the tasks. ``spec.resamples`` rows in all, deterministic in ``spec.seed``."""
    rng = np.random.default_rng(spec.seed)
    n_tasks = len(matrix.tasks)
    if n_tasks == 0:
        return
    done = 0
    while done < spec.resamples:
        size = min(_CHUNK, spec.resamples - done)
        draw = rng.integers(0, n_tasks, size=(size, n_tasks))
        sample = matrix.values[:, draw]  # systems × size × tasks
        with _quiet():
            yield np.nanmean(sample, axis=2).T
        done += size


def bootstrap_ci(
    scores: pl.DataFrame,
    system_cols: Sequence[str],
    spec: BootstrapSpec,
    *,
    task_col: str = "task_id",
    scale: float = 1.0,
) -> pl.DataFrame:
    """Per system: ``estimate`` (mean over its tasks of the per-task mean), ``ci_low`` and
    ``ci_high`` (percentile interval at ``spec.level`` of the paired task bootstrap) and
    ``n_tasks``; all three scores multiplied by ``scale`` (100 for percent)."""
    schema: dict[str, pl.DataType | type[pl.DataType]] = {
        c: scores.schema[c] for c in system_cols
    } | {"estimate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "n_tasks": pl.Int64}
    if scores.is_empty():
        return pl.DataFrame(schema=schema)
    matrix = score_matrix(scores, system_cols, task_col=task_col)
    replicates = np.concatenate(list(bootstrap_replicates(matrix, spec)), axis=0)
    alpha = (1 - spec.level) / 2
    with _quiet():
        low = np.nanquantile(replicates, alpha, axis=0)
        high = np.nanquantile(replicates, 1 - alpha, axis=0)
    estimate = matrix.means()
    n_tasks = (~np.isnan(matrix.values)).sum(axis=1)
    rows = [
        dict(zip(system_cols, system, strict=True))
        | {
            "estimate": _num(estimate[i], scale),
            "ci_low": _num(low[i], scale),
            "ci_high": _num(high[i], scale),
            "n_tasks": int(n_tasks[i]),
        }
        for i, system in enumerate(matrix.systems)
    ]
    return pl.DataFrame(rows, schema=schema)


def paired_flips(
    runs: pl.DataFrame,
    system_cols: Sequence[str],
    outcome_col: str = "passed",
    *,
    pair_on: Sequence[str] = ("task_id", "seed"),
) -> pl.DataFrame:
    """For every pair of systems (A before B in sorted order): the runs they share by
    ``pair_on`` (same task and seed), how many A passes and B fails (``a_only``), the reverse
    (``b_only``), both and neither, and McNemar's exact two-sided p-value on the discordant
    pairs (``mcnemar_p``; NULL with no discordant pair). Columns ``a_<col>``/``b_<col>`` name
    the systems."""
    out_schema: dict[str, pl.DataType | type[pl.DataType]] = {
        f"{side}_{c}": pl.String() for side in ("a", "b") for c in system_cols
    }
    out_schema |= {
        "n_pairs": pl.Int64,
        "a_only": pl.Int64,
        "b_only": pl.Int64,
        "both": pl.Int64,
        "neither": pl.Int64,
        "mcnemar_p": pl.Float64,
    }
    keyed = runs.select(
        pl.concat_str([pl.col(c).cast(pl.String) for c in system_cols], separator="\x1f").alias(
            "_system"
        ),
        *[pl.col(c).cast(pl.String) for c in system_cols],
        *pair_on,
        pl.col(outcome_col).cast(pl.Boolean).fill_null(False).alias("_ok"),
    ).unique([*pair_on, "_system"], keep="first", maintain_order=True)
    systems = sorted(keyed["_system"].unique().to_list())
    rows = []
    for a, b in combinations(systems, 2):
        left = keyed.filter(pl.col("_system") == a).select(*pair_on, a_ok="_ok")
        right = keyed.filter(pl.col("_system") == b).select(*pair_on, b_ok="_ok")
        both_sides = left.join(right, on=list(pair_on), how="inner")
        a_ok, b_ok = both_sides["a_ok"], both_sides["b_ok"]
        a_only = int((a_ok & ~b_ok).sum())
        b_only = int((~a_ok & b_ok).sum())
        discordant = a_only + b_only
        p_value = (
            float(scipy_stats.binomtest(a_only, discordant, 0.5).pvalue) if discordant else None
        )
        rows.append(
            {f"a_{c}": v for c, v in zip(system_cols, a.split("\x1f"), strict=True)}
            | {f"b_{c}": v for c, v in zip(system_cols, b.split("\x1f"), strict=True)}
            | {
                "n_pairs": both_sides.height,
                "a_only": a_only,
                "b_only": b_only,
                "both": int((a_ok & b_ok).sum()),
                "neither": int((~a_ok & ~b_ok).sum()),
                "mcnemar_p": p_value,
            }
        )
    return pl.DataFrame(rows, schema=out_schema)


def kendall_tau_b(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Kendall's τ_b between two score vectors over the same systems (ties handled, as
    ``scipy.stats.kendalltau(variant='b')``); NaN when fewer than two systems or a constant
    vector."""
    x_arr, y_arr = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = ~(np.isnan(x_arr) | np.isnan(y_arr))
    if keep.sum() < 2:
        return float("nan")
    with _quiet():
        result = scipy_stats.kendalltau(x_arr[keep], y_arr[keep], variant="b")
    return float(result.statistic)


def _num(value: float, scale: float) -> float | None:
    return None if np.isnan(value) else float(value) * scale


def _quiet() -> warnings.catch_warnings[None]:
    """Silence numpy's 'mean of empty slice' warnings (an all-NaN system is NaN, by design)."""
    return warnings.catch_warnings(action="ignore", category=RuntimeWarning)
