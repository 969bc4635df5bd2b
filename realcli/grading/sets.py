"""A task's test sets, whatever their parser: which exist, how each runs, what it expects,
and what a round saved (one entry point for the runner, the health gates and regrade)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from realcli.grading.scoreset import load_saved, run_score_set, saved_output, score_nodeid
from realcli.grading.testrun import (
    TEST_SETS,
    SavedRound,
    TestSet,
    TestSetRun,
    load_saved_round,
    run_test_set,
)
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.task_spec import TestSets, TestSetSpec
from realcli.util.redact import Redactor

__all__ = [
    "active_sets",
    "bundle_pytest_sets",
    "fixed_expectations",
    "load_round",
    "run_set",
    "score_outputs",
]


def active_sets(tests: TestSets) -> list[tuple[TestSet, TestSetSpec]]:
    """The task's test sets in grading order (no P2P set when ``p2p = false``)."""
    specs = (tests.f2p, tests.p2p)
    return [(name, spec) for name, spec in zip(TEST_SETS, specs, strict=True) if spec]


def bundle_pytest_sets(tests: TestSets) -> list[TestSet]:
    """The sets that run the bundle's own ``tests/<set>/`` files (collected for the
    inventory); the others' expected results are :func:`fixed_expectations`."""
    return [name for name, spec in active_sets(tests) if spec.bundle_pytest]


def fixed_expectations(tests: TestSets) -> dict[str, list[str]]:
    """Expected node ids known without collecting: a workspace set's ``ids``, a score-file
    set's one result."""
    out: dict[str, list[str]] = {}
    for name, spec in active_sets(tests):
        if spec.location == "workspace":
            out[name] = list(spec.ids)
        elif spec.parser != "pytest":
            out[name] = [score_nodeid(name, spec)]
    return out


def run_set(
    *,
    spec: TestSetSpec,
    tests_dir: Path,
    test_set: TestSet,
    workspace: Path,
    out_dir: Path,
    round_no: int,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    timeout_s: float,
    redactor: Redactor | None = None,
) -> TestSetRun:
    """Run one test set over a fresh copy of ``workspace`` and save what regrading needs."""
    if spec.parser != "pytest":
        return run_score_set(
            spec=spec, tests_dir=tests_dir, test_set=test_set, workspace=workspace,
            out_dir=out_dir, round_no=round_no, options=options, make_sandbox=make_sandbox,
            timeout_s=timeout_s, redactor=redactor,
        )  # fmt: skip
    return run_test_set(
        tests_dir=tests_dir, test_set=test_set, workspace=workspace, out_dir=out_dir,
        round_no=round_no, options=options, make_sandbox=make_sandbox, timeout_s=timeout_s,
        redactor=redactor, spec=spec,
    )  # fmt: skip


def load_round(out_dir: Path, round_no: int, tests: TestSets) -> SavedRound:
    """Every result saved for ``round_no``, each set checked again as it was graded."""
    pytest_sets = [name for name, spec in active_sets(tests) if spec.parser == "pytest"]
    saved = load_saved_round(out_dir, round_no, pytest_sets)
    for name, spec in active_sets(tests):
        if spec.parser == "pytest":
            continue
        found = load_saved(spec, out_dir, round_no, name)
        if found is not None:
            results, reasons = found
            saved.results.extend(results)
            saved.tampered.extend(f"{name}: {r}" for r in reasons)
    return saved


def score_outputs(tests: TestSets, out_dir: Path, round_no: int, limit: int) -> Mapping[str, str]:
    """Per score-file set: its grading command's output in ``round_no`` (for feedback)."""
    return {
        name: saved_output(out_dir, round_no, name, limit)
        for name, spec in active_sets(tests)
        if spec.parser != "pytest"
    }
