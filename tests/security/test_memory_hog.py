"""Attack: taking the host's memory in several processes, each under its own ``RLIMIT_AS`` /
``RLIMIT_DATA``. The sandbox's cgroup bounds the whole tree at ``memory_mb``: the kernel
OOM-kills inside it, and a spawned agent's tree is stopped with the limit named."""

from __future__ import annotations

from pathlib import Path

import pytest

from realcli.sandbox import LocalSandbox, SandboxOptions
from tests.security.limits_helpers import host_can_fork, leaked_cgroups

pytestmark = pytest.mark.sandbox

MEMORY_MB = 256
HOG = (
    "import time; x = bytearray(200 * 1024 * 1024); x[::4096] = b'x' * len(x[::4096]); "
    "print('held', flush=True); time.sleep(3)"
)
THREE_HOGS = f'for i in 1 2 3; do python3 -c "{HOG}" & done; wait'
"""600 MB in three processes of 200 MB, each well under its own 256 MB RLIMIT_DATA."""


def _sandbox(tmp: Path) -> LocalSandbox:
    options = SandboxOptions(workspace=tmp, memory_mb=MEMORY_MB, limit_address_space=False)
    return LocalSandbox(options)


def test_memory_spread_over_processes_is_bounded_for_the_whole_tree(tmp_path: Path) -> None:
    before = set(leaked_cgroups())
    result = _sandbox(tmp_path).exec(["sh", "-c", THREE_HOGS], timeout_s=60)
    assert result.stdout.count("held") < 3  # never all three at once
    assert (
        result.limit is not None and f"memory limit reached: memory_mb={MEMORY_MB}" in result.limit
    )
    assert set(leaked_cgroups()) - before == set()  # none new (others' may be swept meanwhile)
    assert host_can_fork()


def test_a_spawned_tree_is_stopped_at_the_memory_limit(tmp_path: Path) -> None:
    with _sandbox(tmp_path).spawn(["sh", "-c", THREE_HOGS]) as proc:
        proc.wait(timeout=30)  # the watcher kills the tree at the first OOM kill
        assert proc.limit_hit is not None and "memory limit reached" in proc.limit_hit
