"""Deliverable grading: clauses from F2P results, honest abstention, screenshot provenance."""

from __future__ import annotations

import os
from pathlib import Path

from realcli.grading.deliverables import grade_deliverables
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import TestOutcome, TestResult
from realcli.util.hashing import sha256_bytes

PNG = b"\x89PNG\r\n\x1a\n" + b"pixels" * 10


def _task() -> TaskSpec:
    return TaskSpec.model_validate(
        {
            "id": "weave-x",
            "kind": "weave",
            "category": "feature",
            "title": "t",
            "substeps": [{"id": "s", "title": "s", "tests": ["f2p/test_d.py"]}],
            "deliverables": [
                {
                    "path": "out/values.csv",
                    "clauses": [
                        {
                            "id": "header",
                            "text": "h",
                            "critical": True,
                            "test": "f2p/test_d.py::test_header",
                        },
                        {"id": "rows", "text": "r", "test": "f2p/test_d.py::test_rows"},
                        {"id": "tone", "text": "reads well"},
                    ],
                },
                {"path": "evidence/final.png", "kind": "screenshot", "evidence": "screenshot"},
            ],
        }
    )


def _results(**outcomes: str) -> list[TestResult]:
    return [
        TestResult(nodeid=f"f2p/test_d.py::{name}", test_set="f2p", outcome=TestOutcome(o))
        for name, o in outcomes.items()
    ]


def test_clauses_follow_their_tests_and_evidence_must_be_a_real_screenshot(
    tmp_path: Path,
) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "values.csv").write_text("q,v\n")
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "final.png").write_bytes(PNG)
    results = _results(test_header="passed", test_rows="failed")
    csv, shot = grade_deliverables(_task(), results, tmp_path, {sha256_bytes(PNG)})
    assert [(c.id, c.outcome) for c in csv.clauses] == [
        ("header", "passed"),
        ("rows", "failed"),
        ("tone", "unjudged"),
    ]
    assert not csv.passed and csv.exists and not csv.abstained
    assert (shot.evidence, shot.passed) == ("genuine", True)

    forged = grade_deliverables(_task(), results, tmp_path, {"0" * 64})[1]
    assert (forged.evidence, forged.passed) == ("forged", False)


def test_abstention_costs_only_that_deliverable(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "values.csv.SKIPPED.txt").write_text("the chart never rendered")
    results = _results(test_header="passed", test_rows="passed")
    csv, shot = grade_deliverables(_task(), results, tmp_path, set())
    assert (csv.abstained, csv.exists, csv.passed) == (True, False, False)
    assert (shot.evidence, shot.passed) == ("missing", False)


def test_a_linked_deliverable_is_not_followed(tmp_path: Path) -> None:
    """A link to a genuine screenshot (say, the run's own ``screenshots/``) is no evidence,
    and a link to a folder outside does not make its files deliverables."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "final.png").write_bytes(PNG)
    (outside / "values.csv.SKIPPED.txt").write_text("x")
    ws = tmp_path / "ws"
    (ws / "evidence").mkdir(parents=True)
    (ws / "evidence" / "final.png").symlink_to(outside / "final.png")
    (ws / "out").symlink_to(outside)
    results = _results(test_header="passed", test_rows="passed")
    csv, shot = grade_deliverables(_task(), results, ws, {sha256_bytes(PNG)})
    assert (shot.evidence, shot.passed, shot.exists) == ("forged", False, True)
    assert (csv.abstained, csv.exists) == (False, False)
    os.mkfifo(ws / "evidence" / "fifo.png")  # a FIFO never blocks the grader
    (ws / "evidence" / "final.png").unlink()
    (ws / "evidence" / "fifo.png").rename(ws / "evidence" / "final.png")
    assert grade_deliverables(_task(), results, ws, set())[1].evidence == "forged"
