"""The Docker daemon as the docker sandbox uses it: one client per process, the labels every
sandbox container carries, and the removal of a crashed run's leftovers.

Every container realcli starts is named ``realcli-<12 hex>`` and labelled
``io.realcli.sandbox=1`` and ``io.realcli.owner=<host>:<pid>:<start time>`` (the realcli
process that made it). A container whose owner process is gone (same host, pid not alive or
started at another time) is stale: :func:`clean_stale` removes it, and the first docker sandbox
of a process calls it. ``docker ps -a --filter label=io.realcli.sandbox`` lists them by hand.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from pathlib import Path
from typing import Any

import docker
import docker.errors

from realcli.sandbox.base import SandboxError

__all__ = [
    "OWNER_LABEL",
    "SANDBOX_LABEL",
    "clean_stale",
    "client",
    "container_name",
    "owner_labels",
    "use_daemon",
]

SANDBOX_LABEL = "io.realcli.sandbox"
OWNER_LABEL = "io.realcli.owner"
DEFAULT_SOCKET = "unix:///var/run/docker.sock"
_clients: dict[str, docker.DockerClient] = {}
_lock = threading.Lock()
_cleaned: set[str] = set()
_default_url: str | None = None


def use_daemon(base_url: str | None) -> None:
    """The daemon :func:`client` talks to when given none (``sandbox.docker.socket``)."""
    global _default_url
    _default_url = base_url


def _start_time(pid: int) -> str | None:
    """Field 22 of /proc/PID/stat (start time in clock ticks): tells a reused pid apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def owner_labels() -> dict[str, str]:
    """The labels of a container this process starts."""
    return {SANDBOX_LABEL: "1", OWNER_LABEL: _owner()}


def container_name() -> str:
    return f"realcli-{secrets.token_hex(6)}"


def client(base_url: str | None = None) -> docker.DockerClient:
    """This process's client of the daemon at ``base_url`` (else the one :func:`use_daemon`
    named, ``DOCKER_HOST`` or the default socket); stale sandbox containers are removed the
    first time.

    Raises:
        SandboxError: the daemon does not answer (the message says how to start it).
    """
    url = base_url or _default_url or os.environ.get("DOCKER_HOST") or DEFAULT_SOCKET
    with _lock:
        found = _clients.get(url)
        if found is None:
            try:
                found = docker.DockerClient(base_url=url, timeout=120, max_pool_size=64)
                found.ping()
            except (docker.errors.DockerException, OSError) as exc:
                raise SandboxError(
                    f"the Docker daemon at {url} does not answer ({exc}); start it with "
                    "`bash scripts/dockerd.sh` or use sandbox=local"
                ) from None
            _clients[url] = found
        first = url not in _cleaned
        _cleaned.add(url)
    if first:
        clean_stale(found)
    return found


def _stale(labels: dict[str, Any]) -> bool:
    host, _, rest = str(labels.get(OWNER_LABEL, "")).partition(":")
    pid, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False  # another machine's (a shared daemon): not ours to judge
    return _start_time(int(pid)) != started


def clean_stale(api: docker.DockerClient) -> list[str]:
    """Remove the sandbox containers whose realcli process is gone; their names."""
    removed: list[str] = []
    try:
        found = api.containers.list(all=True, filters={"label": SANDBOX_LABEL})
    except docker.errors.DockerException:
        return removed
    for container in found:
        if _stale(container.labels):
            try:
                container.remove(force=True)
            except docker.errors.NotFound:
                pass
            except docker.errors.APIError as exc:
                if exc.status_code != 409:  # 409: already being removed
                    raise
            removed.append(container.name)
    return removed
