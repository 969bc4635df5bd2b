"""RunSpec: the composed Hydra config, validated once at the runner boundary.

Each field group corresponds to one Hydra config group under ``conf/``. Everything is frozen
and rejects unknown keys, so a typo in YAML or on the command line is a clear error.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from realcli.schema.base import Frozen
from realcli.schema.task_spec import TASK_ID_PATTERN

__all__ = [
    "CONFIG_GROUPS",
    "BudgetSpec",
    "CommandSpec",
    "DockerSpec",
    "GuidanceSpec",
    "HarnessSpec",
    "JudgeSpec",
    "ModeSpec",
    "ModelSpec",
    "PathsSpec",
    "PricingSpec",
    "ProgressSpec",
    "ProtocolSpec",
    "RunSpec",
    "SandboxSpec",
    "SuiteSpec",
    "UpstreamSpec",
]

_DAY_S = 86400.0
_MAX_PRICE = 10_000.0
"""USD per million tokens: far above any list price, below a typo's 1e30."""
_MAX_USD = 1_000_000.0


class PricingSpec(Frozen):
    """USD per million tokens (the provider's list price); cost = tokens x price."""

    input_per_mtok: float = Field(0.0, ge=0, le=_MAX_PRICE)
    output_per_mtok: float = Field(0.0, ge=0, le=_MAX_PRICE)
    cached_input_per_mtok: float | None = Field(
        None, ge=0, le=_MAX_PRICE, description="price of cached input tokens; null: the input price"
    )


class UpstreamSpec(Frozen):
    """A real provider behind the gateway (``backend: upstream``). The key is never in the
    config: it is read from ``api_key_env`` or ``api_key_file`` by the gateway only."""

    wire: Literal["openai_chat", "openai_responses", "anthropic_messages"] = Field(
        description="the provider's API: openai_chat (OpenAI, OpenRouter, any compatible), "
        "openai_responses, anthropic_messages"
    )
    base_url: str = Field(pattern=r"^https?://", description="e.g. https://api.openai.com/v1")
    model: str = Field(description="the provider's model name")
    api_key_env: str | None = Field(None, description="environment variable holding the key")
    api_key_file: str | None = Field(None, description="file holding the key (one line)")
    timeout_s: float = Field(600.0, gt=0, le=_DAY_S)
    max_retries: int = Field(2, ge=0, le=100, description="retries on 429/5xx/connection errors")
    max_tokens: int = Field(
        8192, ge=1, le=10_000_000, description="anthropic_messages: max_tokens per call"
    )
    headers: dict[str, str] = Field(
        default_factory=dict, description="extra request headers (never secrets)"
    )
    max_concurrent: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="requests to this provider (base_url) at once, across every run of the "
        "runs dir (threads, processes, nodes); null: no limit. Not part of the run key",
    )


class ModelSpec(Frozen):
    name: str = Field(description="config option name, e.g. replay")
    backend: str = Field(
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="registered gateway backend that answers model calls (realcli.backends "
        "registry: noop, replay, scripted, upstream, recorded, or a plugin's)",
    )
    model_id: str = Field(description="model identifier reported to the harness")
    script: str | None = Field(
        None, description="scripted backend only: path of a JSONL file of generic actions"
    )
    recorded_from: str | None = Field(
        None, description="recorded backend only: an earlier run folder whose calls to replay"
    )
    latency_ms: float = Field(
        0.0, ge=0, le=600_000, description="synthetic per-call latency (offline backends)"
    )
    pricing: PricingSpec = Field(
        default_factory=PricingSpec, description="price table (USD per million tokens)"
    )
    upstream: UpstreamSpec | None = Field(None, description="upstream backend only")


