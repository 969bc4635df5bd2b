"""Sandboxes: isolated places to run an untrusted agent and the grader."""

from realcli.sandbox.base import (
    GATEWAY_MOUNT,
    LAUNCH_FAILED_EXIT,
    LAUNCH_FAILED_MARK,
    ExecResult,
    Sandbox,
    SandboxError,
    SandboxOptions,
    SandboxProcess,
)
from realcli.sandbox.docker import DockerSandbox
from realcli.sandbox.local import LocalSandbox
from realcli.sandbox.neutral import VENV_MOUNT, sandbox_python

__all__ = [
    "GATEWAY_MOUNT",
    "LAUNCH_FAILED_EXIT",
    "LAUNCH_FAILED_MARK",
    "SANDBOXES",
    "VENV_MOUNT",
    "DockerSandbox",
    "ExecResult",
    "LocalSandbox",
    "Sandbox",
    "SandboxError",
    "SandboxOptions",
    "SandboxProcess",
    "make_sandbox",
    "sandbox_python",
]

SANDBOXES: dict[str, type[Sandbox]] = {"local": LocalSandbox, "docker": DockerSandbox}
"""Sandbox backends by registry name (``sandbox.kind`` in config)."""


def make_sandbox(kind: str, options: SandboxOptions) -> Sandbox:
    """The registered sandbox ``kind`` built from ``options``. Raises KeyError for unknown kinds."""
    try:
        cls = SANDBOXES[kind]
    except KeyError:
        raise KeyError(f"unknown sandbox kind {kind!r}; registered: {sorted(SANDBOXES)}") from None
    return cls(options)
