"""Golden tests of leaderboard reordering (SPEC §3A), including the SPEC's published sanity values.

Published reconstruction (WeaveBench paper, seeds/002; also in docs/analysis.md):

- **Cross-harness, τ = −0.67.** Table 3 (``analysis.published.CROSS_HARNESS``): PassRate of
  Claude Opus 4.7 and GPT-5.5 on claude_code, openclaw, hermes and codex over the 114 tasks.
  Systems = the four harnesses, condition A = Opus 4.7, B = GPT-5.5 (the model axis). As counts of
  passed tasks out of 114 the published rates are 47, 40, 32, 15 (41.2, 35.1, 28.1, 13.2 %) and
  40, 38, 36, 17 (35.1, 33.3, 31.6, 14.9 %). Only openclaw vs hermes keeps its order: C = 1,
  D = 5, τ_b = (1 − 5)/6 = −0.67.
- **Judge ablation, τ_b = 0.67.** The paper publishes, for the OpenClaw leaderboard (Table 2,
  ``WEAVE_LEADERBOARD``), trajectory-aware PassRates Opus 4.7 35.1, GPT-5.5 33.3, GPT-5.4 22.8,
  GPT-5.1-codex 1.8, and for the outcome-only re-scoring: GPT-5.5 53.5 (inflation 20.2, the
  maximum) and an inflation of 10.3–20.2 points on each of four GPT backbones (Figure 4; the
  per-backbone values other than GPT-5.5's are not printed). Reconstruction: GPT-5.4 and
  GPT-5.1-codex take the published minimum inflation (as counts out of 114: 26 → 38 and
  2 → 14 passes, +10.5 points each); Opus 4.7 is not one of the four GPT backbones and keeps its
  35.1 (40/114: no inflation assumed). Outcome-only order: GPT-5.5 (53.5) > Opus (35.1) >
  GPT-5.4 (33.3) > GPT-5.1-codex (12.3); trajectory-aware: Opus > GPT-5.5 > GPT-5.4 >
  GPT-5.1-codex. One pair flips (Opus / GPT-5.5): τ_b = (5 − 1)/6 = 0.67. The value holds for any
  inflations in the published range as long as GPT-5.4's outcome-only rate stays below Opus's
  (GPT-5.4 inflation < 12.3 points, with Opus uninflated); with GPT-5.4 at the maximum 20.2 it
  overtakes Opus as well and τ_b = 0.33 (tested below, so the dependence is on record).

Both go through the warehouse (runs and judgements rows → ``fct_runs`` / ``fct_judgements`` →
:mod:`analysis.reordering` → the ``reordering`` figure), the code path of measured data.
"""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl
import pytest
from judgement_rows import add_judgements, judgement
from warehouse_rows import add_rounds, add_runs, assert_rows, run

from analysis.figures import reordering as figure
from analysis.published import CROSS_HARNESS, JUDGE_ABLATION, WEAVE_LEADERBOARD
from analysis.reordering import (
    DEFAULT_REORDERINGS,
    compare,
    rank_change,
    replicate_tau_b_and_flips,
)
from analysis.stats import kendall_tau_b
from realcli.schema.report import BootstrapSpec, ReorderingSpec, ReportSpec

N_TASKS = 114
FAST = BootstrapSpec(resamples=200, seed=0)


def _passes(pct: float) -> int:
    """Published PassRate (%) → passed tasks out of the paper's 114 (nearest count)."""
    return round(pct * N_TASKS / 100)


