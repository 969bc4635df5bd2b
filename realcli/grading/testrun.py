"""Run a task's F2P and P2P test sets over a workspace, each in a fresh sandbox and copy.

The agent's workspace is never graded in place: each test set gets its own copy, the task's
``tests/`` folder is mounted read-only at ``<workdir>/.realcli_tests``, and pytest writes JUnit
XML that is saved with the full log (between marker lines) under the run's ``tests/`` folder,
so :func:`realcli.grading.score.grade_round` can regrade later without any sandbox.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from realcli.grading.junit import TESTS_MOUNT, parse_junit
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.verdict import TestResult

__all__ = ["TEST_SETS", "TestSetRun", "load_saved_results", "run_test_set", "saved_paths"]

TestSet = Literal["f2p", "p2p"]
TEST_SETS: tuple[TestSet, TestSet] = ("f2p", "p2p")
_OUT_MOUNT = ".realcli_out"
_PYTEST_NO_TESTS = 5


@dataclass(frozen=True)
class TestSetRun:
    __test__ = False
    test_set: TestSet
    exit_code: int
    duration_s: float
    timed_out: bool
    xml_path: Path
    log_path: Path
    results: tuple[TestResult, ...]

    @property
    def collected_nothing(self) -> bool:
        return self.exit_code == _PYTEST_NO_TESTS or (not self.results and not self.timed_out)


def saved_paths(out_dir: Path, round_no: int, test_set: str) -> tuple[Path, Path]:
    stem = f"round-{round_no}.{test_set}"
    return out_dir / f"{stem}.xml", out_dir / f"{stem}.log"


def load_saved_results(out_dir: Path, round_no: int) -> list[TestResult]:
    """Every test result saved for ``round_no`` (missing XML files give no results)."""
    results: list[TestResult] = []
    for test_set in TEST_SETS:
        xml_path, _ = saved_paths(out_dir, round_no, test_set)
        if xml_path.is_file():
            results.extend(parse_junit(xml_path, test_set))
    return results


def run_test_set(
    *,
    tests_dir: Path,
    test_set: TestSet,
    workspace: Path,
    out_dir: Path,
    round_no: int,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    timeout_s: float,
) -> TestSetRun:
    """Copy ``workspace``, run ``tests_dir/<test_set>`` there with pytest, save XML and log."""
    out_dir.mkdir(parents=True, exist_ok=True)
    xml_path, log_path = saved_paths(out_dir, round_no, test_set)
    with tempfile.TemporaryDirectory(prefix="realcli-grade-") as tmp:
        copy = Path(tmp) / "ws"
        shutil.copytree(workspace, copy, symlinks=True)
        for reserved in (TESTS_MOUNT, _OUT_MOUNT):  # never trust what the agent left there
            target = copy / reserved
            if target.is_symlink() or target.is_file():
                target.unlink()
            elif target.exists():
                shutil.rmtree(target)
        (copy / _OUT_MOUNT).mkdir()
        workdir = options.workdir
        sandbox = make_sandbox(
            replace(
                options,
                workspace=copy,
                ro_binds=(*options.ro_binds, (tests_dir, f"{workdir}/{TESTS_MOUNT}")),
                env={**options.env, "PYTHONPATH": workdir, "PYTHONDONTWRITEBYTECODE": "1"},
                gateway_socket=None,
            )
        )
        junit_inside = f"{workdir}/{_OUT_MOUNT}/{xml_path.name}"
        argv = [
            "python",
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-o",
            "junit_family=xunit1",
            "-o",
            "console_output_style=classic",
            f"--junitxml={junit_inside}",
            "-q",
            "--color=no",
            "--continue-on-collection-errors",
            f"{TESTS_MOUNT}/{test_set}",
        ]
        result = sandbox.exec(argv, timeout_s=timeout_s, cwd=workdir)
        produced = copy / _OUT_MOUNT / xml_path.name
        if produced.is_file():
            shutil.copyfile(produced, xml_path)
        elif xml_path.exists():
            xml_path.unlink()
    log_path.write_text(
        f">>>>> realcli test set {test_set} round {round_no} start\n"
        f"$ {' '.join(argv)}\n{result.stdout}{result.stderr}"
        f">>>>> realcli test set {test_set} round {round_no} end exit={result.returncode}"
        f" timed_out={result.timed_out} duration_s={result.duration_s:.3f}\n",
        encoding="utf-8",
    )
    results = tuple(parse_junit(xml_path, test_set)) if xml_path.is_file() else ()
    return TestSetRun(
        test_set=test_set,
        exit_code=result.returncode,
        duration_s=result.duration_s,
        timed_out=result.timed_out,
        xml_path=xml_path,
        log_path=log_path,
        results=results,
    )
