"""The wire formats the gateway speaks, by route (see :class:`realcli.gateway.wire.WireCodec`)."""

from __future__ import annotations

from realcli.gateway.wire import ChatCompletionsCodec, WireCodec
from realcli.gateway.wire_anthropic import AnthropicMessagesCodec
from realcli.gateway.wire_responses import ResponsesCodec

__all__ = ["CODECS", "codec_for"]

CODECS: tuple[WireCodec, ...] = (
    ChatCompletionsCodec(),
    AnthropicMessagesCodec(),
    ResponsesCodec(),
)
"""Every codec; one more wire format is one more entry here."""


def codec_for(route: str, *, aux: bool = False) -> WireCodec | None:
    """The codec answering ``POST route`` (``/v1`` stripped), or None."""
    for codec in CODECS:
        if route in (codec.aux_routes if aux else codec.routes):
            return codec
    return None


def by_name(name: str) -> WireCodec:
    """The codec called ``name`` (e.g. ``openai_chat``). Raises KeyError."""
    for codec in CODECS:
        if codec.name == name:
            return codec
    raise KeyError(f"no wire format {name!r}; known: {[c.name for c in CODECS]}")
