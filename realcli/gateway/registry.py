"""Backend registry and factory: config names a backend (``model.backend``), never a class."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from realcli.gateway.backends import Backend, NoopBackend
from realcli.gateway.recorded import RecordedBackend
from realcli.gateway.replay import ReplayBackend, ScriptedBackend
from realcli.gateway.upstream import UpstreamBackend
from realcli.schema.actions import Action
from realcli.schema.run_spec import ModelSpec
from realcli.util.errors import ConfigError

__all__ = ["BACKENDS", "make_backend"]

BACKENDS: dict[str, type[Backend]] = {
    "noop": NoopBackend,
    "replay": ReplayBackend,
    "scripted": ScriptedBackend,
    "upstream": UpstreamBackend,
    "recorded": RecordedBackend,
}
"""Backends by registry name (``model.backend`` in config)."""


def make_backend(
    model: ModelSpec,
    reference: Sequence[Action] = (),
    *,
    workdir: str = "/app",
    limits_dir: Path | None = None,
) -> Backend:
    """The backend named by ``model.backend``, with ``model.latency_ms`` per call.

    ``reference`` is the task's reference trajectory (``write`` contents inlined), served by
    ``replay``; ``workdir`` is where the agent works (for tools that want absolute paths).
    ``upstream`` reads its API key here: give the backend's :meth:`~Backend.secrets` to the
    run's redactor.

    Raises:
        ConfigError: ``scripted`` without a ``script``, an unreadable or invalid script;
            ``upstream`` without an ``upstream`` section or without a readable key;
            ``recorded`` without ``recorded_from`` or with a folder that has no valid call
            log; an unknown backend name.
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
    where = f"conf/model/{model.name}.yaml"
    if model.backend == "upstream":
        if model.upstream is None:
            raise ConfigError(
                where,
                "model.upstream",
                "the upstream backend needs an upstream section",
                "add upstream: {wire, base_url, model, api_key_env} (see conf/model/"
                "upstream_openai.yaml)",
            )
        return UpstreamBackend(
            model.upstream,
            model_name=model.name,
            latency_ms=model.latency_ms,
            limits_dir=limits_dir,  # model.upstream.max_concurrent's slots (None: node-local)
        )
    if model.backend == "recorded":
        if not model.recorded_from or model.recorded_from == "???":
            raise ConfigError(
                where,
                "model.recorded_from",
                "the recorded backend needs the run folder to replay",
                "set model.recorded_from=PATH of an earlier run folder (runs/<experiment>/"
                "<run_key>)",
            )
        return RecordedBackend(
            Path(model.recorded_from).expanduser(),
            model_name=model.name,
            latency_ms=model.latency_ms,
        )
    raise ConfigError(
        "model", "backend", f"unknown backend {model.backend!r}", f"use one of {sorted(BACKENDS)}"
    )
