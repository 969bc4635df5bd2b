"""Golden test of P2P retention against F2P step (SPEC §4, progress-conditioned)."""

from __future__ import annotations

import duckdb
import pytest
from warehouse_rows import add_progress, add_rounds, add_runs, assert_rows, goal, run

from analysis.figures import p2p_vs_progress
from tests.warehouse.goal_rows import add_tests


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="lazy", f2p_step=0.1),
        run(run_key="busy", f2p_step=0.9, seed=2),
        run(run_key="busy2", f2p_step=0.85, seed=3),
        run(run_key="nop2p", f2p_step=0.5, seed=4),
        run(run_key="x", model="m2", f2p_step=0.2, has_progress=True),
    )
    for key, w_passes in (("lazy", True), ("busy", False), ("busy2", True)):
        add_rounds(con, key, (False, 0.5, w_passes))
        add_tests(con, key, "p2p", "p2p::z", True)
        add_tests(con, key, "p2p", "p2p::w", w_passes)
    add_rounds(con, "nop2p", (False, 0.5, True))
    add_tests(con, "nop2p", "f2p", "f2p::a", True)
    add_rounds(con, "x", (False, 0.2, True))
    add_progress(
        con,
        "x",
        [
            goal("p2p::x", kind="p2p", first=0),
            goal("p2p::y", kind="p2p", first=0, broke_at=[4]),
        ],
    )


def test_p2p_vs_progress_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = p2p_vs_progress.data(con)
    assert got.columns == list(p2p_vs_progress.COLUMN_LABELS)
    columns = ["model", "level", "f2p_step_bin", "n_runs", "f2p_step_pct", "p2p_retention_pct"]
    assert_rows(
        got.select(*columns, "run_keys"),
        [
            dict(zip(columns, values, strict=True)) | {"run_keys": keys}
            for *values, keys in [
                ("m1", "bin", "[0,30)", 1, 10.0, 100.0, ["lazy"]),
                ("m1", "bin", "[80,100)", 2, 87.5, 75.0, ["busy", "busy2"]),
                ("m1", "run", "[0,30)", 1, 10.0, 100.0, ["lazy"]),
                ("m1", "run", "[80,100)", 1, 90.0, 50.0, ["busy"]),
                ("m1", "run", "[80,100)", 1, 85.0, 100.0, ["busy2"]),
                ("m2", "bin", "[0,30)", 1, 20.0, 50.0, ["x"]),
                ("m2", "run", "[0,30)", 1, 20.0, 50.0, ["x"]),
            ]
        ],
    )
    p2p_vs_progress.chart(got).to_dict()


def test_the_chart_samples_run_points_beyond_its_cap(
    con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(con)
    monkeypatch.setattr(p2p_vs_progress, "MAX_POINTS", 2)
    values = p2p_vs_progress.chart(p2p_vs_progress.data(con)).to_dict()["datasets"]
    (rows,) = values.values()
    assert sum(r["level"] == "run" for r in rows) == 2
    assert sum(r["level"] == "bin" for r in rows) == 3  # every bin mean is kept
