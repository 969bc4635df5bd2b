"""Run a corpus case in a child forked from a *clean* process, not from the test process.

``corpus.run_cli`` forks the pytest process itself. That is unsafe for commands that use polars
(``realcli ingest`` writes its rows through polars): once any earlier test has used polars in
the pytest process, its thread pool exists there but not in a forked child, and the child's
first polars call waits forever (measured: a ``write_parquet`` after ``fork()`` hangs). Here the
children fork from multiprocessing's *forkserver*, a fresh interpreter that has imported realcli
but never run anything, so each child is as cheap as a fork and as clean as a new process.
The child body is ``corpus._child``, so the contract is unchanged.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from tests.security.fuzz.corpus import Case, CliResult, Scratch, _child, case_env

__all__ = ["run_case_clean", "run_cli_clean"]

_CTX = multiprocessing.get_context("forkserver")
_CTX.set_forkserver_preload(["realcli.cli", "realcli.runner.commands", "realcli.warehouse"])


def _clean_child(argv: list[str], env: dict[str, str], cwd: str, out: str) -> None:
    fd = os.open(out, os.O_WRONLY | os.O_APPEND)
    _child(argv, env, Path(cwd), fd)


def run_cli_clean(
    argv: list[str], env: Mapping[str, str], cwd: Path, timeout_s: float = 30.0
) -> CliResult:
    """``corpus.run_cli``, forked from the forkserver: output captured, hard timeout (the
    child's process group is killed)."""
    start = time.monotonic()
    with tempfile.NamedTemporaryFile(prefix="realcli-case-") as out:
        proc = _CTX.Process(target=_clean_child, args=(argv, dict(env), str(cwd), out.name))
        proc.start()
        proc.join(timeout_s)
        returncode: int | None = proc.exitcode
        if proc.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid or 0, signal.SIGKILL)
            proc.join()
            returncode = None
        text = Path(out.name).read_bytes().decode("utf-8", "replace")
    return CliResult(returncode, text, time.monotonic() - start)


def run_case_clean(case: Case, scratch: Scratch) -> CliResult:
    """``corpus.run_case`` with :func:`run_cli_clean`."""
    if case.build is not None:
        case.build(scratch)
    argv = [scratch.fill(a) for a in case.argv]
    return run_cli_clean(argv, case_env(case, scratch), scratch.root, case.timeout_s)