class CommandSpec(Frozen):
    """The ``command`` harness: any CLI agent, configured in YAML only.

    ``argv`` and ``env`` values are templates: ``{instruction}``, ``{instruction_file}``,
    ``{base_url}`` (Chat Completions style, ends in /v1), ``{gateway}`` (no /v1), ``{model}``,
    ``{workdir}``, ``{max_turns}``, ``{home}``, ``{files}`` (where ``files`` are mounted).
    """

    argv: tuple[str, ...] = Field(min_length=1, description="the command line (templated)")
    env: dict[str, str] = Field(default_factory=dict, description="environment (templated)")
    files: dict[str, str] = Field(
        default_factory=dict,
        description="name -> host path (relative: to the directory realcli runs in), mounted "
        "read-only at /run/realcli/files/<name>",
    )
    success_exit_codes: tuple[int, ...] = Field((0,), description="exit codes meaning done")
    tools: dict[str, tuple[str, str]] = Field(
        default_factory=dict,
        description="raw tool name -> [normalised name, atomic op] for the ledger, e.g. "
        "run: [shell, 'exec: shell']; the builtin names (shell, read_file, ...) are known",
    )


class HarnessSpec(Frozen):
    name: str
    kind: str = Field(
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="registered harness adapter (realcli.harnesses registry: builtin, codex, "
        "claude_code, openclaw, hermes, openhands, command, or a plugin's)",
    )
    version: str = Field(description="version pin of the agent runtime")
    max_turns: int = Field(
        100, ge=1, le=100_000, description="model calls before the harness stops"
    )
    tool_timeout_s: float = Field(
        300.0, gt=0, le=_DAY_S, description="wall clock for one tool call"
    )
    output_limit: int = Field(
        16000, ge=256, le=10_000_000, description="characters of tool output sent back"
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="adapter-specific settings, checked against the adapter's Options model "
        "(docs/harnesses.md)",
    )
    command: CommandSpec | None = Field(None, description="command harness only")

    @model_validator(mode="after")
    def _command_only_for_command(self) -> HarnessSpec:
        if self.kind == "command" and self.command is None:
            raise ValueError("the command harness needs a 'command' section (argv, env, files)")
        if self.kind != "command" and self.command is not None:
            raise ValueError(f"'command' is for the command harness only, not {self.kind!r}")
        return self


class ModeSpec(Frozen):
    name: Literal["cli_only", "gui_only", "hybrid"]
    channels: tuple[Literal["cli", "gui"], ...] = Field(min_length=1)


class GuidanceSpec(Frozen):
    """Interactive guidance: when the simulated collaborator speaks, and what it says."""

    triggers: tuple[Literal["stall", "agent_stopped"], ...] = Field(
        ("stall", "agent_stopped"),
        min_length=1,
        description="stall: after stall_turns model calls without a workspace change; "
        "agent_stopped: the agent ended its turn while hidden tests still fail",
    )
    stall_turns: int = Field(
        8, ge=1, le=100_000, description="model calls in a row without a workspace change (a stall)"
    )
    budget: int = Field(3, ge=0, le=1000, description="interventions allowed per run")
    source: Literal["task", "model"] = Field(
        "task",
        description="task: the next unmet sub-step's `guidance` text from task.toml; "
        "model: a simulated user (user_model) writes it",
    )
    user_model: ModelSpec | None = Field(
        None, description="source=model: the backend that plays the user (same fields as model)"
    )

    @model_validator(mode="after")
    def _model_source(self) -> GuidanceSpec:
        if self.source == "model" and self.user_model is None:
            raise ValueError("guidance.source=model needs guidance.user_model (a model spec)")
        return self


class ProtocolSpec(Frozen):
    name: str
    rounds: int = Field(1, ge=1, le=100, description="self-correction rounds (T1..Tn)")
    feedback: bool = Field(
        False,
        description="after each round but the last, the agent gets the test output and "
        "continues (self-correction)",
    )
    feedback_chars: int = Field(
        6000,
        ge=200,
        le=1_000_000,
        description="most characters of one feedback message (failing test ids, outcomes and "
        "scrubbed assertion messages; never raw test output)",
    )
    plan: bool = Field(False, description="inject the task's reference plan into the prompt")
    guidance: GuidanceSpec | None = Field(None, description="interactive guidance (or null)")
    max_sessions: int = Field(
        8, ge=1, le=1000, description="agent sessions per round (guidance continuations included)"
    )


