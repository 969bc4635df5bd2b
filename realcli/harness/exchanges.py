"""ExchangeFeed: the gateway's request/reply pairs, handed to a harness as they happen.

A harness that cannot parse its agent's output (the ``command`` harness runs any CLI) still
records every tool call: each request carries the results of the previous reply's tool calls
(``tool`` messages with their ``tool_call_id``), and each reply carries the next tool calls.
The runner gives the gateway a feed as its ``on_exchange`` and the harness subscribes to it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["ExchangeFeed", "Listener"]

Listener = Callable[[Sequence[Mapping[str, Any]], Mapping[str, Any]], None]
"""``(canonical request messages, reply)``; the reply is ``{"content": str | None,
"tool_calls": [{"id", "name", "arguments"}]}`` (Chat Completions shaped, any wire)."""


class ExchangeFeed:
    """Thread-safe fan-out of answered model calls, in the order the gateway answered them."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self.errors: list[str] = []

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def __call__(self, messages: Sequence[Mapping[str, Any]], reply: Mapping[str, Any]) -> None:
        with self._lock:  # one exchange at a time: listeners see them in order
            for listener in self._listeners:
                try:
                    listener(messages, reply)
                except Exception as exc:  # a listener failing must not fail the call
                    self.errors.append(f"{type(exc).__name__}: {exc}")
