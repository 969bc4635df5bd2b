"""Score-file test sets (``parser = "score_file"`` or ``"text"``): a command grades, a JSON
file holds the score.

The task's ``command`` runs with ``sh -c`` from the workdir in a fresh copy of the workspace
and a fresh sandbox (as pytest sets do), the bundle's ``tests/`` read-only at
``<workdir>/.realcli_tests`` (and at ``tests_mount``, e.g. ``/tests``, when the task's own
scripts hard-code it) and ``$TEST_DIR`` pointing there. Then the host reads ``score_file``
from the copy:

- ``score_file``: ``{"obtained": x, "max": y}`` (``max`` may come from ``max_score``); the
  step score is ``(obtained - initial) / (max - initial)`` clipped to [0, 1] (``initial``:
  ``initial_score``, default 0) and the set passes when ``obtained`` reaches ``max``;
- ``text`` (LongCLI-Bench's run-tests.sh convention): ``{"is_pass": 0|1, "step_score": s}``,
  written by the task's parser script ``tests/<set>.py`` from ``<set>_output.txt``; ``s`` is
  already normalised by the task.

Code under test runs inside the command, so the score file is guarded like the pytest
guard's stream: a score file (or a link on its path) already in the agent's workspace is
*tampered*; it is removed from the copy before the command runs; it is read without following
any link (:mod:`realcli.util.safe_fs`), must be a regular file with one link written while
the command ran. A ``text`` set's parser script (from the read-only tests mount) is run once
more, alone, over the copy the command left (with the score file removed): a score the
command's run wrote that the parser does not reproduce is tampered too. What stays trusted
is the task's own command (docs/security.md, "Grading").

Everything is saved under the run's ``tests/`` folder (``round-N.<set>.score.json``, the
command's log ``round-N.<set>.log`` and ``round-N.<set>.scoreset.json``) so that
:func:`load_saved` regrades without a sandbox.
"""

from __future__ import annotations

import json
import math
import shutil
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from realcli.grading.junit import TESTS_MOUNT
from realcli.grading.testrun import TESTS_SELF, TestSetRun, fresh_sandbox
from realcli.sandbox import ExecResult, Sandbox, SandboxOptions
from realcli.schema.task_spec import TestSetSpec
from realcli.schema.verdict import TestOutcome, TestResult
from realcli.util.redact import Redactor
from realcli.util.safe_fs import NotARegularFile, lstat_under, read_bytes_under

__all__ = [
    "MAX_SCORE_BYTES",
    "load_saved",
    "planted_score",
    "run_score_set",
    "saved_output",
    "score_nodeid",
    "score_result",
    "scoreset_paths",
]

TestSet = Literal["f2p", "p2p"]
MAX_SCORE_BYTES = 1024 * 1024
_MTIME_SLACK_S = 2.0
_MESSAGE_CHARS = 500


def score_nodeid(test_set: str, spec: TestSetSpec) -> str:
    """The one result a score-file set reports: ``f2p::test_output/f2p_score.json``."""
    return f"{test_set}::{spec.score_file}"


def scoreset_paths(out_dir: Path, round_no: int, test_set: str) -> tuple[Path, Path, Path]:
    """The saved score file, command log and run record of one score-file set run."""
    stem = f"round-{round_no}.{test_set}"
    score, log, meta = (f"{stem}.score.json", f"{stem}.log", f"{stem}.scoreset.json")
    return out_dir / score, out_dir / log, out_dir / meta


def planted_score(workspace: Path, score_file: str) -> list[str]:
    """Why the agent's ``workspace`` cannot be graded honestly for ``score_file``: the score
    file is already there, or a folder on its path is a symbolic link."""
    parts = score_file.split("/")
    for i in range(1, len(parts) + 1):
        rel = "/".join(parts[:i])
        st = lstat_under(workspace, rel)
        if st is None:
            return []
        if stat.S_ISLNK(st.st_mode):
            return [f"the workspace made {rel} (on the score file's path) a symbolic link"]
    return [f"the workspace already holds the score file {score_file} before grading"]


