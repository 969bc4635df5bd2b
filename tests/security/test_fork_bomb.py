"""Attack: a fork bomb from inside the agent's sandbox. RLIMIT_NPROC cannot stop it (it counts
per real uid, host-wide, and root ignores it); the sandbox's cgroup does: ``pids.max`` is the
task's ``resources.max_processes`` for the whole tree, the watcher stops the run with a typed
``resource_limit`` error (graded: the agent's failure, not infra), and the other runs of the
sweep finish (the reference solution beside it passes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from realcli.sandbox import LocalSandbox, SandboxOptions
from realcli.schema.events import ErrorType
from tests.conftest import processes_with_arg
from tests.security.limits_helpers import (
    MAX_PROCESSES,
    LimitsSweep,
    fork_bomb,
    host_can_fork,
    leaked_cgroups,
    unique_sleep,
)

pytestmark = pytest.mark.sandbox


def test_fork_bomb_stops_at_the_sandbox_process_limit(tmp_path: Path) -> None:
    sleep = unique_sleep()
    before = set(leaked_cgroups())
    sandbox = LocalSandbox(SandboxOptions(workspace=tmp_path, max_processes=MAX_PROCESSES))
    result = sandbox.exec(["sh", "-c", fork_bomb(sleep, linger_s=0)], timeout_s=60)
    forked = int(result.stdout.split()[-1])
    # sh, python3 and the 10,000 sleeps it tries share one pids.max
    assert MAX_PROCESSES - 8 <= forked < MAX_PROCESSES, result.stdout + result.stderr
    assert result.limit is not None and f"max_processes={MAX_PROCESSES}" in result.limit
    assert processes_with_arg(sleep) == []  # the tree is gone with its cgroup
    assert set(leaked_cgroups()) - before == set()  # none new (others' may be swept meanwhile)
    assert host_can_fork()


def test_fork_bomb_run_stops_at_the_task_limit_and_is_graded(limits_sweep: LimitsSweep) -> None:
    run = limits_sweep.runs["bomb"]
    assert run.verdict.status.value == "graded" and not run.verdict.passed  # agent's failure
    (limit,) = run.errors(ErrorType.resource_limit)
    assert f"process limit reached: max_processes={MAX_PROCESSES}" in limit.message
    assert run.errors() == [limit]  # no infra error, no crash on top
    assert [e.reason for e in run.events if e.kind == "round_end"] == ["resource_limit"]
    assert [e.test_set for e in run.events if e.kind == "grading"] == ["f2p", "p2p"]
    # the host is fine: nothing of the bomb is left, its cgroups are gone, forking works
    assert processes_with_arg(limits_sweep.sleep) == []
    assert set(leaked_cgroups()) - limits_sweep.leaked_before == set()
    assert host_can_fork()


def test_the_other_runs_of_the_sweep_finish(limits_sweep: LimitsSweep) -> None:
    assert {n: r.verdict.status.value for n, r in limits_sweep.runs.items()} == {
        "bomb": "graded",
        "fill": "graded",
        "trajectory": "graded",
    }
    honest = limits_sweep.runs["trajectory"]
    assert honest.verdict.passed and honest.errors() == []
