"""Golden tests of the WeaveBench leaderboard and cross-harness table: runs and judgements rows
in, one row per system out (unjudged finished runs are failures; incomplete runs excluded)."""

from __future__ import annotations

import duckdb
import polars as pl
from warehouse_rows import add_runs, assert_rows, run
from weave_rows import add_judgements, judgement, weave_run

from analysis.figures import weave_cross_harness, weave_leaderboard
from analysis.published import PAPER_WEAVE, WEAVE_LEADERBOARD
from realcli.schema.report import BootstrapSpec, ReportFilters, ReportSpec

_NO_DOMAIN = {f"pr_{d}_pct": None for d in ("dsk", "web", "dav", "ops", "spa", "des")}


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        # m1 · openclaw: t1 (GAM) one pass one fail; t2 (DOC) judge_failed, unjudged, incomplete
        weave_run(run_key="a1", task_id="t1"),
        weave_run(run_key="a2", task_id="t1", seed=2),
        weave_run(run_key="a3", task_id="t2", task_domain="DOC"),
        weave_run(run_key="a4", task_id="t2", task_domain="DOC", seed=2),
        weave_run(run_key="a5", task_id="t2", task_domain="DOC", seed=3, status="incomplete"),
        # m2 · openclaw: judged at τ = 0.5, final 0.6 passes
        weave_run(run_key="b1", model="m2", task_id="t1"),
        # m1 · codex
        weave_run(run_key="c1", harness="codex", task_id="t1"),
        # a LongCLI run is not a WeaveBench run
        run(run_key="l1", passed=True),
    )
    add_judgements(
        con,
        judgement("a1", final=0.9),
        judgement("a2", final=0.5, family="E1", sub_class="E1.3"),
        judgement("a3", status="judge_failed", task_id="t2"),
        judgement("a1", "outcome_only", final=0.1),  # another judge: not the leaderboard's
        judgement("b1", final=0.6, tau=0.5),
        judgement("c1", final=0.85),
        judgement("l1", final=0.95),
    )


def _ours(df: pl.DataFrame) -> pl.DataFrame:
    return df.filter(pl.col("source") == "realcli")


