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
test still runs inside the pytest process, so pytest is started through realcli's guard
(:mod:`realcli.grading.pytest_guard`, checked by :mod:`realcli.grading.guard`): a canary test
is planted in a copy of the tests, the guard writes an HMAC-chained result stream, and the
results come from that stream only when it agrees with the exit status, the JUnit XML and the
summary line. The expected-test inventory (see :mod:`realcli.grading.score`) catches tests that
vanish from the report.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from realcli.grading.guard import (
    GUARD_MOUNT,
    GUARD_SCRIPT,
    GuardCheck,
    GuardSetup,
    check_guarded_run,
    new_guard,
    parse_summary,
)
from realcli.grading.junit import TESTS_MOUNT, parse_junit
from realcli.grading.repo_tests import workspace_argv
from realcli.grading.testkit import TESTKIT_FILE, TESTKIT_MOUNT
from realcli.sandbox import ExecResult, Sandbox, SandboxOptions
from realcli.schema.task_spec import TestSetSpec
from realcli.schema.verdict import TestResult
from realcli.util.redact import Redactor
from realcli.util.safe_fs import NotARegularFile, copy_tree, read_bytes_under

__all__ = [
    "TESTS_SELF",
    "TEST_SETS",
    "SavedRound",
    "TestSetRun",
    "check_saved_set",
    "collect_test_ids",
    "fresh_sandbox",
    "load_saved_results",
    "load_saved_round",
    "planted_canaries",
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
    tampered: tuple[str, ...] = ()
    """Why these results cannot be trusted (then every result is an ``error``)."""

    @property
    def collected_nothing(self) -> bool:
        return self.exit_code == _PYTEST_NO_TESTS or (not self.results and not self.timed_out)


@dataclass(frozen=True)
class SavedRound:
    """A round's results as saved, checked again (see :func:`load_saved_round`)."""

    results: list[TestResult] = field(default_factory=list)
    tampered: list[str] = field(default_factory=list)


def saved_paths(out_dir: Path, round_no: int, test_set: str) -> tuple[Path, Path]:
    stem = f"round-{round_no}.{test_set}"
    return out_dir / f"{stem}.xml", out_dir / f"{stem}.log"


def guard_paths(out_dir: Path, round_no: int, test_set: str) -> tuple[Path, Path]:
    """The saved result stream and the guard's key/canary/exit record of one test-set run."""
    stem = f"round-{round_no}.{test_set}"
    return out_dir / f"{stem}.guard.jsonl", out_dir / f"{stem}.guard.json"


def _sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _xml_results(xml_path: Path, test_set: TestSet) -> list[TestResult] | None:
    try:
        return parse_junit(xml_path, test_set) if xml_path.is_file() else None
    except Exception:
        return None


def check_saved_set(out_dir: Path, round_no: int, test_set: TestSet) -> GuardCheck | None:
    xml_path, _ = saved_paths(out_dir, round_no, test_set)
    stream_path, meta_path = guard_paths(out_dir, round_no, test_set)
    if not meta_path.is_file():
        return None  # graded before the guard existed: the JUnit XML is all there is
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    setup = GuardSetup(key=meta["key"], canary_file=meta["canary_file"], canary_source="")
    return check_guarded_run(
        setup=setup,
        test_set=test_set,
        stream_path=stream_path,
        xml_results=_xml_results(xml_path, test_set),
        xml_sha256=_sha256(xml_path),
        exit_code=int(meta["exit_code"]),
        timed_out=bool(meta["timed_out"]),
        summary=meta.get("summary"),
    )


def load_saved_round(
    out_dir: Path, round_no: int, sets: Sequence[TestSet] = TEST_SETS
) -> SavedRound:
    """Every test result saved for ``round_no`` of the pytest ``sets``, checked again against
    the guard's stream (missing files give no results; runs graded before the guard: their
    JUnit XML). Score-file sets: :func:`realcli.grading.sets.load_round`."""
    saved = SavedRound()
    for test_set in sets:
        check = check_saved_set(out_dir, round_no, test_set)
        if check is not None:
            saved.results.extend(check.results)
            saved.tampered.extend(f"{test_set}: {r}" for r in check.reasons)
            continue
        xml_path, _ = saved_paths(out_dir, round_no, test_set)
        saved.results.extend(_xml_results(xml_path, test_set) or [])
    return saved


def planted_canaries(out_dir: Path, round_no: int) -> list[str]:
    """The source of the canary tests planted in ``round_no`` (hidden like the tests)."""
    sources = []
    for test_set in TEST_SETS:
        _, meta_path = guard_paths(out_dir, round_no, test_set)
        if meta_path.is_file():
            sources.append(
                str(json.loads(meta_path.read_text(encoding="utf-8")).get("canary_source", ""))
            )
    return sources


def load_saved_results(out_dir: Path, round_no: int) -> list[TestResult]:
    """The results of :func:`load_saved_round` (tampered sets: every result an error)."""
    return load_saved_round(out_dir, round_no).results


def pytest_argv(
    tests_dir: Path,
    test_sets: Sequence[str],
    workdir: str,
    extra: list[str],
    guard: tuple[str, str] | None = None,
) -> list[str]:
    """The hardened pytest command line over ``test_sets`` (see the module docstring);
    ``guard`` (stream, JUnit XML, both inside): run it through realcli's pytest guard."""
    mount = f"{workdir}/{TESTS_MOUNT}"
    ini = f"{mount}/pytest.ini" if (tests_dir / "pytest.ini").is_file() else "/dev/null"
    start = ["python", "-I", "-m", "pytest"]
    if guard is not None:
        start = ["python", "-I", GUARD_MOUNT, guard[0], guard[1], workdir, mount, "--"]
    return [
        *start, "-c", ini, f"--rootdir={workdir}", f"--confcutdir={mount}",
        "-o", f"pythonpath={TESTKIT_MOUNT} {workdir}", "-p", "no:cacheprovider",
        "-o", "junit_family=xunit1", "-o", "console_output_style=classic", "-q", "--color=no",
        "--continue-on-collection-errors", *extra, *(f"{TESTS_MOUNT}/{s}" for s in test_sets),
    ]  # fmt: skip


@contextmanager
def fresh_sandbox(
    workspace: Path,
    tests_dir: Path,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    *,
    guard: GuardSetup | None = None,
    extra_binds: tuple[tuple[Path, str], ...] = (),
    env: Mapping[str, str] | None = None,
) -> Iterator[tuple[Path, Sandbox]]:
    """A sandbox over a fresh copy of ``workspace`` (yielded with it) with the tests mounted
    read-only at ``<workdir>/.realcli_tests`` (and at each of ``extra_binds``' paths given
    the tests folder itself as host path); the copy is removed afterwards. ``guard``: the
    tests are a copy with its canary planted and the guard script is mounted."""
    with tempfile.TemporaryDirectory(prefix="realcli-grade-") as tmp:
        binds: list[tuple[Path, str]] = []
        if guard is not None:
            tests_copy = Path(tmp) / "tests"
            shutil.copytree(tests_dir, tests_copy, symlinks=True)
            guard.plant(tests_copy)
            tests_dir = tests_copy
            binds.append((GUARD_SCRIPT, GUARD_MOUNT))
        binds += [(tests_dir if host == TESTS_SELF else host, dest) for host, dest in extra_binds]
        binds.append((TESTKIT_FILE, f"{TESTKIT_MOUNT}/{TESTKIT_FILE.name}"))
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
                ro_binds=(*options.ro_binds, (tests_dir, f"{workdir}/{TESTS_MOUNT}"), *binds),
                env={**options.env, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
                gateway_socket=None,
            )
        )
        yield copy, sandbox