class ProgressSpec(Frozen):
    """Progress over time: workspace snapshots and their replay (docs/tasks.md)."""

    snapshots: bool = Field(
        True,
        description="snapshot the workspace after each tool call that changed it (taken "
        "when the agent's next model call arrives, or at the end of its session)",
    )
    replay: bool = Field(
        False, description="after grading, find when each goal first held (progress.json)"
    )
    grid: int = Field(8, ge=0, le=10_000, description="evenly spaced snapshots always evaluated")
    exhaustive: bool = Field(False, description="evaluate every snapshot instead of bisecting")


def _task_id(value: str) -> str:
    """A bundle id (the folder name under ``paths.tasks_dir``), never a path."""
    if not re.match(TASK_ID_PATTERN, value):
        raise PydanticCustomError(
            "task_id",
            "{problem}",
            {
                "problem": f"{value!r} is not a task id",
                "fix": "name a bundle under paths.tasks_dir by its id (lowercase letters, "
                "digits, . _ -; e.g. smoke-bugfix-intervals), never a path",
            },
        )
    return value


class SuiteSpec(Frozen):
    name: str
    tasks: tuple[str, ...] = Field(
        (), description="explicit task ids; empty: every task in the suite"
    )
    suite: str | None = Field(None, description="select tasks whose task.toml lists this suite")

    @field_validator("tasks")
    @classmethod
    def _ids(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_task_id(t) for t in v)


class DockerSpec(Frozen):
    """``sandbox=docker``: images built locally (nothing is pulled), containers without a
    network, the gateway through a bind-mounted Unix socket."""

    base_image: str = Field(
        "realcli-base:bookworm-r2",
        description="the image a task without a Dockerfile runs in, built by realcli from "
        "Debian packages (debootstrap + docker import) when missing",
    )
    image_dirs: tuple[str, ...] = Field(
        (),
        description="folders of base Dockerfiles that `FROM` names resolve to (e.g. a "
        "LongCLI-Bench release's longcli_dockerImage/): built first, cached by digest",
    )
    image_aliases: dict[str, str] = Field(
        default_factory=dict,
        description="opt-in: a FROM image that cannot be pulled here (a name or a glob such "
        "as 'python:3.*') -> a local image to build over instead, e.g. realcli-base:bookworm "
        "(docs/images.md)",
    )
    socket: str = Field("unix:///var/run/docker.sock", description="the Docker daemon")


class SandboxSpec(Frozen):
    kind: str = Field(
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="registered sandbox backend (realcli.sandboxes registry: local, docker, "
        "or a plugin's)",
    )
    docker: DockerSpec = DockerSpec()
    agent_timeout_s: float | None = Field(
        None, gt=0, le=7 * _DAY_S, description="overrides the task's timeouts.agent_s when set"
    )
    memory_mb: int | None = Field(
        None, ge=64, le=1_048_576, description="overrides the task's resources (MB)"
    )
    cpu_seconds: int | None = Field(
        None, ge=1, le=604_800, description="overrides the task's resources"
    )
    max_processes: int | None = Field(
        None, ge=16, le=1_000_000, description="overrides the task's resources"
    )
    disk_mb: int | None = Field(
        None, ge=16, le=1_048_576, description="overrides the task's resources"
    )
    enforce_limits: bool = Field(
        True,
        description="no cgroups or no loop mounts here: stop with an error (true) or run with "
        "per-process rlimits and a polling disk watcher only (false)",
    )
    gateway_port: int = Field(
        8765, ge=1024, le=65535, description="gateway port inside the sandbox"
    )
    gateway_max_body_mb: int = Field(
        32, ge=1, le=1024, description="largest request body the gateway reads (else 413)"
    )
    gateway_max_concurrent: int = Field(
        4, ge=1, le=256, description="requests the gateway handles at once; more wait"
    )
    gateway_max_inflight_mb: int = Field(
        64, ge=1, le=4096, description="bodies the gateway handles at once, in total; more wait"
    )
    gateway_queue_timeout_s: float = Field(
        120.0, gt=0, le=3600, description="how long a waiting request waits (then 503)"
    )


