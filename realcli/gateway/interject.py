"""Mid-session guidance: user messages the gateway adds to the conversation it forwards.

An agent CLI cannot be handed a message while it runs, but every one of its model calls goes
through the gateway. :class:`Interjector` holds guidance queued by the runner; the next request
that carries a tool result gets it as a user message right after that tool result, and so does
every later request of the session (the model sees one consistent conversation although the
agent's own history never holds the message). Agents that ask for no tool result (the
conversation just started) get it after the last message.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from realcli.gateway.wire import ChatRequest

__all__ = ["Interjection", "Interjector"]


@dataclass
class Interjection:
    text: str
    on_delivered: Callable[[Interjection], None] | None = None
    anchor: str | None = None
    """The tool-call id after whose result the message sits (set on first delivery)."""
    delivered: bool = False


class Interjector:
    """Thread-safe queue of guidance to splice into forwarded requests."""

    def __init__(self) -> None:
        self._items: list[Interjection] = []
        self._lock = threading.Lock()

    def queue(self, text: str, on_delivered: Callable[[Interjection], None] | None = None) -> None:
        with self._lock:
            self._items.append(Interjection(text, on_delivered))

    @property
    def pending(self) -> int:
        with self._lock:
            return sum(not i.delivered for i in self._items)

    def discard_pending(self) -> int:
        """Drop interjections not delivered yet (their session ended); how many."""
        with self._lock:
            kept = [i for i in self._items if i.delivered]
            dropped = len(self._items) - len(kept)
            self._items = kept
            return dropped

    def apply(self, request: ChatRequest) -> ChatRequest:
        """``request`` with every interjection in place (anchoring new ones to its last tool
        result); calls ``on_delivered`` once per interjection, on first delivery."""
        with self._lock:
            if not self._items:
                return request
            messages = list(request.messages)
            last_result = request.last_tool_result_id()
            fresh: list[Interjection] = []
            for item in self._items:
                if not item.delivered:
                    item.anchor = last_result
                    item.delivered = True
                    fresh.append(item)
            out: list[Mapping[str, Any]] = []
            placed: set[int] = set()
            for i, msg in enumerate(messages):
                out.append(msg)
                nxt = messages[i + 1] if i + 1 < len(messages) else None
                if msg.get("role") == "tool" and (nxt is None or nxt.get("role") != "tool"):
                    # the end of a run of tool results: the anchored guidance of any of them
                    ids = _run_ids(messages, i)
                    for k, item in enumerate(self._items):
                        if item.anchor in ids and k not in placed:
                            out.append({"role": "user", "content": item.text})
                            placed.add(k)
            for k, item in enumerate(self._items):
                if k not in placed and (item.anchor is None or item in fresh):
                    out.append({"role": "user", "content": item.text})
                    placed.add(k)
        for item in fresh:
            if item.on_delivered is not None:
                item.on_delivered(item)
        return dataclasses.replace(request, messages=tuple(out))


def _run_ids(messages: list[Mapping[str, Any]], end: int) -> set[str]:
    """Tool-call ids of the contiguous tool results ending at ``end``."""
    ids: set[str] = set()
    i = end
    while i >= 0 and messages[i].get("role") == "tool":
        ids.add(str(messages[i].get("tool_call_id") or ""))
        i -= 1
    return ids