TESTS_SELF = Path("/realcli-tests-dir")
"""In ``extra_binds`` of :func:`fresh_sandbox`: stands for the (possibly copied) tests."""


def _in_fresh_copy(
    workspace: Path,
    tests_dir: Path,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    argv: list[str],
    timeout_s: float,
    outputs: dict[str, Path],
    guard: GuardSetup | None = None,
) -> ExecResult:
    """Run ``argv`` in :func:`fresh_sandbox`; copy the files named in ``outputs`` (name
    under ``<workdir>/.realcli_out`` -> host path) back. ``guard``: its key goes to the
    guard's standard input."""
    with fresh_sandbox(workspace, tests_dir, options, make_sandbox, guard=guard) as (copy, box):
        stdin = f"{guard.key}\n" if guard is not None else None
        result = box.exec(argv, timeout_s=timeout_s, cwd=options.workdir, stdin=stdin)
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
    spec: TestSetSpec | None = None,
) -> TestSetRun:
    """Copy ``workspace``, run ``tests_dir/<test_set>`` there with pytest through the guard,
    save XML, log and the guard's stream, and cross-check them (:mod:`realcli.grading.guard`).
    ``spec`` with ``location='workspace'``: run its ids, the repository's own tests, instead
    (:func:`realcli.grading.repo_tests.workspace_argv`)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    xml_path, log_path = saved_paths(out_dir, round_no, test_set)
    stream_path, meta_path = guard_paths(out_dir, round_no, test_set)
    guard = new_guard(test_set)
    out_inside = f"{options.workdir}/{_OUT_MOUNT}"
    junit_inside = f"{out_inside}/{xml_path.name}"
    guarded = (f"{out_inside}/{stream_path.name}", junit_inside)
    if spec is not None and spec.location == "workspace":
        argv = workspace_argv(spec, options.workdir, f"--junitxml={junit_inside}", guarded)
        argv = [*argv, f"{TESTS_MOUNT}/{guard.canary_file}"]
    else:
        argv = pytest_argv(
            tests_dir, [test_set], options.workdir, [f"--junitxml={junit_inside}"], guard=guarded
        )
    result = _in_fresh_copy(
        workspace,
        tests_dir,
        options,
        make_sandbox,
        argv,
        timeout_s,
        {xml_path.name: xml_path, stream_path.name: stream_path},
        guard=guard,
    )
    summary = parse_summary(result.stdout)
    meta = {
        **guard.to_json(),
        "exit_code": result.returncode,
        "timed_out": result.timed_out,
        "summary": summary,
    }
    meta_path.write_text(json.dumps(meta, indent=1), encoding="utf-8")
    log = (
        f">>>>> realcli test set {test_set} round {round_no} start\n"
        f"$ {' '.join(argv)}\n{result.stdout}{result.stderr}"
        f">>>>> realcli test set {test_set} round {round_no} end exit={result.returncode}"
        f" timed_out={result.timed_out} duration_s={result.duration_s:.3f}\n"
    )
    log_path.write_text((redactor or Redactor()).text(log), encoding="utf-8")
    check = check_saved_set(out_dir, round_no, test_set)
    assert check is not None  # the meta file was just written
    return TestSetRun(
        test_set=test_set,
        exit_code=result.returncode,
        duration_s=result.duration_s,
        timed_out=result.timed_out,
        xml_path=xml_path,
        log_path=log_path,
        results=tuple(check.results),
        tampered=tuple(check.reasons),
    )


def collect_test_ids(
    *,
    tests_dir: Path,
    workspace: Path,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    timeout_s: float,
    test_sets: Sequence[TestSet] = TEST_SETS,
) -> tuple[dict[str, list[str]], ExecResult]:
    """The node ids pytest collects from each of ``test_sets`` (the bundle's pytest sets)
    over ``workspace``, in one pytest call (relative to ``tests/``, like
    :func:`realcli.grading.junit.parse_junit`'s)."""
    argv = pytest_argv(tests_dir, test_sets, options.workdir, ["--collect-only"])
    result = _in_fresh_copy(workspace, tests_dir, options, make_sandbox, argv, timeout_s, {})
    ids: dict[str, list[str]] = {test_set: [] for test_set in test_sets}
    prefix = f"{TESTS_MOUNT}/"
    for line in result.stdout.splitlines():
        nodeid = line.strip().removeprefix(prefix)
        test_set = nodeid.split("/", 1)[0]
        if line.startswith(prefix) and "::" in nodeid and test_set in ids:
            ids[test_set].append(nodeid)
    return ids, result
