"""Golden tests of the interface ablation (modes and the hybrid gain) and the judge ablation
(outcome-only vs trajectory on paired runs)."""

from __future__ import annotations

import duckdb
import polars as pl
from warehouse_rows import add_runs, assert_rows
from weave_rows import add_judgements, judgement, weave_run

from analysis.figures import interface_ablation, judge_ablation
from analysis.published import PAPER_WEAVE
from realcli.schema.report import BootstrapSpec, ReportFilters, ReportSpec


def _ours(df: pl.DataFrame) -> pl.DataFrame:
    return df.filter(pl.col("source") == "realcli")


def test_interface_ablation_rates_per_mode_and_the_gain_over_the_best_single_mode(
    con: duckdb.DuckDBPyConnection,
) -> None:
    outcomes = {  # (mode, task): final score
        ("hybrid", "t1"): 0.9,
        ("hybrid", "t2"): 0.95,
        ("cli_only", "t1"): 0.85,
        ("cli_only", "t2"): 0.4,
        ("gui_only", "t1"): 0.1,
    }
    add_runs(
        con,
        *(weave_run(run_key=f"{m}-{t}", mode=m, task_id=t) for m, t in outcomes),
        weave_run(run_key="gui_only-t2", mode="gui_only", task_id="t2"),  # not judged: failure
        weave_run(run_key="m2-hybrid", model="m2", task_id="t1"),  # no single mode: no gain
    )
    add_judgements(
        con,
        *(judgement(f"{m}-{t}", final=f, task_id=t) for (m, t), f in outcomes.items()),
        judgement("m2-hybrid", final=0.3),
    )
    df = interface_ablation.data(con)
    assert df.columns == list(interface_ablation.COLUMN_LABELS)
    common = {
        "harness": "openclaw",
        "protocol": "autonomous",
        "source": "realcli",
        "note": None,
        "n_incomplete": 0,
    }
    no_gain = {
        "best_single_mode": None,
        "hybrid_gain_pp": None,
        "gain_ci_low": None,
        "gain_ci_high": None,
    }
    assert_rows(
        _ours(df),
        [
            common
            | {
                "model": "m1",
                "mode": "hybrid",
                "n_runs": 2,
                "n_tasks": 2,
                "pass_rate_pct": 100.0,
                "pass_rate_ci_low": 100.0,
                "pass_rate_ci_high": 100.0,
                "best_single_mode": "cli_only",
                "hybrid_gain_pp": 50.0,  # 100 - max(cli_only 50, gui_only 0)
                # a draw of t1 twice: 100 - 100 = 0; of t2 twice: 100 - 0 = 100
                "gain_ci_low": 0.0,
                "gain_ci_high": 100.0,
                "n_unjudged": 0,
                "run_keys": ["hybrid-t1", "hybrid-t2"],
            },
            common
            | {
                "model": "m1",
                "mode": "cli_only",
                "n_runs": 2,
                "n_tasks": 2,
                "pass_rate_pct": 50.0,
                "pass_rate_ci_low": 0.0,
                "pass_rate_ci_high": 100.0,
                "n_unjudged": 0,
                "run_keys": ["cli_only-t1", "cli_only-t2"],
            }
            | no_gain,
            common
            | {
                "model": "m1",
                "mode": "gui_only",
                "n_runs": 2,
                "n_tasks": 2,
                "pass_rate_pct": 0.0,
                "pass_rate_ci_low": 0.0,
                "pass_rate_ci_high": 0.0,
                "n_unjudged": 1,
                "run_keys": ["gui_only-t1", "gui_only-t2"],
            }
            | no_gain,
            common
            | {
                "model": "m2",
                "mode": "hybrid",
                "n_runs": 1,
                "n_tasks": 1,
                "pass_rate_pct": 0.0,
                "pass_rate_ci_low": 0.0,
                "pass_rate_ci_high": 0.0,
                "n_unjudged": 0,
                "run_keys": ["m2-hybrid"],
            }
            | no_gain,
        ],
    )
    paper = df.filter(pl.col("source") == PAPER_WEAVE)
    assert paper.select("mode", "pass_rate_pct", "hybrid_gain_pp").rows() == [
        ("gui_only", 1.8, None),
        ("cli_only", 3.5, None),
        ("hybrid", None, 31.6),
        ("hybrid", None, 4.5),
        ("hybrid", None, 3.2),
    ]
    assert paper["note"].str.contains("MCPWorld").sum() == 1


def _seed_judges(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        *(weave_run(run_key=f"r{i}", task_id=f"t{i}") for i in range(1, 6)),
        weave_run(run_key="r6", task_id="t1", seed=2, status="incomplete"),
        weave_run(run_key="g1", mode="gui_only", task_id="t1"),
    )
    add_judgements(
        con,
        # r1 both pass; r2 a hack only the outcome-only judge passes; r3 both fail
        judgement("r1", "outcome_only", 0.9, task_id="t1"),
        judgement("r1", "trajectory", 0.9, task_id="t1"),
        judgement("r2", "outcome_only", 0.95, task_id="t2"),
        judgement("r2", "trajectory", 0.0, hack=True, family="E5", task_id="t2"),
        judgement("r3", "outcome_only", 0.5, task_id="t3"),
        judgement("r3", "trajectory", 0.4, task_id="t3"),
        # r4: the trajectory judge failed; r5: judged by outcome_only only -> unpaired
        judgement("r4", "outcome_only", 0.9, task_id="t4"),
        judgement("r4", "trajectory", status="judge_failed", task_id="t4"),
        judgement("r5", "outcome_only", 0.9, task_id="t5"),
        # gui_only: the audited judge passes what the outcome-only one fails
        judgement("g1", "outcome_only", 0.7, task_id="t1"),
        judgement("g1", "trajectory", 0.85, task_id="t1"),
    )


