"""Typed ``harness.options`` of each adapter, validated when the config is (before a run).

Each adapter class names its model (``Options = CodexOptions``); the spec's ``harness.options``
mapping is checked against it at config time (unknown keys and wrong types refused, naming
the key and the allowed ones) and again when the adapter reads it. The mapping itself stays
what the config says (a default is never written into it), so run keys do not change when a
model gains a field with a default. The defaults here are the adapters' own (docs/harnesses.md).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ClaudeCodeOptions",
    "CodexOptions",
    "HarnessOptions",
    "HermesOptions",
    "NoOptions",
    "OpenClawOptions",
    "OpenHandsOptions",
]

_Names = list[str] | str
"""A list of names, or one comma-separated string (``tools=a,b`` on the command line)."""


class HarnessOptions(BaseModel):
    """Base of the options models: frozen, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NoOptions(HarnessOptions):
    """An adapter without options (``builtin``; ``command`` is configured by ``command:``)."""


class ClaudeCodeOptions(HarnessOptions):
    max_retries: int = Field(2, ge=0, le=100, description="CLAUDE_CODE_MAX_RETRIES")
    tools: list[str] | None = Field(None, description="built-in tools offered (--tools)")
    extra_args: list[str] = Field(default_factory=list, description="appended to `claude -p`")


class CodexOptions(HarnessOptions):
    catalog_model: str = Field("gpt-5.5", description="bundled model whose metadata to use")
    catalog_patch: dict[str, Any] | None = Field(None, description="merged into that entry")
    max_retries: int = Field(1, ge=0, le=100, description="request/stream max retries")
    tools: list[str] | None = Field(None, description="optional tools: view_image, update_plan")
    config: dict[str, Any] | None = Field(None, description="deep-merged into config.toml")
    extra_args: list[str] | None = Field(None, description="appended to `codex exec`")


class HermesOptions(HarnessOptions):
    toolsets: _Names | None = Field(None, description="Hermes toolsets offered (-t)")
    verify_on_stop: bool | Literal["auto"] = Field("auto", description="agent.verify_on_stop")
    environment_probe: bool = Field(False, description="agent.environment_probe")
    max_retries: int = Field(3, ge=0, le=100, description="agent.api_max_retries")
    config: dict[str, Any] | None = Field(None, description="deep-merged into config.yaml")


class OpenClawOptions(HarnessOptions):
    tools: _Names | None = Field(None, description="tools.allow")
    plugins: bool = Field(True, description="plugins.enabled")
    skills: bool = Field(False, description="agents.defaults.skills")
    background_ms: int | None = Field(None, ge=0, description="tools.exec.backgroundMs")
    context_window: int = Field(200_000, ge=1, description="the provider model's contextWindow")
    max_tokens: int = Field(8192, ge=1, description="the provider model's maxTokens")
    config: dict[str, Any] | None = Field(None, description="deep-merged into openclaw.json")
    extra_args: list[str] | None = Field(None, description="appended to `openclaw agent exec`")


class OpenHandsOptions(HarnessOptions):
    tools: _Names | None = Field(None, description="CLI tools kept (filter_tools_regex)")
    builtin_tools: _Names | None = Field(None, description="SDK built-ins")
    num_retries: int = Field(2, ge=0, le=100, description="llm.num_retries")
    condenser: bool = Field(False, description="OpenHands's summarizing condenser")
    agent: dict[str, Any] | None = Field(None, description="deep-merged into agent_settings.json")
