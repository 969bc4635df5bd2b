"""Replay backends: serve a trajectory of generic actions as model output.

Stateless: the next action's index is the number of tool calls the assistant has already
made in the request's history, so retries, resumed sessions and parallel runs all get the
right step. Each tool action becomes one tool call (mapped by :mod:`realcli.gateway.toolmap`
onto the tools the request offers) with the action's ``note`` as the assistant content.
``message`` actions carry no tool call: their text is prepended to the next tool call's
content, and whatever follows the last tool action (or ``"done"``) is the final reply.

Turns (protocols that talk back: self-correction feedback, guidance): a ``message`` with
``end_turn`` ends a *segment* of the trajectory; its text is that turn's final reply. Each
user message realcli sends mid-run carries :data:`CONTINUATION_MARK`; after the ``u``-th one
the backend serves segment ``u`` (the last segment once they run out), counting the tool calls
made since that message. A fresh session that gets the earlier transcript instead of its own
history (:func:`earlier_calls_line`) says how many tool calls came before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog.trajectory import load_actions
from realcli.gateway.backends import BACKENDS, Backend, BackendError, BackendInputs
from realcli.gateway.toolmap import Target, ToolMappingError, map_action
from realcli.gateway.wire import ChatReply, ChatRequest, ToolCall, text_of
from realcli.schema.actions import Action, GuiAction, MessageAction, ShellAction, WriteAction
from realcli.schema.run_spec import ModelSpec
from realcli.util.errors import ConfigError

__all__ = [
    "CONTINUATION_MARK",
    "ReplayBackend",
    "ScriptedBackend",
    "continuations",
    "earlier_calls_line",
]

FINAL_DEFAULT = "done"
CONTINUATION_MARK = "[realcli "
"""Starts every user message realcli sends after the first (feedback, guidance)."""
_EARLIER = re.compile(r"\[realcli: (\d+) tool calls in earlier sessions\]")


def earlier_calls_line(n: int) -> str:
    """The line a transcript-carrying fresh session starts with (read by replay backends)."""
    return f"[realcli: {n} tool calls in earlier sessions]"


def continuations(request: ChatRequest) -> tuple[int, int, int]:
    """(continuation messages so far, tool calls since the last one, earlier-session calls)."""
    marks = since = earlier = 0
    for msg in request.messages:
        role = msg.get("role")
        if role == "user":
            text = text_of(msg.get("content"))
            found = text.count(CONTINUATION_MARK)
            if found:
                marks += found
                since = 0
            match = _EARLIER.search(text)
            if match:
                earlier = int(match.group(1))
        elif role == "assistant":
            calls = msg.get("tool_calls")
            if isinstance(calls, list):
                since += len(calls)
    return marks, since, earlier


@dataclass(frozen=True)
class _Step:
    action: Action
    content: str | None


def _join(parts: Sequence[str | None]) -> str | None:
    text = "\n\n".join(p for p in parts if p)
    return text or None


@BACKENDS.register("replay")
class ReplayBackend(Backend):
    """Serves ``actions`` (``write`` contents inlined) as tool calls, one per model call."""

    name = "replay"

    @classmethod
    def from_spec(cls, model: ModelSpec, inputs: BackendInputs) -> Backend:
        return cls(inputs.reference, workdir=inputs.workdir, latency_ms=model.latency_ms)

    def __init__(
        self, actions: Sequence[Action], *, workdir: str = "/app", latency_ms: float = 0.0
    ) -> None:
        super().__init__(latency_ms=latency_ms)
        self.target = Target(workdir=workdir)
        steps: list[_Step] = []
        pending: list[str | None] = []
        starts: list[int] = [0]
        finals: list[str] = []
        for i, action in enumerate(actions):
            if isinstance(action, WriteAction) and action.content is None:
                raise ValueError(
                    f"action #{i} writes {action.path!r} from content_from="
                    f"{action.content_from!r}: inline the content before replaying"
                )
            if isinstance(action, MessageAction):
                pending += [action.note, action.text]
                if action.end_turn:
                    finals.append(_join(pending) or FINAL_DEFAULT)
                    starts.append(len(steps))
                    pending = []
                continue
            steps.append(_Step(action, _join([*pending, action.note])))
            pending = []
        self.steps: tuple[_Step, ...] = tuple(steps)
        self.final_text: str = _join(pending) or FINAL_DEFAULT
        finals.append(self.final_text)
        self.segment_starts: tuple[int, ...] = tuple(starts)
        """First step of each segment (turn); segment k ends where k+1 starts."""
        self.segment_finals: tuple[str, ...] = tuple(finals)

    def next_step(self, request: ChatRequest) -> tuple[int | None, str]:
        """The index of the step to serve next (None: the turn is over) and the final text."""
        marks, since, earlier = continuations(request)
        segment = min(marks, len(self.segment_starts) - 1)
        if segment == 0:
            index = earlier + request.assistant_tool_calls()
        else:
            index = self.segment_starts[segment] + since
        end = (
            self.segment_starts[segment + 1]
            if segment + 1 < len(self.segment_starts)
            else len(self.steps)
        )
        return (index if index < end else None), self.segment_finals[segment]

    def respond(self, request: ChatRequest) -> ChatReply:
        index, final = self.next_step(request)
        if index is None:
            return ChatReply(content=final)
        step = self.steps[index]
        target = Target(self.target.workdir, dict(request.tool_schemas()))
        call_id = f"call_{index:04d}"
        try:
            call = map_action(step.action, request.tool_names, call_id=call_id, target=target)
        except ToolMappingError as exc:
            stand_in = _placeholder(step.action, request.tool_names, call_id, target)
            if stand_in is None:
                raise BackendError(f"{self.name} step {index}: {exc}") from exc
            note = (
                f"[replay: step {index} is a {_channel(step.action)} action and this mode "
                f"offers no {_channel(step.action)} tools; skipped]"
            )
            return ChatReply(content=_join([step.content, note]), tool_calls=(stand_in,))
        return ChatReply(content=step.content, tool_calls=(call,))


def _channel(action: Action) -> str:
    return "GUI" if isinstance(action, GuiAction) else "CLI"


def _placeholder(
    action: Action, offered: Sequence[str], call_id: str, target: Target
) -> ToolCall | None:
    """A no-op on the other channel, for a step the mode cannot perform (a GUI action in
    ``cli_only``, a shell or file action in ``gui_only``): replay goes on, the step's effect
    is lost, which is what shows a hybrid task needs both channels (WeaveBench's P1). None
    when no channel's tool can stand in (a real mapping gap: an error)."""
    if isinstance(action, GuiAction):
        noop: Action = ShellAction(action="shell", cmd=f": skipped gui {action.tool}")
    else:
        noop = GuiAction(action="gui", tool="wait", args={"seconds": 0})
    try:
        return map_action(noop, offered, call_id=call_id, target=target)
    except ToolMappingError:
        return None


@BACKENDS.register("scripted")
class ScriptedBackend(ReplayBackend):
    """A replay of the actions in a JSONL file (e.g. an adversarial agent for tests)."""

    name = "scripted"

    @classmethod
    def from_spec(cls, model: ModelSpec, inputs: BackendInputs) -> Backend:
        if not model.script:
            raise ConfigError(
                "model",
                "script",
                "the scripted backend needs a script",
                "set model.script=PATH to a JSONL file of actions",
            )
        return cls(Path(model.script), workdir=inputs.workdir, latency_ms=model.latency_ms)

    def __init__(self, path: Path, *, workdir: str = "/app", latency_ms: float = 0.0) -> None:
        self.path = path
        actions = load_actions(path, path.parent)
        super().__init__(actions, workdir=workdir, latency_ms=latency_ms)
