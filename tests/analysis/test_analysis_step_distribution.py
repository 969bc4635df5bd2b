"""Golden test of the F2P step-score distribution: every bin per system, shares of finished runs."""

from __future__ import annotations

import duckdb
import polars as pl
from warehouse_rows import add_runs, assert_rows, run

from analysis.figures import step_distribution

BINS = ["[0,30)", "[30,60)", "[60,80)", "[80,100)", "100"]


def test_step_distribution_golden(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="zero", f2p_step=0.0),
        run(run_key="low", f2p_step=0.29),
        run(run_key="mid", f2p_step=0.3),
        run(run_key="infra", status="infra_error", f2p_step=0.0),  # a failure in [0,30)
        run(run_key="full", f2p_step=1.0, passed=True),  # exactly 1.0 is bin "100", not [80,100)
        run(run_key="killed", status="incomplete"),  # left out
        run(run_key="m2high", model="m2", f2p_step=0.99),
    )
    got = step_distribution.data(con)
    assert got.columns == list(step_distribution.COLUMN_LABELS)
    m1 = [3, 1, 0, 0, 1]
    m2 = [0, 0, 0, 1, 0]
    keys = {
        "m1": [["infra", "low", "zero"], ["mid"], [], [], ["full"]],
        "m2": [[], [], [], ["m2high"], []],
    }
    expected = [
        {
            "model": model,
            "harness": "h1",
            "mode": "cli_only",
            "protocol": "autonomous",
            "system": f"{model} · h1",
            "bin": b,
            "bin_order": i + 1,
            "n_runs_in_bin": n,
            "n_runs": sum(counts),
            "share_pct": n / sum(counts) * 100,
            "run_keys": keys[model][i],
        }
        for model, counts in (("m1", m1), ("m2", m2))
        for i, (b, n) in enumerate(zip(BINS, counts, strict=True))
    ]
    assert_rows(got, expected)


def test_shares_sum_to_100_per_system(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, *(run(seed=s, f2p_step=s / 7) for s in range(8)), run(harness="h2"))
    got = step_distribution.data(con)
    for total in got.group_by("system").agg(s=pl.col("share_pct").sum())["s"].to_list():
        assert abs(total - 100) < 1e-9


def test_chart_stacks_bins_in_order(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(f2p_step=0.1), run(f2p_step=1.0, passed=True))
    spec = step_distribution.chart(step_distribution.data(con)).to_dict()
    bars = spec["layer"][0]["encoding"]
    assert bars["color"]["sort"] == BINS
    assert bars["x"]["stack"] == "zero"


def test_two_protocols_of_one_agent_are_two_systems(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(protocol="autonomous", f2p_step=0.1), run(protocol="plan", f2p_step=0.9))
    got = step_distribution.data(con).filter(pl.col("n_runs_in_bin") > 0)
    assert got.select("protocol", "system", "bin").rows() == [
        ("autonomous", "m1 · h1 · autonomous", "[0,30)"),
        ("plan", "m1 · h1 · plan", "[80,100)"),
    ]
