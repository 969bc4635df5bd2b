"""Leaderboard reordering between two conditions (SPEC §3A).

A reordering (:class:`~realcli.schema.report.ReorderingSpec`) varies one axis — judge, harness,
metric, round, protocol, mode or model — between condition ``a`` and condition ``b``. A *system*
is every other axis of :data:`~analysis.systems.SYSTEM_AXES` (the varied one is left out, so a
harness reordering ranks models, a model reordering ranks harnesses; a judge, metric or round
reordering ranks model · harness · mode · protocol). Each system gets a per-task score under
each condition (the mean over its finished runs on the task; the system's score is the mean over
tasks), and the two rankings are compared:

- **Kendall τ_b** between the two score vectors (:func:`analysis.stats.kendall_tau_b`, ties
  handled), with the percentile interval of the **paired task bootstrap**: each replicate draws
  the tasks with replacement once and applies that draw to both conditions and every system
  (B = ``spec.bootstrap.resamples``, deterministic in ``spec.bootstrap.seed``);
- **flip probability**: the share of system pairs ordered one way under A and the other way under
  B (strictly; a pair tied under either condition is not a flip), and its bootstrap mean;
- **rank displacement**: |rank under A − rank under B| per system (rank 1 = highest score, ties
  share the mean rank), its maximum and mean.

Which runs count: finished runs (``in_denominator``) of the reordering's task kind. Judged
metrics read ``fct_judgements`` (the condition's judge on the judge axis, ``spec.primary_judge``
otherwise; a judge_failed or not_applicable judgement counts as a fail). The judge and metric
axes compare the *same runs* (runs with both judgements / both values); the round axis compares
rounds of the same runs (runs graded in both rounds, ``fct_rounds``); on the other axes the
systems present under both conditions are kept and the tasks are those every kept system has
under both conditions (so both rankings are over one task set). A reordering whose data is
absent is a row saying why, never dropped silently. The warehouse reading is in
:mod:`analysis.reordering_scores`; this module holds the statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import duckdb
import numpy as np
import polars as pl
from scipy import stats as scipy_stats

from analysis.reordering_scores import absent_reason, observations, system_columns
from analysis.stats import ScoreMatrix, bootstrap_replicates, kendall_tau_b, per_task_scores
from realcli.schema.report import BootstrapSpec, ReorderingSpec, ReportSpec

__all__ = [
    "DEFAULT_REORDERINGS",
    "Comparison",
    "RankChange",
    "compare",
    "rank_change",
    "reorderings",
    "replicate_tau_b_and_flips",
]

DEFAULT_REORDERINGS: tuple[ReorderingSpec, ...] = (
    ReorderingSpec(
        name="judge_outcome_only_vs_trajectory",
        axis="judge",
        a="outcome_only",
        b="trajectory",
        metric="judged_pass",
        kind="weave",
    ),
    ReorderingSpec(
        name="metric_pass_vs_f2p_step", axis="metric", a="pass", b="f2p_step", kind="longcli"
    ),
    ReorderingSpec(name="round_1_vs_3", axis="round", a="1", b="3", metric="pass", kind="longcli"),
    ReorderingSpec(
        name="mode_hybrid_vs_cli_only",
        axis="mode",
        a="hybrid",
        b="cli_only",
        metric="judged_pass",
        kind="weave",
    ),
)
"""Used when ``spec.reorderings`` is empty: the judge ablation (WeaveBench, judged pass under
the outcome-only judge vs the trajectory-aware one), Pass vs F2P step (LongCLI), self-correction
round T1 vs T3 (LongCLI Pass) and the interface ablation hybrid vs CLI-only (WeaveBench, judged
pass of ``spec.primary_judge``)."""


@dataclass(frozen=True)
class RankChange:
    """How two score vectors over the same systems rank them differently."""

    tau_b: float | None
    flip_prob: float | None
    rank_a: np.ndarray
    rank_b: np.ndarray
    displacement: np.ndarray
    max_displacement: float | None
    mean_displacement: float | None


def rank_change(
    score_a: Sequence[float] | np.ndarray, score_b: Sequence[float] | np.ndarray
) -> RankChange:
    """Kendall τ_b, flip probability and rank displacement between the systems' scores under A
    and under B (``score_a[i]``, ``score_b[i]``: system i). The one formula behind every
    reordering: the point estimate, each bootstrap replicate and the published sanity values."""
    a, b = np.asarray(score_a, dtype=float), np.asarray(score_b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"score vectors differ in length: {a.shape} != {b.shape}")
    n = len(a)
    tau = kendall_tau_b(a, b)
    rank_a = scipy_stats.rankdata(-a, method="average") if n else np.array([])
    rank_b = scipy_stats.rankdata(-b, method="average") if n else np.array([])
    displacement = np.abs(rank_a - rank_b)
    return RankChange(
        tau_b=None if np.isnan(tau) else tau,
        flip_prob=_flip_share(a, b),
        rank_a=rank_a,
        rank_b=rank_b,
        displacement=displacement,
        max_displacement=float(displacement.max()) if n else None,
        mean_displacement=float(displacement.mean()) if n else None,
    )


def _flip_share(a: np.ndarray, b: np.ndarray) -> float | None:
    pairs = list(combinations(range(len(a)), 2))
    if not pairs:
        return None
    flips = sum(1 for i, j in pairs if np.sign(a[i] - a[j]) * np.sign(b[i] - b[j]) < 0)
    return flips / len(pairs)


def replicate_tau_b_and_flips(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row by row (one bootstrap replicate per row, one system per column): Kendall τ_b and the
    flip share, vectorised over the replicates. τ_b = Σ sᵃ·sᵇ / √(Σ|sᵃ| · Σ|sᵇ|) over system
    pairs, s = sign of the score difference — the definition :func:`analysis.stats.kendall_tau_b`
    computes one vector pair at a time (NaN where either row is constant); flip share = share of
    pairs with sᵃ·sᵇ < 0. ``tests/analysis/test_analysis_reordering.py`` checks both agree."""
    i, j = np.triu_indices(a.shape[1], k=1)
    sign_a, sign_b = np.sign(a[:, i] - a[:, j]), np.sign(b[:, i] - b[:, j])
    product = sign_a * sign_b
    denominator = np.sqrt(np.abs(sign_a).sum(axis=1) * np.abs(sign_b).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = np.where(denominator > 0, product.sum(axis=1) / denominator, np.nan)
    flips = (product < 0).mean(axis=1) if len(i) else np.full(a.shape[0], np.nan)
    return tau, flips


@dataclass(frozen=True)
class Comparison:
    """A reordering measured: the systems, their scores and ranks, and the statistics; or
    ``skipped`` (why there is nothing to compare)."""

    systems: list[tuple[object, ...]] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    score_a: np.ndarray = field(default_factory=lambda: np.array([]))
    score_b: np.ndarray = field(default_factory=lambda: np.array([]))
    change: RankChange | None = None
    tau_ci_low: float | None = None
    tau_ci_high: float | None = None
    flip_prob_boot: float | None = None
    run_keys: dict[tuple[object, ...], list[str]] = field(default_factory=dict)
    skipped: str | None = None
    n_one_sided: int = 0
    """Systems with runs under one condition only: left out of both rankings."""


def compare(obs: pl.DataFrame, system_cols: Sequence[str], spec: BootstrapSpec) -> Comparison:
    """Compare the rankings of ``obs`` (columns ``*system_cols``, ``task_id``, ``condition``
    = ``"a"``/``"b"``, ``value``; optional ``run_key``): systems present under both conditions,
    tasks every such system has under both. Point statistics from the systems' mean scores,
    the τ_b interval and the bootstrap flip probability from the paired task bootstrap."""
    cols = list(system_cols)
    scored = obs.filter(pl.col("value").is_not_null())
    per = {
        c: per_task_scores(scored.filter(pl.col("condition") == c), cols, "value")
        for c in ("a", "b")
    }
    systems_by = {c: {tuple(r) for r in per[c].select(cols).iter_rows()} for c in per}
    systems = sorted(systems_by["a"] & systems_by["b"], key=lambda t: tuple(map(str, t)))
    if len(systems) < 2:
        return Comparison(
            skipped=f"{len(systems)} system(s) have finished runs under both conditions "
            "(a ranking needs two)"
        )
    tasks_of: dict[tuple[object, ...], set[str]] = {}
    for c in per:
        for row in per[c].select(*cols, "task_id").iter_rows():
            key = (c, tuple(row[:-1]))
            tasks_of.setdefault(key, set()).add(str(row[-1]))
    common = set.intersection(*(tasks_of[(c, s)] for c in per for s in systems))
    tasks = sorted(common)
    if not tasks:
        return Comparison(
            skipped=f"no task has finished runs of all {len(systems)} systems under both conditions"
        )
    matrices = [_matrix(per[c], cols, systems, tasks) for c in ("a", "b")]
    score_a, score_b = (m.mean(axis=1) for m in matrices)
    change = rank_change(score_a, score_b)
    stacked = ScoreMatrix(systems + systems, tasks, np.vstack(matrices))
    n = len(systems)
    taus, flips = [], []
    for chunk in bootstrap_replicates(stacked, spec):
        tau, flip = replicate_tau_b_and_flips(chunk[:, :n], chunk[:, n:])
        taus.append(tau)
        flips.append(flip)
    tau_arr, flip_arr = np.concatenate(taus), np.concatenate(flips)
    alpha = (1 - spec.level) / 2
    defined = tau_arr[~np.isnan(tau_arr)]
    low = float(np.quantile(defined, alpha)) if defined.size else None
    high = float(np.quantile(defined, 1 - alpha)) if defined.size else None
    run_keys: dict[tuple[object, ...], list[str]] = {}
    if "run_key" in obs.columns:
        kept = scored.filter(pl.col("task_id").cast(pl.String).is_in(tasks))
        for row in kept.group_by(cols).agg(pl.col("run_key").unique().sort()).iter_rows():
            run_keys[tuple(row[:-1])] = list(row[-1])
    return Comparison(
        systems=systems,
        tasks=tasks,
        score_a=score_a,
        score_b=score_b,
        change=change,
        tau_ci_low=low,
        tau_ci_high=high,
        flip_prob_boot=float(np.nanmean(flip_arr)) if flip_arr.size else None,
        run_keys=run_keys,
        n_one_sided=len(systems_by["a"] ^ systems_by["b"]),
    )


def _matrix(
    scores: pl.DataFrame, cols: list[str], systems: list[tuple[object, ...]], tasks: list[str]
) -> np.ndarray:
    s_index = {s: i for i, s in enumerate(systems)}
    t_index = {t: i for i, t in enumerate(tasks)}
    values = np.full((len(systems), len(tasks)), np.nan)
    for row in scores.select(*cols, "task_id", "value").iter_rows():
        *system, task, value = row
        i, j = s_index.get(tuple(system)), t_index.get(str(task))
        if i is not None and j is not None:
            values[i, j] = float(value)
    return values


def reorderings(
    con: duckdb.DuckDBPyConnection, spec: ReportSpec | None = None
) -> list[tuple[ReorderingSpec, Comparison]]:
    """Every reordering of ``spec`` (or :data:`DEFAULT_REORDERINGS`), measured or skipped."""
    spec = spec or ReportSpec()
    out = []
    for r in spec.reorderings or DEFAULT_REORDERINGS:
        obs = observations(con, r, spec.primary_judge)
        if isinstance(obs, str):
            out.append((r, Comparison(skipped=obs)))
            continue
        if obs.is_empty():
            out.append((r, Comparison(skipped=absent_reason(r, spec.primary_judge))))
            continue
        out.append((r, compare(obs, system_columns(r), spec.bootstrap)))
    return out