def _weave_system(
    model: str, harness: str, passes: dict[str, int]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """One run per task of model · harness (hybrid); under judge j, the first passes[j] tasks
    in a scrambled order pass (a pass under a stricter judge is a pass under a laxer one)."""
    runs, judgements = [], []
    for t in range(N_TASKS):
        task = f"w{t:03d}"
        row = run(model=model, harness=harness, mode="hybrid", task_id=task, task_kind="weave")
        runs.append(row)
        place = (t * 37) % N_TASKS
        for judge, k in passes.items():
            judgements.append(judgement(row["run_key"], judge, passed=place < k, task_id=task))
    return runs, judgements


def _add_weave(con: duckdb.DuckDBPyConnection, systems: list[tuple[str, str, dict[str, int]]]):
    runs, judgements = [], []
    for model, harness, passes in systems:
        r, j = _weave_system(model, harness, passes)
        runs += r
        judgements += j
    add_runs(con, *runs)
    add_judgements(con, *judgements)


def _spec(*reorderings: ReorderingSpec, bootstrap: BootstrapSpec = FAST) -> ReportSpec:
    return ReportSpec(reorderings=reorderings, bootstrap=bootstrap)


CROSS = ReorderingSpec(
    name="cross_harness",
    axis="model",
    a="Claude Opus 4.7",
    b="GPT-5.5",
    metric="judged_pass",
    kind="weave",
)
JUDGE = DEFAULT_REORDERINGS[0]


def test_published_cross_harness_tau_is_minus_two_thirds(con: duckdb.DuckDBPyConnection) -> None:
    _add_weave(
        con,
        [
            (str(r["model"]), str(r["harness"]), {"trajectory": _passes(float(r["pass_rate_pct"]))})
            for r in CROSS_HARNESS
        ],
    )
    df = figure.data(con, spec=_spec(CROSS))
    assert df["status"].unique().to_list() == ["ok"]
    row = df.row(0, named=True)
    assert row["kendall_tau_b"] == pytest.approx(-2 / 3)
    assert round(row["kendall_tau_b"], 2) == -0.67
    assert row["flip_prob"] == pytest.approx(5 / 6)
    assert (row["n_systems"], row["n_tasks"]) == (4, N_TASKS)
    assert row["tau_ci_low"] <= row["kendall_tau_b"] <= row["tau_ci_high"]
    # systems are the harnesses (the model is the varied axis, so it is NULL)
    got = df.select("model", "harness", "rank_a", "rank_b", "displacement").rows()
    assert got == [
        (None, "claude_code", 1.0, 4.0, 3.0),
        (None, "openclaw", 2.0, 2.0, 0.0),
        (None, "hermes", 3.0, 3.0, 0.0),
        (None, "codex", 4.0, 1.0, 3.0),
    ]
    assert (row["max_displacement"], row["mean_displacement"]) == (3.0, 1.5)
    assert df["score_a_pct"].round(1).to_list() == [41.2, 35.1, 28.1, 13.2]
    # a harness's row stands for its runs under both models
    assert all(len(keys) == 2 * N_TASKS for keys in df["run_keys"].to_list())
    # the published per-system numbers straight into the shared formula give the same
    by = {(r["model"], r["harness"]): float(r["pass_rate_pct"]) for r in CROSS_HARNESS}
    harnesses = ["claude_code", "openclaw", "hermes", "codex"]
    direct = rank_change(
        [by[("Claude Opus 4.7", h)] for h in harnesses], [by[("GPT-5.5", h)] for h in harnesses]
    )
    assert direct.tau_b == pytest.approx(row["kendall_tau_b"])


def _judge_ablation(gpt54_inflation_pp: float) -> list[tuple[str, str, dict[str, int]]]:
    trajectory = {str(r["model"]): float(r["pass_rate_pct"]) for r in WEAVE_LEADERBOARD}
    (gpt55,) = JUDGE_ABLATION["rows"]  # type: ignore[misc]
    low = float(JUDGE_ABLATION["inflation_min_pp"])  # type: ignore[arg-type]
    outcome = {
        "Claude Opus 4.7": trajectory["Claude Opus 4.7"],  # not a GPT backbone: not inflated
        "GPT-5.5": float(gpt55["outcome_only_pct"]),
        "GPT-5.4": trajectory["GPT-5.4"] + gpt54_inflation_pp,
        "GPT-5.1-codex": trajectory["GPT-5.1-codex"] + low,
    }
    assert trajectory["GPT-5.5"] == gpt55["trajectory_pct"]
    return [
        (
            model,
            "openclaw",
            {
                "trajectory": _passes(trajectory[model]),
                "outcome_only": _passes(outcome[model]),
            },
        )
        for model in trajectory
    ]


def test_published_judge_ablation_tau_is_two_thirds(con: duckdb.DuckDBPyConnection) -> None:
    _add_weave(con, _judge_ablation(float(JUDGE_ABLATION["inflation_min_pp"])))  # type: ignore[arg-type]
    df = figure.data(con, spec=_spec(JUDGE))
    row = df.row(0, named=True)
    assert row["status"] == "ok"
    assert round(row["kendall_tau_b"], 2) == 0.67
    assert row["flip_prob"] == pytest.approx(1 / 6)
    assert df.select("model", "rank_a", "rank_b").rows() == [
        ("GPT-5.5", 1.0, 2.0),
        ("Claude Opus 4.7", 2.0, 1.0),
        ("GPT-5.4", 3.0, 3.0),
        ("GPT-5.1-codex", 4.0, 4.0),
    ]
    assert df["score_a_pct"].round(1).to_list() == [53.5, 35.1, 33.3, 12.3]
    assert df["score_b_pct"].round(1).to_list() == [33.3, 35.1, 22.8, 1.8]
    inflation = (df["score_a_pct"] - df["score_b_pct"]).round(1).to_list()
    assert inflation == [20.2, 0.0, 10.5, 10.5]  # GPT backbones within 10.3-20.2


def test_judge_ablation_tau_depends_on_gpt54_staying_below_opus(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _add_weave(con, _judge_ablation(float(JUDGE_ABLATION["inflation_max_pp"])))  # type: ignore[arg-type]
    row = figure.data(con, spec=_spec(JUDGE)).row(0, named=True)
    assert row["kendall_tau_b"] == pytest.approx(1 / 3)  # GPT-5.4 (43.0) overtakes Opus too


def test_vectorised_replicates_agree_with_kendall_tau_b() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, size=(300, 5)).astype(float)  # many ties, some constant rows
    b = rng.integers(0, 4, size=(300, 5)).astype(float)
    a[0] = 1.0
    tau, flips = replicate_tau_b_and_flips(a, b)
    for i in range(a.shape[0]):
        expected = kendall_tau_b(a[i], b[i])
        if np.isnan(expected):
            assert np.isnan(tau[i])
        else:
            assert tau[i] == pytest.approx(expected)
        assert flips[i] == pytest.approx(rank_change(a[i], b[i]).flip_prob)


def _obs(rows: list[tuple[str, str, str, float]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["system", "task_id", "condition", "value"], orient="row")


def test_compare_golden_on_three_systems() -> None:
    # per-task scores (A | B): s1 (1, 1 | 0, 0), s2 (0.5, 0.5 | 1, 0), s3 (0, 0 | 1, 1)
    obs = _obs(
        [
            ("s1", "t1", "a", 1.0),
            ("s1", "t2", "a", 1.0),
            ("s1", "t1", "b", 0.0),
            ("s1", "t2", "b", 0.0),
            ("s2", "t1", "a", 0.5),
            ("s2", "t2", "a", 0.5),
            ("s2", "t1", "b", 1.0),
            ("s2", "t2", "b", 0.0),
            ("s3", "t1", "a", 0.0),
            ("s3", "t2", "a", 0.0),
            ("s3", "t1", "b", 1.0),
            ("s3", "t2", "b", 1.0),
            ("s3", "t3", "a", 1.0),  # t3: only s3, only under A -> not a common task
        ]
    )
    got = compare(obs, ["system"], FAST)
    assert got.change is not None
    assert got.tasks == ["t1", "t2"]
    assert got.change.tau_b == pytest.approx(-1.0)  # the order reverses completely
    assert got.change.flip_prob == 1.0
    assert got.change.rank_a.tolist() == [1.0, 2.0, 3.0]
    assert got.change.rank_b.tolist() == [3.0, 2.0, 1.0]
    assert (got.change.max_displacement, got.change.mean_displacement) == (2.0, 4 / 3)
    # replicates with t1 only: B = (0, 1, 1), τ_b = -√(2/3); t2 only: B = (0, 0, 1): the same
    assert got.tau_ci_low == pytest.approx(-1.0)
    assert got.tau_ci_high == pytest.approx(-np.sqrt(2 / 3))


def test_interval_is_deterministic_in_the_seed() -> None:
    rng = np.random.default_rng(11)
    rows = []
    for s in range(5):
        for t in range(12):
            rows.append((f"s{s}", f"t{t}", "a", float(rng.random() < 0.2 + 0.1 * s)))
            rows.append((f"s{s}", f"t{t}", "b", float(rng.random() < 0.6 - 0.05 * s)))
    obs = _obs(rows)

    def interval(seed: int) -> tuple[float | None, float | None, float | None]:
        got = compare(obs, ["system"], BootstrapSpec(resamples=300, seed=seed))
        return got.tau_ci_low, got.tau_ci_high, got.flip_prob_boot

    assert interval(5) == interval(5)
    assert interval(5) != interval(6)


def test_default_reorderings_on_longcli_runs(con: duckdb.DuckDBPyConnection) -> None:
    # three systems: Pass ranks m1 > m2 = m3, F2P step ranks m3 > m2 > m1
    add_runs(
        con,
        run(model="m1", task_id="t1", passed=True),
        run(model="m1", task_id="t2", f2p_step=0.0),
        run(model="m2", task_id="t1", f2p_step=0.6),
        run(model="m2", task_id="t2", f2p_step=0.6),
        run(model="m3", task_id="t1", f2p_step=0.9),
        run(model="m3", task_id="t2", f2p_step=0.9),
        run(run_key="sc1", model="m1", protocol="self_correct", n_rounds=3, passed=True),
        run(run_key="sc2", model="m2", protocol="self_correct", n_rounds=3),
        run(run_key="sc3", model="m3", protocol="self_correct", n_rounds=1),  # no round 3
    )
    add_rounds(con, "sc1", (False, 0.5, True), (False, 0.75, True), (True, 1.0, True))
    add_rounds(con, "sc2", (True, 1.0, True), (False, 0.5, True), (False, 0.5, True))
    add_rounds(con, "sc3", (False, 0.5, True))
    df = figure.data(con, spec=ReportSpec(bootstrap=FAST))
    assert df.columns == list(figure.COLUMN_LABELS)
    assert df.filter(pl.col("status") == "skipped").select("reordering", "reason").rows() == [
        (
            "judge_outcome_only_vs_trajectory",
            "no finished WeaveBench runs judged by both 'outcome_only' and 'trajectory'",
        ),
        (
            "mode_hybrid_vs_cli_only",
            "no finished WeaveBench runs with a 'trajectory' judgement with mode 'hybrid' or "
            "'cli_only'",
        ),
    ]
    metric = df.filter(pl.col("reordering") == "metric_pass_vs_f2p_step")
    # the self-correct runs are systems too (m1/m2/m3 · self_correct, one task each, t1): they
    # have t1 only, so the common task set is {t1}
    assert metric["n_tasks"].unique().to_list() == [1]
    round_ = df.filter(pl.col("reordering") == "round_1_vs_3")
    assert_rows(
        round_.select("system", "score_a_pct", "score_b_pct", "rank_a", "rank_b", "run_keys"),
        [
            {
                "system": "m2 · h1",
                "score_a_pct": 100.0,
                "score_b_pct": 0.0,
                "rank_a": 1.0,
                "rank_b": 2.0,
                "run_keys": ["sc2"],
            },
            {
                "system": "m1 · h1",
                "score_a_pct": 0.0,
                "score_b_pct": 100.0,
                "rank_a": 2.0,
                "rank_b": 1.0,
                "run_keys": ["sc1"],
            },
        ],
    )
    assert round_["kendall_tau_b"].to_list() == [-1.0, -1.0]
    figure.chart(df).to_dict()


def test_metric_reordering_golden(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(model="m1", task_id="t1", passed=True),
        run(model="m1", task_id="t2", f2p_step=0.0),
        run(model="m2", task_id="t1", f2p_step=0.6),
        run(model="m2", task_id="t2", f2p_step=0.6),
        run(model="m3", task_id="t1", f2p_step=0.9),
        run(model="m3", task_id="t2", f2p_step=0.9),
    )
    spec = _spec(DEFAULT_REORDERINGS[1])
    got = figure.data(con, spec=spec)
    assert got.select("model", "score_a_pct", "score_b_pct", "rank_a", "rank_b").rows() == [
        ("m1", 50.0, 50.0, 1.0, 3.0),
        ("m2", 0.0, 60.0, 2.5, 2.0),
        ("m3", 0.0, 90.0, 2.5, 1.0),
    ]
    row = got.row(0, named=True)
    # pairs: m1>m2 under Pass, m2>m1 under F2P (flip); m1>m3 (flip); m2=m3 tied under Pass
    assert row["flip_prob"] == pytest.approx(2 / 3)
    assert row["kendall_tau_b"] == pytest.approx(-2 / np.sqrt(2 * 3))
    assert (row["max_displacement"], row["mean_displacement"]) == (2.0, (2 + 0.5 + 1.5) / 3)
    assert row["metric"] is None and row["n_tasks"] == 2


def test_harness_reordering_keeps_tasks_in_common(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(model="m1", harness="x", task_id="t1", passed=True),
        run(model="m1", harness="y", task_id="t1"),
        run(model="m2", harness="x", task_id="t1"),
        run(model="m2", harness="y", task_id="t1", passed=True),
        run(model="m1", harness="x", task_id="t2", passed=True),  # t2 only under x
        run(model="m3", harness="x", task_id="t1", passed=True),  # m3 only under x
    )
    spec = _spec(ReorderingSpec(name="h", axis="harness", a="x", b="y", kind="longcli"))
    got = figure.data(con, spec=spec)
    assert got.select("model", "harness", "n_tasks", "n_one_sided", "rank_a", "rank_b").rows() == [
        ("m1", None, 1, 1, 1.0, 2.0),  # m3 (under x only) is left out and counted
        ("m2", None, 1, 1, 2.0, 1.0),
    ]


def test_bad_reordering_specs_are_reason_rows(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(), run(model="m2"))
    spec = _spec(
        ReorderingSpec(name="bad_round", axis="round", a="first", b="3"),
        ReorderingSpec(name="bad_metric", axis="harness", a="h1", b="h2", metric="speed"),
        ReorderingSpec(name="one_side", axis="harness", a="h1", b="h9"),
    )
    got = figure.data(con, spec=spec)
    assert got.select("reordering", "status", "reason").rows() == [
        (
            "bad_round",
            "skipped",
            "round axis: a='first' and b='3' must be round numbers (1, 2, 3 ...)",
        ),
        (
            "bad_metric",
            "skipped",
            "unknown metric 'speed' (use one of pass, f2p_pass, f2p_step, p2p_pass, p2p_step, "
            "judged_pass, final_score)",
        ),
        (
            "one_side",
            "skipped",
            "0 system(s) have finished runs under both conditions (a ranking needs two)",
        ),
    ]
    assert "no reordering could be measured" in str(figure.chart(got).to_dict())
