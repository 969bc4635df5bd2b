"""Golden test of the evidence_provenance figure: verdict deliverables and the judge's
screenshot provenance in, one audit row per system out."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from deliverable_rows import add_deliverables, add_judgement, add_provenance
from warehouse_rows import add_runs, assert_rows, run

from analysis.figures import evidence_provenance as figure
from realcli.schema.report import ReportFilters, ReportSpec


@pytest.fixture
def sample(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    weave = {"task_kind": "weave", "mode": "hybrid"}
    add_runs(
        con,
        run(run_key="a1", passed=True, **weave),
        run(run_key="a2", seed=2, **weave),
        run(run_key="a3", seed=3, **weave),
        run(run_key="a4", seed=4, **weave),
        run(run_key="b1", model="m2", **weave),
        run(run_key="cut", seed=5, status="incomplete", **weave),  # not finished: left out
        run(run_key="cli"),  # a LongCLI run: left out
    )
    add_deliverables(
        con,
        "a1",
        ("out/result.json", "none", False, True),
        ("evidence/solved.png", "genuine", False, True),
        ("report.md", "none", True, False),
    )
    add_deliverables(con, "a2", ("evidence/solved.png", "forged", False, False))
    add_deliverables(con, "a3", ("evidence/solved.png", "forged", False, False))
    add_deliverables(
        con,
        "a4",
        ("evidence/a.png", "genuine", False, True),
        ("evidence/b.png", "missing", False, False),
    )
    add_deliverables(
        con,
        "b1",
        ("evidence/solved.png", "forged", False, False),
        ("evidence/zoom.png", "forged", False, False),
    )
    add_deliverables(con, "cut", ("evidence/solved.png", "forged", False, False))
    for key in ("a1", "a2", "a3", "b1", "cut"):
        add_judgement(con, key, "trajectory")
    add_judgement(con, "a4", "trajectory", status="judge_failed")  # no provenance: unclassified
    add_judgement(con, "a1", "outcome_only")  # records no provenance
    add_provenance(con, "a1", "trajectory", ("evidence/solved.png", "captured"))
    add_provenance(con, "a2", "trajectory", ("evidence/solved.png", "unbacked"))
    add_provenance(con, "a3", "trajectory", ("evidence/solved.png", "witnessed"))  # a scrot
    add_provenance(
        con,
        "b1",
        "trajectory",
        ("evidence/solved.png", "derived"),
        ("evidence/zoom.png", "bad_image"),
    )
    add_provenance(con, "cut", "trajectory", ("evidence/solved.png", "unbacked"))
    return con


ZERO = {f"n_{c}": 0 for c in figure.PROVENANCE_CLASSES}
SYSTEM_A = {
    "model": "m1",
    "harness": "h1",
    "mode": "hybrid",
    "protocol": "autonomous",
    "judge": "trajectory",
    "n_runs": 4,
    "n_deliverables": 7,
    "n_passed": 3,
    "n_abstained": 1,
    "n_screenshots": 5,
    "n_evidence_genuine": 2,
    "n_evidence_forged": 2,
    "n_evidence_missing": 1,
    **ZERO,
    "n_captured": 1,
    "n_witnessed": 1,
    "n_unbacked": 1,
    "n_unclassified": 2,
    "n_forged_but_backed": 1,
    "run_keys": ["a1", "a2", "a3", "a4"],
}
SYSTEM_B = {
    "model": "m2",
    "harness": "h1",
    "mode": "hybrid",
    "protocol": "autonomous",
    "judge": "trajectory",
    "n_runs": 1,
    "n_deliverables": 2,
    "n_passed": 0,
    "n_abstained": 0,
    "n_screenshots": 2,
    "n_evidence_genuine": 0,
    "n_evidence_forged": 2,
    "n_evidence_missing": 0,
    **ZERO,
    "n_derived": 1,
    "n_bad_image": 1,
    "n_unclassified": 0,
    "n_forged_but_backed": 1,
    "run_keys": ["b1"],
}


def test_rows_per_system_from_the_verdicts_and_the_primary_judge(
    sample: duckdb.DuckDBPyConnection,
) -> None:
    assert_rows(figure.data(sample), [SYSTEM_A, SYSTEM_B])


def test_another_judge_and_the_filters(sample: duckdb.DuckDBPyConnection) -> None:
    # outcome_only records no provenance: every screenshot deliverable is unclassified
    blind = figure.data(sample, spec=ReportSpec(primary_judge="outcome_only"))
    assert blind["judge"].to_list() == ["outcome_only", "outcome_only"]
    assert blind["n_unclassified"].to_list() == [5, 2]
    assert blind["n_evidence_forged"].to_list() == [2, 2]
    only_m2 = figure.data(sample, spec=ReportSpec(filters=ReportFilters(models=("m2",))))
    assert_rows(only_m2, [SYSTEM_B])
    judges = ReportSpec(filters=ReportFilters(judges=("outcome_only",)))
    assert figure.judge_of(judges) == "outcome_only"
    cli = figure.data(sample, spec=ReportSpec(filters=ReportFilters(kinds=("longcli",))))
    assert cli.is_empty() and cli.columns == list(figure.COLUMN_LABELS)


def test_chart_stacks_the_classes_and_marks_the_forged(
    sample: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    chart = figure.chart(figure.data(sample))
    spec = chart.to_dict()
    assert spec["title"] == figure.TITLE
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["bar", "point"]
    chart.save(str(tmp_path / "evidence_provenance.png"))
    assert (tmp_path / "evidence_provenance.png").stat().st_size > 1000
    empty = figure.chart(figure.data(sample, spec=ReportSpec(filters=ReportFilters(tasks=("x",)))))
    assert empty.to_dict()["title"] == figure.TITLE
