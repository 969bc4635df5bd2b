"""Backend registry and factory: config names a backend (``model.backend``), never a class."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from realcli.gateway.backends import BACKENDS, Backend, BackendInputs
from realcli.schema.actions import Action
from realcli.schema.run_spec import ModelSpec

__all__ = ["BACKENDS", "make_backend"]


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
    cls = BACKENDS.get(model.backend, f"conf/model/{model.name}.yaml", "model.backend")
    return cls.from_spec(model, BackendInputs(tuple(reference), workdir, limits_dir))