def test_leaderboard_rows_grouped_by_harness_with_unjudged_runs_as_failures(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _seed(con)
    df = weave_leaderboard.data(con)
    assert df.columns == list(weave_leaderboard.COLUMN_LABELS)
    common = {"mode": "hybrid", "protocol": "autonomous", "source": "realcli", **_NO_DOMAIN}
    assert_rows(
        _ours(df),
        [
            common
            | {
                "model": "m1",
                "harness": "codex",
                "n_runs": 1,
                "n_tasks": 1,
                "tau": "0.8",
                "pass_rate_pct": 100.0,
                "pass_rate_ci_low": 100.0,
                "pass_rate_ci_high": 100.0,
                "overall_pct": 85.0,
                "overall_ci_low": 85.0,
                "overall_ci_high": 85.0,
                "pr_gam_pct": 100.0,
                "pr_doc_pct": None,
                "n_unjudged": 0,
                "n_incomplete": 0,
                "run_keys": ["c1"],
            },
            common
            | {
                "model": "m2",
                "harness": "openclaw",
                "n_runs": 1,
                "n_tasks": 1,
                "tau": "0.5",
                "pass_rate_pct": 100.0,
                "pass_rate_ci_low": 100.0,
                "pass_rate_ci_high": 100.0,
                "overall_pct": 60.0,
                "overall_ci_low": 60.0,
                "overall_ci_high": 60.0,
                "pr_gam_pct": 100.0,
                "pr_doc_pct": None,
                "n_unjudged": 0,
                "n_incomplete": 0,
                "run_keys": ["b1"],
            },
            common
            | {
                "model": "m1",
                "harness": "openclaw",
                "n_runs": 4,
                "n_tasks": 2,
                "tau": "0.8",
                "pass_rate_pct": 25.0,  # a1 of a1..a4; a3 (judge_failed), a4 (no judgement) fail
                # per task 0.5 and 0.0: the 2-task bootstrap spans 0..0.5
                "pass_rate_ci_low": 0.0,
                "pass_rate_ci_high": 50.0,
                "overall_pct": 35.0,  # (0.9 + 0.5 + 0 + 0) / 4
                "overall_ci_low": 0.0,
                "overall_ci_high": 70.0,
                "pr_gam_pct": 50.0,
                "pr_doc_pct": 0.0,
                "n_unjudged": 2,
                "n_incomplete": 1,
                "run_keys": ["a1", "a2", "a3", "a4"],
            },
        ],
    )
    # the paper's OpenClaw sweep sits in the openclaw group, after ours, labelled
    assert df["harness"].to_list() == ["codex"] + ["openclaw"] * 6
    paper = df.filter(pl.col("source") == PAPER_WEAVE)
    assert paper.select("model", "pass_rate_pct").rows() == [
        (r["model"], r["pass_rate_pct"]) for r in WEAVE_LEADERBOARD
    ]
    assert paper["n_runs"].is_null().all() and paper["run_keys"].to_list() == [[]] * 4


def test_leaderboard_reads_the_primary_judge_and_the_filters(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _seed(con)
    spec = ReportSpec(primary_judge="outcome_only", published=False)
    m1 = weave_leaderboard.data(con, spec=spec).filter(
        (pl.col("model") == "m1") & (pl.col("harness") == "openclaw")
    )
    assert m1.select("pass_rate_pct", "n_unjudged").row(0) == (0.0, 3)  # only a1 has one, 0.1
    only_m2 = ReportSpec(filters=ReportFilters(models=("m2",)))
    assert _ours(weave_leaderboard.data(con, spec=only_m2))["run_keys"].to_list() == [["b1"]]
    longcli_only = ReportSpec(filters=ReportFilters(kinds=("longcli",)))
    assert weave_leaderboard.data(con, spec=longcli_only).is_empty()
    other_judge = ReportSpec(filters=ReportFilters(judges=("agent",)))
    assert weave_leaderboard.data(con, spec=other_judge).is_empty()


def test_leaderboard_intervals_are_deterministic_in_the_bootstrap_seed(
    con: duckdb.DuckDBPyConnection,
) -> None:
    add_runs(
        con,
        *(weave_run(run_key=f"r{t}{s}", task_id=f"t{t}", seed=s) for t in range(6) for s in (1, 2)),
    )
    add_judgements(
        con,
        *(
            judgement(f"r{t}{s}", final=0.81 + 0.03 * t if (t + s) % 3 else 0.1 * t)
            for t in range(6)
            for s in (1, 2)
        ),
    )
    spec = ReportSpec(bootstrap=BootstrapSpec(resamples=500, seed=11))
    cols = ["pass_rate_ci_low", "pass_rate_ci_high", "overall_ci_low", "overall_ci_high"]
    first = _ours(weave_leaderboard.data(con, spec=spec)).select(cols)
    assert first.equals(_ours(weave_leaderboard.data(con, spec=spec)).select(cols))
    low, high = first.row(0)[:2]
    assert low < 100 * 8 / 12 < high  # 8 of 12 runs pass
    other = ReportSpec(bootstrap=BootstrapSpec(resamples=500, seed=12))
    assert not first.equals(_ours(weave_leaderboard.data(con, spec=other)).select(cols))


def test_cross_harness_rows_and_the_papers_matrix(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    df = weave_cross_harness.data(con)
    assert df.columns == list(weave_cross_harness.COLUMN_LABELS)
    common = {"mode": "hybrid", "protocol": "autonomous", "source": "realcli", "n_incomplete": 0}
    assert_rows(
        _ours(df),
        [
            common
            | {
                "model": "m1",
                "harness": "codex",
                "n_runs": 1,
                "n_tasks": 1,
                "tau": "0.8",
                "pass_rate_pct": 100.0,
                "pass_rate_ci_low": 100.0,
                "pass_rate_ci_high": 100.0,
                "n_unjudged": 0,
                "run_keys": ["c1"],
            },
            common
            | {
                "model": "m1",
                "harness": "openclaw",
                "n_runs": 4,
                "n_tasks": 2,
                "tau": "0.8",
                "pass_rate_pct": 25.0,
                "pass_rate_ci_low": 0.0,
                "pass_rate_ci_high": 50.0,
                "n_unjudged": 2,
                "n_incomplete": 1,
                "run_keys": ["a1", "a2", "a3", "a4"],
            },
            common
            | {
                "model": "m2",
                "harness": "openclaw",
                "n_runs": 1,
                "n_tasks": 1,
                "tau": "0.5",
                "pass_rate_pct": 100.0,
                "pass_rate_ci_low": 100.0,
                "pass_rate_ci_high": 100.0,
                "n_unjudged": 0,
                "run_keys": ["b1"],
            },
        ],
    )
    paper = df.filter(pl.col("source") == PAPER_WEAVE)
    assert paper.height == 8
    assert paper.filter(pl.col("harness") == "claude_code")["pass_rate_pct"].to_list() == [
        41.2,
        14.9,
    ]
    assert weave_cross_harness.data(con, spec=ReportSpec(published=False)).height == 3


def test_no_weave_runs_means_no_rows_and_a_chart_that_says_so(
    con: duckdb.DuckDBPyConnection,
) -> None:
    add_runs(con, run(passed=True), weave_run(status="incomplete"))
    for figure in (weave_leaderboard, weave_cross_harness):
        df = figure.data(con)
        assert df.is_empty() and df.columns == list(figure.COLUMN_LABELS)
        assert figure.EMPTY and figure.POPULATION
        assert figure.chart(df).to_dict()["title"] == figure.TITLE