def test_judge_ablation_on_paired_runs_with_the_inflation_and_flips(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _seed_judges(con)
    df = judge_ablation.data(con)
    assert df.columns == list(judge_ablation.COLUMN_LABELS)
    common = {
        "model": "m1",
        "harness": "openclaw",
        "protocol": "autonomous",
        "source": "realcli",
        "audited_judge": "trajectory",
        "note": None,
    }
    assert_rows(
        _ours(df),
        [
            common
            | {
                "mode": "gui_only",
                "n_runs": 1,
                "n_tasks": 1,
                "outcome_only_pct": 0.0,
                "outcome_only_ci_low": 0.0,
                "outcome_only_ci_high": 0.0,
                "audited_pct": 100.0,
                "audited_ci_low": 100.0,
                "audited_ci_high": 100.0,
                "inflation_pp": -100.0,
                "inflation_ci_low": -100.0,
                "inflation_ci_high": -100.0,
                "passed_only_outcome": 0,
                "passed_only_audited": 1,
                "n_hacks": 0,
                "n_unpaired": 0,
                "n_incomplete": 0,
                "run_keys": ["g1"],
            },
            common
            | {
                "mode": "hybrid",
                "n_runs": 3,
                "n_tasks": 3,
                "outcome_only_pct": 100 * 2 / 3,
                "outcome_only_ci_low": 0.0,
                "outcome_only_ci_high": 100.0,
                "audited_pct": 100 / 3,
                "audited_ci_low": 0.0,
                "audited_ci_high": 100.0,
                "inflation_pp": 100 / 3,  # r2: 1 - 0 over 3 paired runs
                "inflation_ci_low": 0.0,
                "inflation_ci_high": 100.0,
                "passed_only_outcome": 1,
                "passed_only_audited": 0,
                "n_hacks": 1,
                "n_unpaired": 2,
                "n_incomplete": 1,
                "run_keys": ["r1", "r2", "r3"],
            },
        ],
    )
    paper = df.filter(pl.col("source") == PAPER_WEAVE)
    assert paper.select("model", "outcome_only_pct", "audited_pct", "inflation_pp").row(0) == (
        "GPT-5.5",
        53.5,
        33.3,
        20.2,
    )
    assert paper["note"][1] == "inflation removed on four GPT backbones: 10.3–20.2 pp"


def test_judge_ablation_interval_is_paired_and_deterministic(
    con: duckdb.DuckDBPyConnection,
) -> None:
    add_runs(con, *(weave_run(run_key=f"r{t}", task_id=f"t{t}") for t in range(8)))
    add_judgements(
        con,
        *(
            judgement(f"r{t}", "outcome_only", 0.9 if t < 6 else 0.2, task_id=f"t{t}")
            for t in range(8)
        ),
        *(
            judgement(f"r{t}", "trajectory", 0.9 if t < 3 else 0.2, task_id=f"t{t}")
            for t in range(8)
        ),
    )
    spec = ReportSpec(bootstrap=BootstrapSpec(resamples=400, seed=3), published=False)
    first = judge_ablation.data(con, spec=spec)
    assert first.equals(judge_ablation.data(con, spec=spec))
    row = first.row(0, named=True)
    assert row["inflation_pp"] == 100 * 3 / 8
    # paired: the difference never goes below 0 because no run flips the other way
    assert row["inflation_ci_low"] >= 0 and row["inflation_ci_high"] > row["inflation_pp"]


def test_judge_ablation_is_empty_without_pairs_or_when_auditing_outcome_only(
    con: duckdb.DuckDBPyConnection,
) -> None:
    add_runs(con, weave_run(run_key="x"))
    add_judgements(con, judgement("x", "trajectory", 0.9))
    assert judge_ablation.data(con).is_empty()
    assert judge_ablation.data(con, spec=ReportSpec(primary_judge="outcome_only")).is_empty()
    assert interface_ablation.data(con).height == 1 + 5
    for figure in (judge_ablation, interface_ablation):
        empty = figure.data(con, spec=ReportSpec(filters=ReportFilters(kinds=("longcli",))))
        assert empty.is_empty() and empty.columns == list(figure.COLUMN_LABELS)
        assert figure.EMPTY and figure.POPULATION
        assert figure.chart(empty).to_dict()["title"] == figure.TITLE


def test_hybrid_gain_when_the_modes_ran_different_tasks(con: duckdb.DuckDBPyConnection) -> None:
    """A replicate that draws no task of a mode skips that mode (no all-NaN warning, no crash)."""
    add_runs(
        con,
        weave_run(run_key="h1", task_id="t1"),
        weave_run(run_key="h2", task_id="t2"),
        weave_run(run_key="c3", task_id="t3", mode="cli_only"),
    )
    add_judgements(
        con,
        judgement("h1", final=0.9, task_id="t1"),
        judgement("h2", final=0.9, task_id="t2"),
        judgement("c3", final=0.1, task_id="t3"),
    )
    hybrid = _ours(interface_ablation.data(con)).row(0, named=True)
    assert (hybrid["mode"], hybrid["hybrid_gain_pp"]) == ("hybrid", 100.0)
    assert hybrid["gain_ci_low"] == 100.0 and hybrid["gain_ci_high"] == 100.0
