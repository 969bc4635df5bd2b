"""The fuzz corpus runner: a bad input (config, bundle, CLI argument, run folder...) as data,
run through realcli's real entry point, and the checks every case must pass.

A :class:`Case` builds its bad input in a scratch folder (``build``), runs ``realcli ARGV...``
and says which fragments the message must contain (the file, the field, the fix). :func:`run_case`
runs :func:`realcli.cli.main` -- the function the ``realcli`` console script calls -- in a forked
child of the test process: the same code path as a command line, without paying for a Python
start per case, and with a hard timeout (a hang is killed and reported, never waited for).
:func:`check_case` asserts the corpus contract: exit status non-zero (unless the case says
otherwise), no traceback, every expected fragment present, within the timeout.

Use it from another corpus file::

    from tests.security.fuzz.corpus import Case, Scratch, check_case, run_case

    CASES = [Case("ledger-dir", ("ingest", "--runs-dir", "{runs}"), ("ledger.jsonl",), build=...)]

    @pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
    def test_case(case: Case, scratch_factory) -> None:
        check_case(case, run_case(case, scratch_factory(case)))
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Case", "CliResult", "Scratch", "check_case", "run_case", "run_cli"]


@dataclass(frozen=True)
class Scratch:
    """Where one case lives: ``root`` is its own empty folder; ``tasks_dir`` the tasks dir the
    case runs against (shared and read-only unless the case builds its own); ``runs_dir`` its
    runs folder. ``fields()`` are the placeholders ``argv`` and ``expect`` may use."""

    root: Path
    tasks_dir: Path
    runs_dir: Path

    def fields(self) -> dict[str, str]:
        return {"tmp": str(self.root), "tasks": str(self.tasks_dir), "runs": str(self.runs_dir)}

    def fill(self, text: str) -> str:
        """``text`` with each ``{tmp}``/``{tasks}``/``{runs}`` filled (other braces kept)."""
        for name, value in self.fields().items():
            text = text.replace("{" + name + "}", value)
        return text


@dataclass(frozen=True)
class Case:
    """One bad input and what realcli must say about it.

    ``argv``: the arguments after ``realcli`` (``{tmp}``, ``{tasks}``, ``{runs}`` are filled
    from the :class:`Scratch`). ``expect``: fragments the output must contain, usually the
    file, the field and a word of the fix (same placeholders). ``build``: makes the bad input
    under the scratch folder before the run. ``env``: extra environment variables.
    ``exit_nonzero``: the command must fail (False for inputs that are reported and skipped,
    such as one bad run folder among good ones). ``forbid``: fragments that must not appear.
    """

    id: str
    argv: tuple[str, ...]
    expect: tuple[str, ...]
    build: Callable[[Scratch], None] | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    exit_nonzero: bool = True
    forbid: tuple[str, ...] = ()
    timeout_s: float = 30.0


@dataclass(frozen=True)
class CliResult:
    returncode: int | None
    """None: killed at the timeout (a hang)."""
    output: str
    """stdout and stderr, interleaved as written."""
    seconds: float


def _child(argv: list[str], env: Mapping[str, str], cwd: Path, fd: int) -> None:
    """In the forked child: run ``realcli argv`` with fd 1 and 2 on ``fd``; never returns."""
    code = 70
    try:
        os.setsid()
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.stdout = sys.stderr = open(fd, "w", buffering=1, closefd=False)  # noqa: SIM115
        os.chdir(cwd)
        os.environ.update(env)
        from realcli.cli import main

        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # report everything: a traceback is what the corpus looks for
        traceback.print_exc()
        code = 70
    finally:
        try:
            sys.stdout.flush()
        finally:
            os._exit(code)


def run_cli(
    argv: list[str], env: Mapping[str, str], cwd: Path, timeout_s: float = 30.0
) -> CliResult:
    """Run ``realcli argv`` (:func:`realcli.cli.main`) in a forked child with a hard timeout;
    a child still running at the timeout is killed with its process group."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            _child(argv, env, cwd, out.fileno())
        returncode: int | None = None
        deadline = start + timeout_s
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                returncode = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            select.select([], [], [], 0.02)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return CliResult(returncode, text, time.monotonic() - start)


def case_env(
    case: Case, scratch: Scratch, base_env: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a case's command: every realcli path inside ``scratch``."""
    return {
        "REALCLI_TASKS_DIR": str(scratch.tasks_dir),
        "REALCLI_RUNS_DIR": str(scratch.runs_dir),
        "REALCLI_WAREHOUSE": str(scratch.root / "warehouse.duckdb"),
        "REALCLI_REPORT_DIR": str(scratch.root / "report"),
        "REALCLI_CACHE_DIR": str(scratch.root / "cache"),
        "REALCLI_AGENTS_DIR": str(scratch.root / "agents"),
        **(base_env or {}),
        **case.env,
    }


def run_case(case: Case, scratch: Scratch, base_env: Mapping[str, str] | None = None) -> CliResult:
    """Build the case's input, then run its command line (placeholders filled)."""
    if case.build is not None:
        case.build(scratch)
    argv = [scratch.fill(a) for a in case.argv]
    return run_cli(argv, case_env(case, scratch, base_env), scratch.root, case.timeout_s)


def check_case(case: Case, result: CliResult, scratch: Scratch | None = None) -> None:
    """The corpus contract: no hang, no traceback, the expected exit status, and a message
    naming the file, the field and the fix (every ``expect`` fragment)."""
    where = f"case {case.id}: output was:\n{result.output}"
    assert result.returncode is not None, f"case {case.id}: hung (killed after {case.timeout_s}s)"
    assert "Traceback" not in result.output, where
    if case.exit_nonzero:
        assert result.returncode != 0, f"silently accepted; {where}"
        assert "fix" in result.output, f"no fix given; {where}"
    for fragment in case.expect:
        frag = scratch.fill(fragment) if scratch is not None else fragment
        assert frag in result.output, f"missing {frag!r}; {where}"
    for fragment in case.forbid:
        assert fragment not in result.output, f"unexpected {fragment!r}; {where}"
