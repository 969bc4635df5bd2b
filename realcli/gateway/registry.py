"""Backend registry and factory: config names a backend (``model.backend``), never a class."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from realcli.gateway.backends import Backend, NoopBackend
from realcli.gateway.replay import ReplayBackend, ScriptedBackend
from realcli.schema.actions import Action
from realcli.schema.run_spec import ModelSpec
from realcli.util.errors import ConfigError

__all__ = ["BACKENDS", "make_backend"]

BACKENDS: dict[str, type[Backend]] = {
    "noop": NoopBackend,
    "replay": ReplayBackend,
    "scripted": ScriptedBackend,
}
"""Backends by registry name (``model.backend`` in config)."""


def make_backend(
    model: ModelSpec, reference: Sequence[Action] = (), *, workdir: str = "/app"
) -> Backend:
    """The backend named by ``model.backend``, with ``model.latency_ms`` per call.

    ``reference`` is the task's reference trajectory (``write`` contents inlined), served by
    ``replay``; ``workdir`` is where the agent works (for tools that want absolute paths).

    Raises:
        ConfigError: ``scripted`` without a ``script``, an unreadable or invalid script,
            or an unknown backend name.
        ValueError: a ``write`` action of ``reference`` without inlined content.
    """
    if model.backend == "noop":
        return NoopBackend(latency_ms=model.latency_ms)
    if model.backend == "replay":
        return ReplayBackend(reference, workdir=workdir, latency_ms=model.latency_ms)
    if model.backend == "scripted":
        if not model.script:
            raise ConfigError(
                "model",
                "script",
                "the scripted backend needs a script",
                "set model.script=PATH to a JSONL file of actions",
            )
        return ScriptedBackend(Path(model.script), workdir=workdir, latency_ms=model.latency_ms)
    raise ConfigError(
        "model", "backend", f"unknown backend {model.backend!r}", f"use one of {sorted(BACKENDS)}"
    )