def _clear_path(copy: Path, score_file: str) -> None:
    """Remove the score file, or the first link on its path, from the grading copy (checked
    part by part, so nothing is followed)."""
    parts = score_file.split("/")
    for i in range(1, len(parts) + 1):
        target = copy.joinpath(*parts[:i])
        if target.is_symlink():
            target.unlink()
            return
        if not target.exists():
            return
        if i == len(parts):
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink()


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def score_result(
    spec: TestSetSpec, test_set: TestSet, data: bytes | None, reasons: list[str], duration_s: float
) -> TestResult:
    """The set's one result from the score file's bytes (None: none was written) and the
    reasons it cannot be trusted; pure, so a regrade gives the same."""
    nodeid = score_nodeid(test_set, spec)

    def result(outcome: TestOutcome, message: str, score: float | None = 0.0) -> TestResult:
        return TestResult(
            nodeid=nodeid,
            test_set=test_set,
            outcome=outcome,
            duration_s=duration_s,
            message=message[:_MESSAGE_CHARS],
            score=score,
            tampered=bool(reasons),
        )

    if reasons:
        return result(TestOutcome.error, "grading tampered: " + reasons[0])
    if data is None:
        return result(TestOutcome.error, f"the command wrote no score file {spec.score_file}")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return result(TestOutcome.error, f"{spec.score_file} is not JSON ({exc})")
    if not isinstance(doc, dict):
        return result(TestOutcome.error, f"{spec.score_file} holds no JSON object")
    if spec.parser == "text":
        is_pass, step = doc.get("is_pass"), _number(doc.get("step_score"))
        if is_pass not in (0, 1) or isinstance(is_pass, float) or step is None:
            return result(
                TestOutcome.error,
                f"{spec.score_file} needs is_pass (0 or 1) and a numeric step_score, got {doc}",
            )
        step = min(1.0, max(0.0, step))
        passed = is_pass == 1
        message = f"is_pass {is_pass}, step_score {step:.3f}"
        return result(TestOutcome.passed if passed else TestOutcome.failed, message, step)
    obtained = _number(doc.get("obtained"))
    top = _number(doc.get("max")) if "max" in doc else spec.max_score
    if obtained is None or top is None or top <= 0:
        return result(
            TestOutcome.error,
            f"{spec.score_file} needs a numeric obtained and max (or the set's max_score), "
            f"got {doc}",
        )
    initial = spec.initial_score or 0.0
    passed = obtained >= top - 1e-9
    if top > initial:
        step = min(1.0, max(0.0, (obtained - initial) / (top - initial)))
    else:
        step = 1.0 if passed else 0.0
    message = f"score {obtained:g}/{top:g} (initial {initial:g}): step {step:.3f}"
    return result(TestOutcome.passed if passed else TestOutcome.failed, message, step)


def _read_score(
    copy: Path, score_file: str, started: float, ended: float
) -> tuple[bytes | None, list[str]]:
    """The score file's bytes as the command left it, and what is wrong with how it got
    there (a link, a special or hard-linked file, written outside the command's run)."""
    try:
        data = read_bytes_under(copy, score_file, max_bytes=MAX_SCORE_BYTES)
    except FileNotFoundError:
        return None, []
    except NotARegularFile as exc:
        why = f"the score file {score_file} is not a regular file reached without links ({exc})"
        return None, [why]
    except OSError as exc:
        return None, [f"the score file {score_file} cannot be read ({exc})"]
    st = lstat_under(copy, score_file)
    reasons = []
    if st is not None and st.st_nlink > 1:
        reasons.append(f"the score file {score_file} has {st.st_nlink} hard links")
    if st is not None and not (started - _MTIME_SLACK_S <= st.st_mtime <= ended + _MTIME_SLACK_S):
        reasons.append(f"the score file {score_file} was not written while the command ran")
    return data, reasons


def _parsed(data: bytes | None) -> Any:
    try:
        return json.loads(data.decode("utf-8")) if data is not None else None
    except (UnicodeDecodeError, ValueError):
        return None


def _same_text_score(a: Any, b: Any) -> bool:
    if not isinstance(a, dict) or not isinstance(b, dict):
        return a == b
    step_a, step_b = _number(a.get("step_score")), _number(b.get("step_score"))
    same_step = (step_a is None and step_b is None) or (
        step_a is not None and step_b is not None and abs(step_a - step_b) < 1e-6
    )
    return a.get("is_pass") == b.get("is_pass") and same_step


def _log_block(title: str, argv: list[str], result: ExecResult) -> str:
    return (
        f">>>>> realcli {title} start\n$ {' '.join(argv)}\n{result.stdout}{result.stderr}"
        f">>>>> realcli {title} end exit={result.returncode} timed_out={result.timed_out}"
        f" duration_s={result.duration_s:.3f}\n"
    )


