"""Gateway backends: what answers a model call, registered by name in :data:`BACKENDS`
(``model.backend``; plugins: the ``realcli.backends`` entry-point group).

A backend turns a :class:`ChatRequest` into a :class:`ChatReply`. Offline backends are
stateless: everything they need is in the request (the conversation so far), so retries
and resumed sessions get the same answers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from realcli.gateway.wire import ChatReply, ChatRequest
from realcli.registry import Registry
from realcli.schema.actions import Action
from realcli.schema.run_spec import ModelSpec

__all__ = ["BACKENDS", "Backend", "BackendError", "BackendInputs", "NoopBackend"]


@dataclass(frozen=True)
class BackendInputs:
    """What a run gives its backend besides ``model``: the task's reference trajectory
    (``write`` contents inlined, for ``replay``), where the agent works, and the folder of
    the runs dir's rate-limit slots (``upstream``; None: node-local)."""

    reference: Sequence[Action] = ()
    workdir: str = "/app"
    limits_dir: Path | None = None


class BackendError(RuntimeError):
    """A backend cannot answer this request (the gateway replies HTTP 500)."""


class Backend(ABC):
    """Base class of gateway backends.

    ``latency_ms`` is a synthetic delay the gateway adds to every call (offline backends).
    """

    name: ClassVar[str] = "abstract"

    def __init__(self, *, latency_ms: float = 0.0) -> None:
        if latency_ms < 0:
            raise ValueError(f"latency_ms must be >= 0, got {latency_ms}")
        self.latency_ms = latency_ms

    @classmethod
    def from_spec(cls, model: ModelSpec, inputs: BackendInputs) -> Backend:
        """The backend ``model`` configures. Raises ConfigError for a config it cannot use."""
        return cls(latency_ms=model.latency_ms)

    def secrets(self) -> tuple[str, ...]:
        """Credentials this backend holds (an upstream API key), for the run's
        :class:`~realcli.util.redact.Redactor`: they must never reach a file."""
        return ()

    @abstractmethod
    def respond(self, request: ChatRequest) -> ChatReply:
        """The assistant's reply to ``request``. Must be safe to call from several threads.

        Raises:
            BackendError: the backend cannot answer (mapped to HTTP 500 by the gateway).
        """


BACKENDS: Registry[type[Backend]] = Registry(
    "backend",
    "realcli.backends",
    (
        "realcli.gateway.backends",
        "realcli.gateway.replay",
        "realcli.gateway.upstream",
        "realcli.gateway.recorded",
    ),
    ordered=True,
)
"""Backends by name (``model.backend``): built-ins register with ``@BACKENDS.register(name)``
where they are defined; plugins through the ``realcli.backends`` entry-point group."""


@BACKENDS.register("noop")
class NoopBackend(Backend):
    """The null agent: always answers ``"done"`` with no tool calls."""

    name = "noop"

    def respond(self, request: ChatRequest) -> ChatReply:
        return ChatReply(content="done")
