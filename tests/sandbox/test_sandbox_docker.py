"""DockerSandbox against the sandbox contract, plus Docker-specific checks (real dockerd)."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docker
import docker.errors
import pytest
from sandbox_contract import MakeSandbox, SandboxContract, sh, unique_sleep

from realcli.sandbox import SANDBOXES, DockerSandbox, SandboxOptions, make_sandbox
from realcli.sandbox.docker_base import ensure_base_image
from realcli.sandbox.docker_client import (
    OWNER_LABEL,
    SANDBOX_LABEL,
    clean_stale,
    client,
    owner_labels,
)


def _daemon_answers() -> str | None:
    try:
        docker.from_env(timeout=5).ping()
    except (docker.errors.DockerException, OSError) as exc:
        return f"dockerd does not answer ({exc}); start it with `bash scripts/dockerd.sh`"
    return None


_DOWN = _daemon_answers()
pytestmark = [
    pytest.mark.docker,
    pytest.mark.xdist_group("docker"),
    pytest.mark.skipif(_DOWN is not None, reason=_DOWN or ""),
]

IMAGE_ROOT = frozenset(
    {
        "/etc/shadow",
        "/etc/gshadow",
        "/etc/ssl/private",
        "/home",
        "/mnt",
        "/opt",
        "/var",
        "/srv",
        "/root/.bashrc",
        "/root/.profile",
    }
)
"""The Debian base image's own files that the contract's host probes also name."""


@pytest.fixture(scope="session")
def base_image() -> str:
    return ensure_base_image()


def _sandbox_containers() -> set[str]:
    """This process's sandbox containers (other test workers start their own meanwhile)."""
    mine = f"{OWNER_LABEL}={owner_labels()[OWNER_LABEL]}"
    found = client().containers.list(all=True, filters={"label": [SANDBOX_LABEL, mine]})
    return {c.name for c in found}


class TestDockerSandbox(SandboxContract):
    own_root = IMAGE_ROOT

    @pytest.fixture
    def make_sandbox(self, tmp_path: Path, base_image: str) -> MakeSandbox:
        workspace = tmp_path / "workspace"
        workspace.mkdir()

        def make(**changes: Any) -> DockerSandbox:
            return DockerSandbox(SandboxOptions(**{"workspace": workspace, **changes}))

        return make


def test_registry_builds_docker(tmp_path: Path) -> None:
    sandbox = make_sandbox("docker", SandboxOptions(workspace=tmp_path, image="x:y"))
    assert isinstance(sandbox, DockerSandbox) and SANDBOXES["docker"] is DockerSandbox
    assert sandbox.image == "x:y"


def test_only_loopback_and_container_gone_after_kill_tree(
    tmp_path: Path, base_image: str, processes_with_arg: Callable[[str], list[int]]
) -> None:
    sandbox = DockerSandbox(SandboxOptions(workspace=tmp_path))
    code, out = sh(sandbox, "ls /sys/class/net")
    assert code == 0 and out.split() == ["lo"]
    before = _sandbox_containers()
    tag = unique_sleep()
    proc = sandbox.spawn(["sh", "-c", f"setsid sleep {tag} & echo ready; sleep {tag}"])
    assert next(iter(proc.stdout)) == "ready\n"
    deadline = time.monotonic() + 10  # "ready" can come before either sleep has exec'd
    while not processes_with_arg(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with_arg(tag), "the container's processes show in the host's /proc"
    mine = _sandbox_containers() - before
    assert len(mine) == 1 and next(iter(mine)).startswith("realcli-")
    proc.kill_tree()
    proc.close()
    assert processes_with_arg(tag) == []
    assert not mine & _sandbox_containers(), "kill_tree removes the container"
    sandbox.exec(["true"], timeout_s=20)
    assert not _sandbox_containers() - before, "exec leaves no container behind"


def test_image_option_is_honoured(tmp_path: Path, base_image: str) -> None:
    tag = "realcli-test-marked:1"
    context = tmp_path / "ctx"
    context.mkdir()
    (context / "Dockerfile").write_text(
        f"FROM {base_image}\nRUN echo from-the-task-image > /etc/realcli-marker\n"
    )
    subprocess.run(
        ["docker", "build", "-q", "-t", tag, str(context)], check=True, capture_output=True
    )
    try:
        workspace = tmp_path / "ws"
        workspace.mkdir()
        marked = DockerSandbox(SandboxOptions(workspace=workspace, image=tag))
        assert sh(marked, "cat /etc/realcli-marker")[1] == "from-the-task-image\n"
        plain = DockerSandbox(SandboxOptions(workspace=workspace))
        assert sh(plain, "cat /etc/realcli-marker")[0] != 0
        missing = DockerSandbox(SandboxOptions(workspace=workspace, image="realcli-nope:0"))
        with pytest.raises(Exception, match="nothing is pulled"):
            missing.exec(["true"], timeout_s=10)
    finally:
        subprocess.run(["docker", "rmi", "-f", tag], check=False, capture_output=True)


def test_stale_container_is_cleaned(base_image: str) -> None:
    api = client()
    dead = subprocess.Popen(["true"])
    dead.wait()  # a pid that no longer runs: its container is a crashed run's leftover
    labels = {SANDBOX_LABEL: "1", OWNER_LABEL: f"{socket.gethostname()}:{dead.pid}:0"}
    stale = api.containers.create(base_image, ["sleep", "600"], labels=labels, network_mode="none")
    stale.start()
    live = api.containers.create(
        base_image,
        ["sleep", "600"],
        labels={SANDBOX_LABEL: "1", OWNER_LABEL: f"{socket.gethostname()}:1:{_start(1)}"},
        network_mode="none",
    )
    try:
        removed = clean_stale(api)
        assert stale.name in removed and live.name not in removed
        with pytest.raises(docker.errors.NotFound):
            api.containers.get(stale.id)
    finally:
        live.remove(force=True)
        with pytest.raises(docker.errors.NotFound):
            stale.remove(force=True)


def _start(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]


def test_limits_reach_the_container(tmp_path: Path, base_image: str) -> None:
    sandbox = DockerSandbox(
        SandboxOptions(workspace=tmp_path, memory_mb=300, max_processes=64, cpu_seconds=7)
    )
    code, out = sh(
        sandbox,
        "ulimit -t; cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max",
    )
    assert code == 0 and out.split() == ["7", "64"], out
    code, out = sh(
        sandbox,
        "cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null"
        " || cat /sys/fs/cgroup/memory.max",
    )
    assert int(out) == 300 * 1024 * 1024