def run_score_set(
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
    """Run a score-file set's command over a fresh copy of ``workspace``, save the score
    file, the log and the run record, and score it (see the module docstring)."""
    assert spec.command is not None and spec.score_file is not None  # validated
    out_dir.mkdir(parents=True, exist_ok=True)
    score_path, log_path, meta_path = scoreset_paths(out_dir, round_no, test_set)
    reasons = planted_score(workspace, spec.score_file)
    test_dir = spec.tests_mount or f"{options.workdir}/{TESTS_MOUNT}"
    binds = ((TESTS_SELF, spec.tests_mount),) if spec.tests_mount else ()
    argv = ["sh", "-c", spec.command]
    reparse_argv = ["python3", "-E", "-s", f"{test_dir}/{test_set}.py"]
    reparse = spec.parser == "text" and (tests_dir / f"{test_set}.py").is_file()
    with fresh_sandbox(
        workspace, tests_dir, options, make_sandbox, extra_binds=binds, env={"TEST_DIR": test_dir}
    ) as (copy, sandbox):
        _clear_path(copy, spec.score_file)
        started = time.time()
        result = sandbox.exec(argv, timeout_s=timeout_s, cwd=options.workdir)
        data, found = _read_score(copy, spec.score_file, started, time.time())
        reasons += found
        log = _log_block(f"test set {test_set} round {round_no}", argv, result)
        again: ExecResult | None = None
        if reparse and not reasons and not result.timed_out:
            _clear_path(copy, spec.score_file)
            begun = time.time()
            again = sandbox.exec(reparse_argv, timeout_s=timeout_s, cwd=options.workdir)
            redone, more = _read_score(copy, spec.score_file, begun, time.time())
            title = f"test set {test_set} round {round_no} parser check"
            log += _log_block(title, reparse_argv, again)
            if more:
                reasons += more
            elif not _same_text_score(_parsed(data), _parsed(redone)):
                reasons.append(
                    f"the score file the command left ({_parsed(data)}) is not what the task's "
                    f"parser {test_set}.py makes of its output ({_parsed(redone)})"
                )
    if data is not None:
        score_path.write_bytes(data)
    else:
        score_path.unlink(missing_ok=True)
    log_path.write_text((redactor or Redactor()).text(log), encoding="utf-8")
    duration = result.duration_s + (again.duration_s if again is not None else 0.0)
    meta = {
        "parser": spec.parser,
        "exit_code": result.returncode,
        "timed_out": result.timed_out,
        "duration_s": duration,
        "score_written": data is not None,
        "reasons": reasons,
    }
    meta_path.write_text(json.dumps(meta, indent=1), encoding="utf-8")
    scored = score_result(spec, test_set, data, reasons, duration)
    return TestSetRun(
        test_set=test_set,
        exit_code=result.returncode,
        duration_s=duration,
        timed_out=result.timed_out,
        xml_path=score_path,
        log_path=log_path,
        results=(scored,),
        tampered=tuple(reasons),
    )


def load_saved(
    spec: TestSetSpec, out_dir: Path, round_no: int, test_set: TestSet
) -> tuple[list[TestResult], list[str]] | None:
    """A saved score-file set run scored again (None: nothing saved for it)."""
    score_path, _, meta_path = scoreset_paths(out_dir, round_no, test_set)
    if not meta_path.is_file():
        return None
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    reasons = [str(r) for r in meta.get("reasons", [])]
    data = score_path.read_bytes() if score_path.is_file() and not score_path.is_symlink() else None
    if meta.get("score_written") and data is None:
        reasons.append("the saved score file is missing")
    result = score_result(spec, test_set, data, reasons, float(meta.get("duration_s", 0.0)))
    return [result], reasons


def saved_output(out_dir: Path, round_no: int, test_set: str, limit: int) -> str:
    """The grading command's own output of one round (its log between the marker lines,
    the parser check left out), at most ``limit`` characters from its end."""
    _, log_path, _ = scoreset_paths(out_dir, round_no, test_set)
    if not log_path.is_file():
        return ""
    text = log_path.read_text(encoding="utf-8", errors="replace")
    lines = text.split(" parser check start")[0].splitlines()
    body = "\n".join(ln for ln in lines[2:] if not ln.startswith(">>>>> realcli"))
    return body if len(body) <= limit else "…" + body[-limit:]
