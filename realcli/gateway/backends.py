"""Gateway backends: what answers a model call (registry: ``realcli.gateway.registry``).

A backend turns a :class:`ChatRequest` into a :class:`ChatReply`. Offline backends are
stateless: everything they need is in the request (the conversation so far), so retries
and resumed sessions get the same answers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from realcli.gateway.wire import ChatReply, ChatRequest

__all__ = ["Backend", "BackendError", "NoopBackend"]


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


class NoopBackend(Backend):
    """The null agent: always answers ``"done"`` with no tool calls."""

    name = "noop"

    def respond(self, request: ChatRequest) -> ChatReply:
        return ChatReply(content="done")
