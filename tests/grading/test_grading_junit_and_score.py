"""JUnit parsing against XML written by a real pytest run, and pure scoring (golden values)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from realcli.grading import grade_round, parse_junit, selector_matches
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import TestOutcome, TestResult


@pytest.fixture(scope="module")
def junit_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TestResult]:
    """Run pytest for real over a file with passing, failing, class, parametrised tests and a
    file that does not collect, laid out the way the grader mounts tests."""
    root = tmp_path_factory.mktemp("ws")
    f2p = root / ".realcli_tests" / "f2p"
    f2p.mkdir(parents=True)
    (f2p / "test_mix.py").write_text(
        textwrap.dedent("""
        import pytest

        def test_ok():
            assert True == True

        def test_bad():
            assert 1 == 2, "one is not two"

        class TestGroup:
            def test_inner(self):
                pass

        @pytest.mark.parametrize("n", [1, 2])
        def test_param(n):
            assert n == 1
    """)
    )
    (f2p / "test_broken.py").write_text("import no_such_module_anywhere\n")
    xml = root / "out.xml"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-o",
            "junit_family=xunit1",
            f"--junitxml={xml}",
            "-q",
            "--continue-on-collection-errors",
            ".realcli_tests/f2p",
        ],
        cwd=root,
        capture_output=True,
        check=False,
    )
    return {r.nodeid: r for r in parse_junit(xml, "f2p")}


def test_nodeids_are_relative_to_tests_dir(junit_results: dict[str, TestResult]) -> None:
    assert set(junit_results) == {
        "f2p/test_mix.py::test_ok",
        "f2p/test_mix.py::test_bad",
        "f2p/test_mix.py::TestGroup::test_inner",
        "f2p/test_mix.py::test_param[1]",
        "f2p/test_mix.py::test_param[2]",
        "f2p/test_broken.py",
    }


def test_outcomes_and_messages(junit_results: dict[str, TestResult]) -> None:
    assert junit_results["f2p/test_mix.py::test_ok"].outcome is TestOutcome.passed
    bad = junit_results["f2p/test_mix.py::test_bad"]
    assert bad.outcome is TestOutcome.failed
    assert "one is not two" in bad.message
    broken = junit_results["f2p/test_broken.py"]
    assert broken.outcome is TestOutcome.error
    assert "collection failure" in broken.message


def test_selectors_match_files_classes_and_params() -> None:
    assert selector_matches("f2p/test_mix.py", "f2p/test_mix.py::test_ok")
    assert selector_matches("f2p/test_mix.py::TestGroup", "f2p/test_mix.py::TestGroup::test_inner")
    assert selector_matches("f2p/test_mix.py::test_param", "f2p/test_mix.py::test_param[2]")
    assert not selector_matches("f2p/test_mix.py::test_o", "f2p/test_mix.py::test_ok")
    assert not selector_matches("f2p/test_m", "f2p/test_mix.py::test_ok")


def _result(nodeid: str, test_set: str, ok: bool) -> TestResult:
    outcome = TestOutcome.passed if ok else TestOutcome.failed
    return TestResult(nodeid=nodeid, test_set=test_set, outcome=outcome)  # type: ignore[arg-type]


TASK = TaskSpec.model_validate(
    {
        "id": "golden",
        "category": "feature",
        "title": "golden",
        "substeps": [
            {"id": "a", "title": "a", "tests": ["f2p/test_a.py"], "weight": 2},
            {"id": "b", "title": "b", "tests": ["f2p/test_b.py::test_one"]},
            {"id": "c", "title": "c", "tests": ["f2p/test_c.py"], "depends_on": ["a"]},
        ],
    }
)


def test_grade_round_golden() -> None:
    results = [
        _result("f2p/test_a.py::test_x", "f2p", True),
        _result("f2p/test_a.py::test_y", "f2p", True),
        _result("f2p/test_b.py::test_one", "f2p", False),
        _result("f2p/test_b.py::test_two", "f2p", True),
        _result("f2p/test_c.py", "f2p", False),  # a collection error
        _result("p2p/test_keep.py::test_1", "p2p", True),
        _result("p2p/test_keep.py::test_2", "p2p", False),
    ]
    rv = grade_round(TASK, 1, results)
    assert [s.passed for s in rv.substeps] == [True, False, False]
    assert rv.f2p.step_score == pytest.approx(2 / 4)  # weights 2 + 1 + 1, only a passed
    assert rv.f2p_test_share == pytest.approx(3 / 5)
    assert rv.p2p.step_score == pytest.approx(0.5)
    assert not rv.p2p.all_passed and not rv.f2p.all_passed and not rv.passed


def test_grade_round_all_pass_and_empty_sets() -> None:
    every = [
        _result("f2p/test_a.py::test_x", "f2p", True),
        _result("f2p/test_b.py::test_one", "f2p", True),
        _result("f2p/test_c.py::test_z", "f2p", True),
        _result("p2p/test_keep.py::test_1", "p2p", True),
    ]
    assert grade_round(TASK, 1, every).passed
    nothing = grade_round(TASK, 1, [])
    assert nothing.f2p.step_score == 0 and not nothing.passed and not nothing.p2p.all_passed


def test_inventory_marks_vanished_tests_missing_and_spreads_file_errors() -> None:
    expected = {
        "f2p": ["f2p/test_a.py::test_x", "f2p/test_b.py::test_one", "f2p/test_c.py::test_z"],
        "p2p": ["p2p/test_keep.py::test_1", "p2p/test_keep.py::test_2"],
    }
    reported = [  # an agent that made test_b vanish and broke test_c's import
        _result("f2p/test_a.py::test_x", "f2p", True),
        TestResult(
            nodeid="f2p/test_c.py",
            test_set="f2p",
            outcome=TestOutcome.error,
            message="collection failure",
        ),
        _result("p2p/test_keep.py::test_1", "p2p", True),
        _result("p2p/test_keep.py::test_2", "p2p", True),
        _result("p2p/test_keep.py::test_extra", "p2p", True),
    ]
    rv = grade_round(TASK, 1, reported, expected)
    outcomes = {t.nodeid: t.outcome for t in rv.tests}
    assert outcomes["f2p/test_b.py::test_one"] is TestOutcome.missing
    assert outcomes["f2p/test_c.py::test_z"] is TestOutcome.error
    assert "f2p/test_c.py" not in outcomes  # replaced by the tests it holds
    assert outcomes["p2p/test_keep.py::test_extra"] is TestOutcome.passed
    assert [s.passed for s in rv.substeps] == [True, False, False]
    assert rv.f2p.total == 3 and rv.p2p.total == 3 and not rv.passed
