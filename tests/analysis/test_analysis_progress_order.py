"""Golden test of the within-run order and goal-maintenance figure (SPEC §3B, §4)."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_progress, add_runs, assert_rows, goal, run

from analysis.figures import progress_order


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="p1", has_progress=True),
        run(run_key="p2", has_progress=True, seed=2),
        run(run_key="none", seed=3),  # no progress.json: not counted
        run(run_key="p3", has_progress=True, protocol="interactive"),
        run(run_key="killed", has_progress=True, status="incomplete", seed=4),
    )
    # s2 done before its prerequisite s1; τ_b of (1, 2, 3) vs steps (2, 1, 5) = 1/3
    add_progress(
        con,
        "p1",
        [
            goal("s1", order=1, first=2),
            goal("s2", order=2, first=1, depends_on=["s1"]),
            goal("s3", order=3, first=5, depends_on=["s2"]),
            goal("p2p::x", kind="p2p", first=0),
        ],
    )
    # s1 breaks for good; s3 never done; the P2P test breaks and comes back
    add_progress(
        con,
        "p2",
        [
            goal("s1", order=1, first=3, broke_at=[6]),
            goal("s2", order=2, first=4, depends_on=["s1"]),
            goal("s3", order=3, depends_on=["s2"]),
            goal("p2p::x", kind="p2p", first=0, broke_at=[2], restored_at=[3]),
        ],
    )
    # both sub-steps at one step: τ_b undefined, LIS 1
    add_progress(con, "p3", [goal("s1", order=1, first=4), goal("s2", order=2, first=4)])
    add_progress(con, "killed", [goal("s1", order=1, first=1)])


def test_run_order_per_run(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = {r["run_key"]: r for r in progress_order.run_order(con).to_dicts()}
    assert set(got) == {"p1", "p2", "p3"}
    assert got["p1"]["kendall_tau_b"] == 1 / 3
    assert got["p1"]["lis_ratio"] == 2 / 3  # in step order: s2, s1, s3
    assert (got["p2"]["kendall_tau_b"], got["p2"]["lis_ratio"]) == (1.0, 1.0)  # s3 left out
    assert (got["p3"]["kendall_tau_b"], got["p3"]["lis_ratio"]) == (None, 1.0)


def test_progress_order_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = progress_order.data(con)
    assert got.columns == list(progress_order.COLUMN_LABELS)
    axes = {"model": "m1", "harness": "h1", "mode": "cli_only"}
    expected = [
        axes
        | {
            "protocol": "autonomous",
            "system": "m1 · h1 · autonomous",
            "n_runs": 2,
            "n_runs_tau": 2,
            "kendall_tau_b": (1 / 3 + 1) / 2,
            "lis_ratio": (2 / 3 + 1) / 2,
            "dependency_violation_pct": 100 / 3,  # 1 violated of 3 edges (p1: 2, p2: 1)
            "gms_pct": (1 + 2 / 3) / 2 * 100,  # p2: s2 and p2p::x of s1, s2, p2p::x
            "regressions_per_run": 1.0,  # p1: 0, p2: 2
            "substeps_completed_pct": (1 + 2 / 3) / 2 * 100,
            "p2p_retention_pct": 100.0,
            # p1 vs p2 (seeds 1, 2 of t1): both completed s1, s2 — p1 s2 first (steps 2, 1),
            # p2 s1 first (3, 4): τ_b -1; completed sets {s1, s2, s3} vs {s1, s2}: Jaccard 2/3
            "n_seed_pairs": 1,
            "seed_order_tau_b": -1.0,
            "seed_set_jaccard": 2 / 3,
            "run_keys": ["p1", "p2"],
        },
        axes
        | {
            "protocol": "interactive",
            "system": "m1 · h1 · interactive",
            "n_runs": 1,
            "n_runs_tau": 0,
            "kendall_tau_b": None,
            "lis_ratio": 1.0,
            "dependency_violation_pct": None,  # no dependency edges
            "gms_pct": 100.0,
            "regressions_per_run": 0.0,
            "substeps_completed_pct": 100.0,
            "p2p_retention_pct": None,  # no P2P goals
            "n_seed_pairs": 0,  # one run: nothing to compare across seeds
            "seed_order_tau_b": None,
            "seed_set_jaccard": None,
            "run_keys": ["p3"],
        },
    ]
    assert_rows(got, expected)


def test_chart_has_one_panel_per_measure(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    spec = progress_order.chart(progress_order.data(con)).to_dict()
    assert spec["title"] == progress_order.TITLE
    panels = spec["hconcat"]
    assert [p["title"]["text"] for p in panels] == [
        "Kendall τ_b",
        "Dependency violations (%)",
        "GMS (%)",
        "Regressions / run",
        "Sub-steps completed (%)",
        "Cross-seed τ_b",
        "Cross-seed Jaccard",
    ]
    assert panels[0]["layer"][0]["encoding"]["x"]["scale"]["domain"] == [-1.0, 1.0]


def test_no_progress_gives_an_empty_table_and_a_placeholder(
    con: duckdb.DuckDBPyConnection,
) -> None:
    add_runs(con, run())
    df = progress_order.data(con)
    assert df.is_empty()
    assert progress_order.chart(df).to_dict()["title"] == progress_order.TITLE


def test_cross_seed_consistency_order_aware_vs_agnostic(con: duckdb.DuckDBPyConnection) -> None:
    """Three seeds of one system on one task complete the same sub-steps (Jaccard 1) in
    different orders (τ_b < 1); on another task two seeds agree on order but not on the set."""
    keys = ["r1", "r2", "r3", "q1", "q2", "q3"]
    add_runs(
        con,
        *[
            run(run_key=k, task_id="ta" if k[0] == "r" else "tb", seed=int(k[1]), has_progress=True)
            for k in keys
        ],
    )
    add_progress(
        con,
        "r1",
        [goal("s1", order=1, first=1), goal("s2", order=2, first=2), goal("s3", order=3, first=3)],
    )
    add_progress(
        con,
        "r2",
        [goal("s1", order=1, first=3), goal("s2", order=2, first=2), goal("s3", order=3, first=1)],
    )
    add_progress(
        con,
        "r3",
        [goal("s1", order=1, first=1), goal("s2", order=2, first=3), goal("s3", order=3, first=2)],
    )
    add_progress(
        con, "q1", [goal("s1", order=1, first=1), goal("s2", order=2, first=2), goal("s3", order=3)]
    )
    add_progress(
        con,
        "q2",
        [goal("s1", order=1, first=4), goal("s2", order=2, first=6), goal("s3", order=3, first=7)],
    )
    add_progress(con, "q3", [goal("s1", order=1), goal("s2", order=2), goal("s3", order=3)])
    pairs = progress_order.seed_pairs(con)
    got = {(r["run_a"], r["run_b"]): (r["order_tau_b"], r["set_jaccard"]) for r in pairs.to_dicts()}
    assert got == {
        ("r1", "r2"): (-1.0, 1.0),  # reversed
        ("r1", "r3"): (1 / 3, 1.0),  # s2/s3 swapped
        ("r2", "r3"): (-1 / 3, 1.0),
        ("q1", "q2"): (1.0, 2 / 3),  # same order on s1, s2; q2 also did s3
        ("q1", "q3"): (None, 0.0),  # q3 did nothing: no common sub-step to order
        ("q2", "q3"): (None, 0.0),
    }
    row = progress_order.data(con).row(0, named=True)
    assert row["n_seed_pairs"] == 6
    assert row["seed_order_tau_b"] == (-1 + 1 / 3 - 1 / 3 + 1) / 4
    assert row["seed_set_jaccard"] == (3 + 2 / 3) / 6
