"""Attack: filling the host's disk from the workspace, in files each under ``max_file_mb``
(RLIMIT_FSIZE is per file). The run's workspace lives on its own ``resources.disk_mb``
filesystem, so writes past it fail in the kernel; the watcher stops the run with a typed
``resource_limit`` error (graded), the run's other files are intact, and nothing stays
mounted.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from realcli.sandbox.disk import CappedWorkspace, image_path, unmount_stale, workspace_bytes
from realcli.schema.events import ErrorType
from realcli.util.hashing import sha256_bytes
from tests.security.limits_helpers import DISK_MB, TASK, LimitsSweep, loop_mounts_under

pytestmark = pytest.mark.sandbox

MB = 1024 * 1024


def test_disk_fill_run_is_stopped_at_the_task_disk_limit(limits_sweep: LimitsSweep) -> None:
    run = limits_sweep.runs["fill"]
    assert run.verdict.status.value == "graded" and not run.verdict.passed
    (limit,) = run.errors(ErrorType.resource_limit)
    assert f"disk limit reached: disk_mb={DISK_MB}" in limit.message
    assert run.errors() == [limit]
    workspace = run.run_dir / "workspace"
    assert workspace_bytes(workspace) <= DISK_MB * MB  # 160 MB were attempted
    # the run's other files are intact: every file of the task's repo, byte for byte
    repo = limits_sweep.tasks / TASK / "environment" / "repo"
    for src in (p for p in repo.rglob("*") if p.is_file()):
        copy = workspace / src.relative_to(repo)
        assert sha256_bytes(copy.read_bytes()) == sha256_bytes(src.read_bytes()), copy
    for name in ("ledger.jsonl", "verdict.json", "spec.json"):
        assert (run.run_dir / name).stat().st_size > 0
    # a plain folder again: nothing mounted, no image left
    assert loop_mounts_under(limits_sweep.tmp) == []
    assert not image_path(workspace).exists()


def test_capped_workspace_refuses_writes_past_its_size_and_releases(tmp_path: Path) -> None:
    ws = CappedWorkspace.mount(tmp_path / "workspace", 16)
    try:
        (ws.path / "keep.txt").write_text("kept")
        os.symlink("keep.txt", ws.path / "link")
        os.mkfifo(ws.path / "fifo")
        with pytest.raises(OSError) as err, (ws.path / "big.bin").open("wb") as f:
            for _ in range(32):
                f.write(b"\0" * MB)
                f.flush()
                os.fsync(f.fileno())
        assert err.value.errno == 28  # ENOSPC: the kernel stops the write
        assert sorted(p.name for p in ws.path.iterdir()) == ["big.bin", "fifo", "keep.txt", "link"]
    finally:
        ws.release()
    assert not os.path.ismount(ws.path) and not image_path(ws.path).exists()
    assert (ws.path / "keep.txt").read_text() == "kept"
    assert os.readlink(ws.path / "link") == "keep.txt"
    assert (ws.path / "fifo").is_fifo()


def test_a_killed_runs_mount_is_healed(tmp_path: Path) -> None:
    ws = CappedWorkspace.mount(tmp_path / "workspace", 16)  # its run "was killed": no release
    assert os.path.ismount(ws.path)
    unmount_stale(ws.path)
    assert not os.path.ismount(ws.path) and not image_path(ws.path).exists()
