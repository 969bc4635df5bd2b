"""Sandboxes: isolated places to run an untrusted agent and the grader."""

from realcli.sandbox.base import (
    GATEWAY_MOUNT,
    LAUNCH_FAILED_EXIT,
    LAUNCH_FAILED_MARK,
    SANDBOXES,
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


def make_sandbox(kind: str, options: SandboxOptions) -> Sandbox:
    """The registered sandbox ``kind`` built from ``options``. Raises ConfigError (naming
    ``sandbox.kind`` and the registered names) for an unknown kind."""
    return SANDBOXES.get(kind, "config", "sandbox.kind")(options)
