"""Golden test of the LongCLI main table: runs rows in, one row per system out."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_runs, assert_rows, run

from analysis.figures import longcli_main_table
from analysis.published import LONGCLI_MAIN, PAPER_LONGCLI
from analysis.systems import SYSTEM_AXES
from realcli.schema.report import BootstrapSpec, ReportSpec

OURS_ONLY = ReportSpec(published=False)


def _seed_two_systems(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        # m1 · h1, task t1: 3 seeds, 1 pass
        run(run_key="a1", task_id="t1", seed=1, passed=True, wall_time_s=30.0),
        run(run_key="a2", task_id="t1", seed=2, f2p_step=0.5, wall_time_s=20.0),
        run(run_key="a3", task_id="t1", seed=3, f2p_step=0.2, p2p_pass=False, p2p_step=0.5),
        # m1 · h1, task t2: 3 finished seeds (one infra error), no pass, one incomplete
        run(run_key="b1", task_id="t2", seed=1, f2p_step=0.8),
        run(
            run_key="b2",
            task_id="t2",
            seed=2,
            status="infra_error",
            f2p_step=0.0,
            p2p_pass=False,
            p2p_step=0.0,
        ),
        run(run_key="b3", task_id="t2", seed=3, status="task_error", f2p_step=0.0),
        run(run_key="b4", task_id="t2", seed=4, status="incomplete"),
        # m2 · h1: task t1 with only 2 seeds -> Pass@2
        run(run_key="c1", model="m2", task_id="t1", seed=1, passed=True),
        run(run_key="c2", model="m2", task_id="t1", seed=2),
        # a WeaveBench task is not part of this table
        run(run_key="w1", model="m2", task_id="w1", task_kind="weave", passed=True),
    )


def test_main_table_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed_two_systems(con)
    got = longcli_main_table.data(con)
    expected = [
        {
            "model": "m1",
            "harness": "h1",
            "mode": "cli_only",
            "protocol": "autonomous",
            "system": "m1 · h1",
            "n_runs": 6,  # the incomplete run is out, the infra and task errors are in
            "n_tasks": 2,
            "pass_pct": 100 / 6,
            "k": 3,
            "pass_at_k_pct": 50.0,  # t1: n=3, c=1 -> 1.0; t2: n=3, c=0 -> 0.0
            "f2p_pass_pct": 100 / 6,
            "f2p_step_pct": (100 + 50 + 20 + 80 + 0 + 0) / 6,
            "p2p_pass_pct": 4 / 6 * 100,
            "p2p_step_pct": (100 + 100 + 50 + 100 + 0 + 100) / 6,
            "mean_wall_time_s": (30 + 20 + 10 + 10 + 10 + 10) / 6,
            "n_infra_errors": 1,
            "n_task_errors": 1,
            "n_incomplete": 1,
            "source": "realcli",
            "run_keys": ["a1", "a2", "a3", "b1", "b2", "b3"],  # not b4 (incomplete)
            # two tasks: a replicate's mean is t1's, t2's or their mean, so the 95% percentile
            # interval spans the two per-task means (pass 1/3 and 0; F2P step 17/30 and 8/30)
            "pass_ci_low": 0.0,
            "pass_ci_high": 100 / 3,
            "f2p_step_ci_low": 80 / 3,
            "f2p_step_ci_high": 170 / 3,
            "p2p_pass_ci_low": 200 / 3,  # 2/3 on both tasks: no spread
            "p2p_pass_ci_high": 200 / 3,
        },
        {
            "model": "m2",
            "harness": "h1",
            "mode": "cli_only",
            "protocol": "autonomous",
            "system": "m2 · h1",
            "n_runs": 2,
            "n_tasks": 1,
            "pass_pct": 50.0,
            "k": 2,  # only two seeds: Pass@2, stated
            "pass_at_k_pct": 100.0,  # 1 - C(1,2)/C(2,2)
            "f2p_pass_pct": 50.0,
            "f2p_step_pct": 50.0,
            "p2p_pass_pct": 100.0,
            "p2p_step_pct": 100.0,
            "mean_wall_time_s": 10.0,
            "n_infra_errors": 0,
            "n_task_errors": 0,
            "n_incomplete": 0,
            "source": "realcli",
            "run_keys": ["c1", "c2"],  # not w1 (a WeaveBench task)
            # one task: every replicate is that task, the interval is the point
            "pass_ci_low": 50.0,
            "pass_ci_high": 50.0,
            "f2p_step_ci_low": 50.0,
            "f2p_step_ci_high": 50.0,
            "p2p_pass_ci_low": 100.0,
            "p2p_pass_ci_high": 100.0,
        },
    ]
    paper_columns = {c: None for c in longcli_main_table.COLUMN_LABELS}
    expected += [
        paper_columns
        | {
            "model": row["model"],
            "harness": row["harness"],
            "system": f"{row['model']} · {row['harness']} (paper)",
            "source": PAPER_LONGCLI,
            "pass_pct": row["pass_pct"],
            "k": 3 if "pass_at_k_pct" in row else None,
            "pass_at_k_pct": row.get("pass_at_k_pct"),
            "f2p_step_pct": row["f2p_step_pct"],
            "p2p_pass_pct": row.get("p2p_pass_pct"),
            "run_keys": [],
        }
        for row in LONGCLI_MAIN
    ]
    assert expected[2]["pass_pct"] == 16.7 and expected[2]["pass_at_k_pct"] == 25.0
    assert len(got["run_keys"][0]) == 6 and len(got["run_keys"][1]) == 2
    assert got.columns == list(longcli_main_table.COLUMN_LABELS)
    assert got.columns[:4] == list(SYSTEM_AXES)
    assert_rows(got, expected)


def test_system_label_names_axes_that_vary(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(mode="cli_only"), run(mode="hybrid"))
    assert longcli_main_table.data(con, spec=OURS_ONLY)["system"].to_list() == [
        "m1 · h1 · cli_only",
        "m1 · h1 · hybrid",
    ]


def test_system_with_only_incomplete_runs_has_empty_rates(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(status="incomplete"), run(status="incomplete", seed=2))
    row = longcli_main_table.data(con).row(0, named=True)
    assert (row["n_runs"], row["n_tasks"], row["n_incomplete"]) == (0, 0, 2)
    assert (row["pass_pct"], row["pass_at_k_pct"], row["k"]) == (None, None, None)
    assert (row["pass_ci_low"], row["pass_ci_high"], row["run_keys"]) == (None, None, [])
    longcli_main_table.chart(longcli_main_table.data(con)).to_dict()


def test_empty_warehouse_gives_an_empty_typed_table(con: duckdb.DuckDBPyConnection) -> None:
    for spec in (OURS_ONLY, None):  # the paper's rows need a row of ours to stand beside
        df = longcli_main_table.data(con, spec=spec)
        assert df.is_empty()
        assert df.columns == list(longcli_main_table.COLUMN_LABELS)


def test_paper_rows_are_labelled_and_optional(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(passed=True))
    got = longcli_main_table.data(con)
    assert got["source"].to_list() == ["realcli"] + [PAPER_LONGCLI] * len(LONGCLI_MAIN)
    assert longcli_main_table.data(con, spec=OURS_ONLY)["source"].to_list() == ["realcli"]


def test_chart_shows_four_metrics_per_system(con: duckdb.DuckDBPyConnection) -> None:
    _seed_two_systems(con)
    spec = longcli_main_table.chart(longcli_main_table.data(con, spec=OURS_ONLY)).to_dict()
    values = next(iter(spec["datasets"].values()))
    assert {v["metric"] for v in values} == {"Pass", "Pass@k", "F2P step", "P2P pass"}
    assert len(values) == 8
    with_paper = longcli_main_table.chart(longcli_main_table.data(con)).to_dict()
    paper_values = next(iter(with_paper["datasets"].values()))
    # 8 of ours + the paper's 12 published Pass, Pass@3, F2P step and P2P pass numbers
    assert len(paper_values) == 8 + 12


def test_two_protocols_of_one_agent_are_two_systems(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(protocol="autonomous", passed=True),
        run(protocol="autonomous", seed=2),
        run(protocol="self_correct", passed=True, n_rounds=3),
    )
    got = longcli_main_table.data(con, spec=OURS_ONLY)
    assert got.select("protocol", "system", "n_runs", "pass_pct").rows() == [
        ("autonomous", "m1 · h1 · autonomous", 2, 50.0),
        ("self_correct", "m1 · h1 · self_correct", 1, 100.0),
    ]


def _ci_runs(con: duckdb.DuckDBPyConnection) -> None:
    """Two systems on six tasks, three seeds each, with pass rates that differ per task."""
    rows = []
    for model, shift in (("m1", 0), ("m2", 1)):
        for t in range(6):
            for seed in range(3):
                passed = (t + seed + shift) % 3 == 0 or t == shift
                rows.append(
                    run(model=model, task_id=f"t{t}", seed=seed, passed=passed, f2p_step=t / 6)
                )
    add_runs(con, *rows)


def test_confidence_intervals_are_deterministic_in_the_seed(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _ci_runs(con)
    ci_columns = [c for c in longcli_main_table.COLUMN_LABELS if "_ci_" in c]

    def intervals(seed: int, resamples: int = 500) -> list[tuple[object, ...]]:
        spec = ReportSpec(published=False, bootstrap=BootstrapSpec(resamples=resamples, seed=seed))
        return longcli_main_table.data(con, spec=spec).select(ci_columns).rows()

    first = intervals(seed=7)
    assert intervals(seed=7) == first  # same seed: the same intervals, bit for bit
    assert intervals(seed=8) != first  # another seed: another draw of the tasks
    table = longcli_main_table.data(con, spec=OURS_ONLY)
    for row in table.iter_rows(named=True):
        for stem in ("pass", "f2p_step", "p2p_pass"):
            low, high, point = row[f"{stem}_ci_low"], row[f"{stem}_ci_high"], row[f"{stem}_pct"]
            assert low <= point <= high, (row["system"], stem)
        assert row["pass_ci_low"] < row["pass_ci_high"]  # tasks differ: a real spread
