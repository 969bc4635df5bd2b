"""RunSpec: the composed Hydra config, validated once at the runner boundary.

Each field group corresponds to one Hydra config group under ``conf/``. Everything is frozen
and rejects unknown keys, so a typo in YAML or on the command line is a clear error.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from realcli.schema.base import Frozen

__all__ = [
    "CONFIG_GROUPS",
    "HarnessSpec",
    "JudgeSpec",
    "ModeSpec",
    "ModelSpec",
    "PathsSpec",
    "ProtocolSpec",
    "RunSpec",
    "SandboxSpec",
    "SuiteSpec",
]


class ModelSpec(Frozen):
    name: str = Field(description="config option name, e.g. replay")
    backend: Literal["replay", "noop", "scripted"] = Field(
        description="gateway backend that answers model calls"
    )
    model_id: str = Field(description="model identifier reported to the harness")
    script: str | None = Field(
        None, description="scripted backend only: path of a JSONL file of generic actions"
    )
    latency_ms: float = Field(
        0.0, ge=0, description="synthetic per-call latency (offline backends)"
    )


class HarnessSpec(Frozen):
    name: str
    kind: Literal["builtin"] = Field(description="registered harness adapter")
    version: str = Field(description="version pin of the agent runtime")
    max_turns: int = Field(100, ge=1, description="model calls before the harness stops")
    tool_timeout_s: float = Field(300.0, gt=0, description="wall clock for one tool call")
    output_limit: int = Field(16000, ge=256, description="characters of tool output sent back")


class ModeSpec(Frozen):
    name: Literal["cli_only", "gui_only", "hybrid"]
    channels: tuple[Literal["cli", "gui"], ...] = Field(min_length=1)


class ProtocolSpec(Frozen):
    name: str
    rounds: int = Field(1, ge=1, description="self-correction rounds (T1..Tn)")


class SuiteSpec(Frozen):
    name: str
    tasks: tuple[str, ...] = Field(
        (), description="explicit task ids; empty: every task in the suite"
    )
    suite: str | None = Field(None, description="select tasks whose task.toml lists this suite")


class SandboxSpec(Frozen):
    kind: Literal["local"] = Field(description="registered sandbox backend")
    agent_timeout_s: float | None = Field(
        None, gt=0, description="overrides the task's timeouts.agent_s when set"
    )
    memory_mb: int | None = Field(None, ge=64, description="overrides the task's resources")
    cpu_seconds: int | None = Field(None, ge=1, description="overrides the task's resources")
    gateway_port: int = Field(
        8765, ge=1024, le=65535, description="gateway port inside the sandbox"
    )


class JudgeSpec(Frozen):
    name: str
    kind: Literal["tests"] = Field(description="registered judge")


class PathsSpec(Frozen):
    tasks_dir: str
    runs_dir: str
    warehouse: str
    report_dir: str
    cache_dir: str = Field(description="per-machine cache: expected-test inventories per task")


class RunSpec(Frozen):
    experiment_name: str = Field(
        pattern=r"^[A-Za-z0-9_.-]+$", description="run folders go under runs/<experiment_name>/"
    )
    seed: int
    task: str | None = Field(None, description="run only this task id")
    model: ModelSpec
    harness: HarnessSpec
    mode: ModeSpec
    protocol: ProtocolSpec
    suite: SuiteSpec
    sandbox: SandboxSpec
    judge: JudgeSpec
    paths: PathsSpec

    def identity(self) -> dict[str, object]:
        """The part of the spec that defines what a run *is* (paths, suite and judge do not)."""
        return self.model_dump(mode="json", exclude={"paths", "suite", "judge", "task"})


CONFIG_GROUPS: tuple[str, ...] = (
    "model",
    "harness",
    "mode",
    "protocol",
    "suite",
    "sandbox",
    "judge",
    "paths",
)