class AgentJudgeSpec(Frozen):
    """The LLM agent-as-judge (``judge=agent``): a harness run through the gateway in a
    sandbox of its own with read-only copies of the run's evidence."""

    harness: HarnessSpec = Field(description="the harness that runs the judge session")
    model: ModelSpec = Field(description="the judge's model behind the gateway")
    retries: int = Field(
        2, ge=0, le=20, description="new sessions after malformed output, then judge_failed"
    )
    timeout_s: float = Field(600.0, gt=0, le=_DAY_S, description="wall clock per judge session")
    max_evidence_mb: int = Field(
        64, ge=1, le=4096, description="largest evidence copy (deliverables, screenshots)"
    )


class JudgeSpec(Frozen):
    """How finished runs are judged (post hoc; a run can carry many judgements, one per
    ``judgements/<name>.json``). Not part of a run's identity."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="judgements/<name>.json")
    kind: str = Field(
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="registered judge (realcli.judge registry): tests, trajectory, "
        "outcome_only, agent, or auto (trajectory for weave tasks, tests for the others)",
    )
    tau: float = Field(0.80, ge=0, le=1, description="PassRate threshold: passed = final >= tau")
    hack_threshold: float = Field(
        0.85, ge=0, le=1, description="a cheat flag at this confidence or more sets is_hack"
    )
    detectors: tuple[str, ...] | None = Field(
        None, description="cheat detectors to run (registry names); null: every one"
    )
    agent: AgentJudgeSpec | None = Field(None, description="agent judge only")


class PathsSpec(Frozen):
    tasks_dir: str
    runs_dir: str
    warehouse: str
    report_dir: str
    cache_dir: str = Field(description="per-machine cache: expected-test inventories per task")
    agents_dir: str = Field(description="installed agent CLIs (realcli agents install)")


class BudgetSpec(Frozen):
    """Cost caps in USD (priced by ``model.pricing``); null: no cap."""

    run_usd: float | None = Field(
        None, gt=0, le=_MAX_USD, description="per run: ends the run when reached"
    )
    sweep_usd: float | None = Field(
        None, gt=0, le=_MAX_USD, description="per experiment (all its runs, across resumes)"
    )


class RunSpec(Frozen):
    experiment_name: str = Field(
        pattern=r"^[A-Za-z0-9_.-]+$", description="run folders go under runs/<experiment_name>/"
    )
    seed: int = Field(ge=0, le=2**63 - 1, description="the run's seed (part of its identity)")
    task: str | None = Field(None, description="run only this task id (an id, never a path)")
    model: ModelSpec
    harness: HarnessSpec
    mode: ModeSpec
    protocol: ProtocolSpec
    suite: SuiteSpec
    sandbox: SandboxSpec
    judge: JudgeSpec
    paths: PathsSpec
    budget: BudgetSpec = Field(default_factory=BudgetSpec)
    progress: ProgressSpec = Field(default_factory=ProgressSpec)

    @field_validator("task")
    @classmethod
    def _task_is_id(cls, v: str | None) -> str | None:
        return None if v is None else _task_id(v)

    def identity(self) -> dict[str, object]:
        """The part of the spec that defines what a run *is* (paths, suite and judge do not)."""
        limit = {"upstream": {"max_concurrent": True}}  # how fast, not what: not identity
        return self.model_dump(
            mode="json",
            exclude={
                "paths": True,
                "suite": True,
                "judge": True,
                "task": True,
                "progress": True,
                "model": limit,
                "protocol": {"guidance": {"user_model": limit}},
            },
        )


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
