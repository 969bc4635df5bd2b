"""ModelCallRelay: puts the gateway's ``model_call`` events into the ledger in agent order.

The gateway and the harness see one session from two threads: the gateway answers a model
call while the harness may still be reading the agent's previous ``tool_result`` from its
stdout. Writing both straight into the ledger interleaves them by chance. Instead, the runner
gives the gateway a relay as its ``on_call`` and hands the same relay to the harness
(``HarnessContext.model_calls``); the harness writes the calls of a turn when it reads the
agent's record of that turn's reply, so the ledger reads: tool_result, model_call, tool_call.

The gateway reports a call before its reply leaves, so the event is always queued by the
time the agent can report having received the reply.
"""

from __future__ import annotations

import threading
import time
from collections import deque

from realcli.schema.events import ModelCallEvent

__all__ = ["ModelCallRelay"]


class ModelCallRelay:
    """Thread-safe queue of model calls; callable, so it can be a gateway's ``on_call``."""

    def __init__(self) -> None:
        self._queue: deque[ModelCallEvent] = deque()
        self._cond = threading.Condition()

    def __call__(self, event: ModelCallEvent) -> None:
        with self._cond:
            self._queue.append(event)
            self._cond.notify_all()

    def take_turn(self, timeout_s: float = 5.0) -> list[ModelCallEvent]:
        """The calls behind one answered turn: failed attempts (retries) up to and including
        the first successful call. Waits up to ``timeout_s`` for that call; on timeout,
        returns whatever failed attempts are queued."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while not any(e.status == 200 for e in self._queue):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return self._take(len(self._queue))
                self._cond.wait(remaining)
            n = next(i for i, e in enumerate(self._queue) if e.status == 200) + 1
            return self._take(n)

    def take_answered(self) -> list[ModelCallEvent]:
        """The queued calls up to and including the first answered one, without waiting;
        ``[]`` when no answered call is queued."""
        with self._cond:
            for i, event in enumerate(self._queue):
                if event.status == 200:
                    return self._take(i + 1)
            return []

    def take_through(self, call_id: str) -> list[ModelCallEvent]:
        """The queued calls up to and including the one whose reply issued ``call_id``
        (what a harness writes just before that tool call). ``[]`` if no queued reply
        issued it (its call was already written, or the agent renamed the id)."""
        with self._cond:
            for i, event in enumerate(self._queue):
                if call_id in event.tool_call_ids:
                    return self._take(i + 1)
            return []

    def drain(self) -> list[ModelCallEvent]:
        """Every queued call (at the end of a session)."""
        with self._cond:
            return self._take(len(self._queue))

    def _take(self, n: int) -> list[ModelCallEvent]:
        return [self._queue.popleft() for _ in range(n)]
