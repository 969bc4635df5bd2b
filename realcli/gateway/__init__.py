"""The local model gateway: the agent's only way out of its sandbox, and the model itself
for offline runs (replay, noop, scripted backends)."""

from realcli.gateway.backends import Backend, BackendError, NoopBackend
from realcli.gateway.client import UnixHTTPConnection, request_json
from realcli.gateway.interject import Interjection, Interjector
from realcli.gateway.registry import BACKENDS, make_backend
from realcli.gateway.replay import (
    CONTINUATION_MARK,
    ReplayBackend,
    ScriptedBackend,
    earlier_calls_line,
)
from realcli.gateway.server import WIRE_FORMAT, Gateway
from realcli.gateway.toolmap import FILE_TOOLS, SHELL_TOOLS, ToolMappingError, map_action
from realcli.gateway.wire import ChatReply, ChatRequest, ToolCall, count_tokens

__all__ = [
    "BACKENDS",
    "CONTINUATION_MARK",
    "FILE_TOOLS",
    "SHELL_TOOLS",
    "WIRE_FORMAT",
    "Backend",
    "BackendError",
    "ChatReply",
    "ChatRequest",
    "Gateway",
    "Interjection",
    "Interjector",
    "NoopBackend",
    "ReplayBackend",
    "ScriptedBackend",
    "ToolCall",
    "ToolMappingError",
    "UnixHTTPConnection",
    "count_tokens",
    "earlier_calls_line",
    "make_backend",
    "map_action",
    "request_json",
]
