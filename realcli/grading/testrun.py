"""Run a task's F2P and P2P test sets over a workspace, each in a fresh sandbox and copy.

The agent's workspace is never graded in place: each test set gets its own copy, the task's
``tests/`` folder is mounted read-only at ``<workdir>/.realcli_tests``, and pytest writes JUnit
XML that is saved with the full log (between marker lines) under the run's ``tests/`` folder,
so :func:`realcli.grading.score.grade_round` can regrade later without any sandbox.

pytest is started so that the workspace cannot take it over: ``python -I`` (the workspace is
not on ``sys.path`` while pytest imports, so a ``pytest.py`` there is ignored), ``-c`` naming
the task's own ``tests/pytest.ini`` or ``/dev/null`` (the workspace's pytest.ini, tox.ini,
setup.cfg and pyproject.toml are ignored), ``--confcutdir`` at the tests (a ``conftest.py``
the agent writes into the workspace is never loaded), and the workspace added to
``sys.path`` only through the ``pythonpath`` ini option, after pytest has started. Code under
test still runs inside the pytest process; the expected-test inventory (see
:mod:`realcli.grading.score`) catches tests that vanish from the report.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from realcli.grading.junit import TESTS_MOUNT, parse_junit
from realcli.sandbox import ExecResult, Sandbox, SandboxOptions
from realcli.schema.verdict import TestResult
from realcli.util.redact import Redactor
from realcli.util.safe_fs import NotARegularFile, copy_tree, read_bytes_under

__all__ = [
    "TEST_SETS",
    "TestSetRun",
    "collect_test_ids",
    "load_saved_results",
    "pytest_argv",
    "run_test_set",
    "saved_paths",
]

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


def pytest_argv(
    tests_dir: Path, test_sets: Sequence[str], workdir: str, extra: list[str]
) -> list[str]:
    """The hardened pytest command line over ``test_sets`` (see the module docstring)."""
    mount = f"{workdir}/{TESTS_MOUNT}"
    ini = f"{mount}/pytest.ini" if (tests_dir / "pytest.ini").is_file() else "/dev/null"
    return [
        "python", "-I", "-m", "pytest", "-c", ini, f"--rootdir={workdir}",
        f"--confcutdir={mount}", "-o", f"pythonpath={workdir}", "-p", "no:cacheprovider",
        "-o", "junit_family=xunit1", "-o", "console_output_style=classic", "-q", "--color=no",
        "--continue-on-collection-errors", *extra, *(f"{TESTS_MOUNT}/{s}" for s in test_sets),
    ]  # fmt: skip


def _in_fresh_copy(
    workspace: Path,
    tests_dir: Path,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    argv: list[str],
    timeout_s: float,
    outputs: dict[str, Path],
) -> ExecResult:
    """Run ``argv`` in a sandbox over a copy of ``workspace`` with the tests mounted; copy the
    files named in ``outputs`` (name under ``<workdir>/.realcli_out`` -> host path) back."""
    with tempfile.TemporaryDirectory(prefix="realcli-grade-") as tmp:
        copy = Path(tmp) / "ws"
        copy_tree(workspace, copy)  # links stay links, FIFOs/sockets/devices are left out
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
                env={**options.env, "PYTHONDONTWRITEBYTECODE": "1"},
                gateway_socket=None,
            )
        )
        result = sandbox.exec(argv, timeout_s=timeout_s, cwd=workdir)
        for name, dest in outputs.items():
            try:  # the tested code may have made .realcli_out or the file a link: not followed
                dest.write_bytes(read_bytes_under(copy, f"{_OUT_MOUNT}/{name}"))
            except (FileNotFoundError, NotARegularFile):
                dest.unlink(missing_ok=True)
    return result


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
    redactor: Redactor | None = None,
) -> TestSetRun:
    """Copy ``workspace``, run ``tests_dir/<test_set>`` there with pytest, save XML and log."""
    out_dir.mkdir(parents=True, exist_ok=True)
    xml_path, log_path = saved_paths(out_dir, round_no, test_set)
    junit_inside = f"{options.workdir}/{_OUT_MOUNT}/{xml_path.name}"
    argv = pytest_argv(tests_dir, [test_set], options.workdir, [f"--junitxml={junit_inside}"])
    result = _in_fresh_copy(
        workspace, tests_dir, options, make_sandbox, argv, timeout_s, {xml_path.name: xml_path}
    )
    log = (
        f">>>>> realcli test set {test_set} round {round_no} start\n"
        f"$ {' '.join(argv)}\n{result.stdout}{result.stderr}"
        f">>>>> realcli test set {test_set} round {round_no} end exit={result.returncode}"
        f" timed_out={result.timed_out} duration_s={result.duration_s:.3f}\n"
    )
    log_path.write_text((redactor or Redactor()).text(log), encoding="utf-8")
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


def collect_test_ids(
    *,
    tests_dir: Path,
    workspace: Path,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    timeout_s: float,
) -> tuple[dict[str, list[str]], ExecResult]:
    """The node ids pytest collects from each test set over ``workspace``, in one pytest
    call (relative to ``tests/``, like :func:`realcli.grading.junit.parse_junit`'s)."""
    argv = pytest_argv(tests_dir, TEST_SETS, options.workdir, ["--collect-only"])
    result = _in_fresh_copy(workspace, tests_dir, options, make_sandbox, argv, timeout_s, {})
    ids: dict[str, list[str]] = {test_set: [] for test_set in TEST_SETS}
    prefix = f"{TESTS_MOUNT}/"
    for line in result.stdout.splitlines():
        nodeid = line.strip().removeprefix(prefix)
        test_set = nodeid.split("/", 1)[0]
        if line.startswith(prefix) and "::" in nodeid and test_set in ids:
            ids[test_set].append(nodeid)
    return ids, result
