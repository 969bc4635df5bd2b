"""From real run folders to the protocol figures: two protocols, three self-correction rounds,
intervention events and a progress replay, loaded by ingest() and read by each figure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from analysis.figures import collaboration, longcli_main_table, progress_order, self_correction
from realcli.warehouse import connect, ingest
from tests.warehouse.run_folders import goal, write_progress, write_run

FEEDBACK = {
    "type": "feedback",
    "trigger": "round_end",
    "source": "tests",
    "delivery": "resume",
    "text": "FAILED f2p/test_a.py::test_1",
}


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    runs = tmp_path_factory.mktemp("runs")
    for seed, passed in ((1, False), (2, True)):
        write_run(runs, protocol="autonomous", seed=seed, passed=passed, f2p_step=0.3)
    feedback = [FEEDBACK | {"round": 2}, FEEDBACK | {"round": 3}]
    first = write_run(
        runs,
        protocol="self_correct",
        seed=1,
        round_scores=[(False, 0.2, True), (False, 0.6, False), (True, 1.0, True)],
        interventions=feedback,
        snapshots=True,
    )
    write_run(
        runs,
        protocol="self_correct",
        seed=2,
        round_scores=[(False, 0.4, True), (False, 0.4, True), (False, 0.8, True)],
        interventions=feedback,
    )
    write_progress(
        first,
        [
            goal("s1", order=1, first=3),
            goal("s2", order=2, depends_on=["s1"], first=1),
            goal("s3", order=3, depends_on=["s2"], first=5, broke_at=[6], restored_at=[7]),
            goal("p2p/test_b.py::test_1", kind="p2p", first=0, broke_at=[3], restored_at=[6]),
        ],
        last_step=8,
    )
    con = connect(Path(tmp_path_factory.mktemp("wh")) / "warehouse.duckdb")
    stats = ingest(con, runs)
    assert (stats.loaded, stats.problems) == (4, [])
    yield con
    con.close()


def test_main_table_has_one_row_per_protocol(warehouse: duckdb.DuckDBPyConnection) -> None:
    got = longcli_main_table.data(warehouse).filter(pl.col("source") == "realcli")
    assert got.select("protocol", "n_runs", "pass_pct").rows() == [
        ("autonomous", 2, 50.0),
        ("self_correct", 2, 50.0),  # the final round: T3
    ]


def test_self_correction_from_ingested_rounds(warehouse: duckdb.DuckDBPyConnection) -> None:
    got = self_correction.data(warehouse)
    assert got["protocol"].unique().to_list() == ["self_correct"]  # autonomous has one round
    rows = {r["row"]: r for r in got.to_dicts()}
    assert list(rows) == ["T1", "T2", "T3", "Δ T1→T2", "Δ T2→T3", "Δ T1→T3"]
    assert rows["T1"]["f2p_step_pct"] == pytest.approx(30.0)
    assert rows["T2"]["p2p_pass_pct"] == 50.0
    assert rows["T3"]["pass_pct"] == 50.0
    assert rows["Δ T1→T3"]["f2p_step_pct"] == pytest.approx(60.0)  # (80 + 40) / 2
    assert rows["Δ T1→T2"]["p2p_pass_pct"] == -50.0
    self_correction.chart(got).to_dict()


def test_collaboration_counts_the_feedback_interventions(
    warehouse: duckdb.DuckDBPyConnection,
) -> None:
    got = collaboration.data(warehouse)
    assert got.select("protocol", "interventions_per_run", "pass_delta_pts").rows() == [
        ("autonomous", 0.0, 0.0),
        ("self_correct", 2.0, 0.0),
    ]
    collaboration.chart(got).to_dict()


def test_progress_order_from_an_ingested_progress_json(
    warehouse: duckdb.DuckDBPyConnection,
) -> None:
    got = progress_order.data(warehouse).to_dicts()
    assert len(got) == 1
    row = got[0]
    assert (row["protocol"], row["n_runs"], row["n_runs_tau"]) == ("self_correct", 1, 1)
    assert row["kendall_tau_b"] == pytest.approx(1 / 3)  # steps (3, 1, 5) vs order (1, 2, 3)
    assert row["dependency_violation_pct"] == 50.0  # s2 before s1; s3 after s2
    assert row["gms_pct"] == 100.0  # every break was restored
    assert row["regressions_per_run"] == 2.0
    progress_order.chart(progress_order.data(warehouse)).to_dict()
