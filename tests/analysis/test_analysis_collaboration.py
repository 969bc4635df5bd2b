"""Golden test of the collaboration table: one row per protocol of each model x harness x mode."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_runs, assert_rows, run

from analysis.figures import collaboration


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    def runs(
        protocol: str, passes: list[bool], interventions: int, **kw: object
    ) -> list[dict[str, object]]:
        return [
            run(
                run_key=f"{kw.get('model', 'm1')}-{protocol}-{i}",
                protocol=protocol,
                task_id=f"t{i // 2 + 1}",
                seed=i % 2 + 1,
                passed=passed,
                f2p_step=1.0 if passed else 0.5,
                n_interventions=interventions,
                **kw,
            )
            for i, passed in enumerate(passes)
        ]

    add_runs(
        con,
        # listed out of order: the table puts protocols in the paper's order
        *runs("self_correct", [True, False, False, False], 2),
        *runs("custom_protocol", [False, False], 0),
        *runs("plan", [True, True, True, False], 1),
        *runs("autonomous", [True, False, False, False], 0),
        *runs("plan", [False, False], 1, model="m2"),  # no autonomous baseline for m2
        run(run_key="killed", protocol="plan", status="incomplete", n_interventions=None),  # out
    )


def _row(protocol: str, **values: object) -> dict[str, object]:
    model, n = values.get("model", "m1"), values.get("n_runs", 4)
    assert isinstance(n, int)
    return {
        "run_keys": [f"{model}-{protocol}-{i}" for i in range(n)],
        "model": "m1",
        "harness": "h1",
        "mode": "cli_only",
        "protocol": protocol,
        "setup": "m1 · h1",
        "n_tasks": 2,
        "k": 2,
        "p2p_pass_pct": 100.0,
    } | values


def test_collaboration_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = collaboration.data(con)
    assert got.columns == list(collaboration.COLUMN_LABELS)
    expected = [
        # t1: n=2, c=1 -> Pass@2 = 1; t2: n=2, c=0 -> 0
        _row("autonomous", n_runs=4, pass_pct=25.0, pass_at_k_pct=50.0, f2p_step_pct=62.5,
             interventions_per_run=0.0, pass_delta_pts=0.0),
        # t1: c=2, t2: c=1 -> Pass@2 = 1 for both
        _row("plan", n_runs=4, pass_pct=75.0, pass_at_k_pct=100.0, f2p_step_pct=87.5,
             interventions_per_run=1.0, pass_delta_pts=50.0),
        _row("self_correct", n_runs=4, pass_pct=25.0, pass_at_k_pct=50.0, f2p_step_pct=62.5,
             interventions_per_run=2.0, pass_delta_pts=0.0),
        _row("custom_protocol", n_runs=2, n_tasks=1, pass_pct=0.0, pass_at_k_pct=0.0,
             f2p_step_pct=50.0, interventions_per_run=0.0, pass_delta_pts=-25.0),
        _row("plan", model="m2", setup="m2 · h1", n_runs=2, n_tasks=1, pass_pct=0.0,
             pass_at_k_pct=0.0, f2p_step_pct=50.0, interventions_per_run=1.0,
             pass_delta_pts=None),
    ]  # fmt: skip
    assert_rows(got, expected)


def test_protocols_follow_the_paper_order(con: duckdb.DuckDBPyConnection) -> None:
    names = ["simulated_user", "self_correct", "plan_interactive", "interactive", "plan"]
    add_runs(con, *(run(protocol=p) for p in [*names, "autonomous", "aaa_other"]))
    assert collaboration.data(con)["protocol"].to_list() == [
        "autonomous",
        "plan",
        "interactive",
        "plan_interactive",
        "simulated_user",
        "self_correct",
        "aaa_other",
    ]


def test_runs_ingested_before_interventions_were_counted_have_no_rate(
    con: duckdb.DuckDBPyConnection,
) -> None:
    add_runs(con, run(n_interventions=None), run(seed=2, n_interventions=None))
    assert collaboration.data(con)["interventions_per_run"].to_list() == [None]


def test_chart_groups_protocols_within_each_setup(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    spec = collaboration.chart(collaboration.data(con)).to_dict()
    values = next(iter(spec["datasets"].values()))
    assert {v["metric"] for v in values} == {"Pass", "Pass@2", "F2P step", "P2P pass"}
    assert len(values) == 5 * 4  # systems x metrics
    layer = spec["spec"]["layer"][0]["encoding"]
    assert layer["yOffset"]["field"] == "protocol"
    assert layer["yOffset"]["sort"][:3] == ["autonomous", "plan", "self_correct"]
