"""Tool pools: each distinct (tools, system prompt) pair a run's agent offered the model,
with the digests the ledger's ``tool_pool`` events and ``model_call`` events share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from realcli.schema.events import ToolPoolEvent
from realcli.util.hashing import canonical_json, sha256_bytes

__all__ = ["ToolPool", "digest"]


@dataclass
class ToolPool:
    """One distinct (tools, system prompt) pair offered to the model, and how often."""

    tools_digest: str
    system_digest: str
    tools: tuple[str, ...]
    schema_digests: tuple[str, ...]
    system_chars: int
    schemas: tuple[Any, ...]
    calls: int = 0

    def event(self) -> ToolPoolEvent:
        return ToolPoolEvent(
            seq=0,
            tools_digest=self.tools_digest,
            system_digest=self.system_digest,
            tools=self.tools,
            schema_digests=self.schema_digests,
            system_chars=self.system_chars,
            calls=self.calls,
        )


def digest(obj: Any) -> str:
    """The sha256 of a string, or of any other JSON value in canonical form."""
    return sha256_bytes((obj if isinstance(obj, str) else canonical_json(obj)).encode())
