"""``judge=agent``: an LLM agent as judge, in a session of its own.

For each run it judges, realcli copies the run's evidence (the deliverables named in
task.toml and their ``.SKIPPED.txt`` siblings, ``ledger.jsonl``, ``screenshots/``,
``task.toml`` and ``instruction.md``; read with :mod:`realcli.util.safe_fs`, so no link is
followed, and at most ``judge.agent.max_evidence_mb`` in all) into a temp folder, mounted
read-only at ``/judge/evidence`` in a fresh sandbox whose workspace (``/judge``) is
otherwise empty. A harness (``judge.agent.harness``) runs the judge model
(``judge.agent.model``) through the gateway with realcli's rubric prompt
(``realcli/judge/prompts/agent_judge.md``); the judge writes ``/judge/judgement.json``.

The file is validated against :class:`AgentOutput` (WeaveBench's per-case schema) and its
consistency with the rubric is checked (every deliverable and clause once, evidence behind
every credited clause, no rounding up past the six-tier rubric, Eq. 3, verbatim cheat
quotes); nothing is clamped or silently recomputed. Malformed or missing output gets a new
session (up to ``judge.agent.retries``), then a ``judge_failed`` judgement naming what was
wrong. Each session keeps its own ledger under ``judgements/<judge>/attempt-<n>/`` in the run
folder (the run's own ledger is never touched); model calls, tokens and cost are metered from
the gateway's ``model_call`` events into :class:`~realcli.schema.judgement.JudgeUsage`.
``Judgement.screenshots`` is realcli's own provenance classification of the screenshot
deliverables (:mod:`realcli.judge.provenance`, as the trajectory judge records it), not the
judge model's opinion: a reader can set the two side by side.

This module runs the sessions; the output contract is :mod:`realcli.judge.agent_output`, the
evidence staging :mod:`realcli.judge.agent_evidence`, the prompt :mod:`realcli.judge.agent_prompt`.
"""

from __future__ import annotations

import os
import platform
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from realcli import __version__
from realcli.gateway import Backend, Gateway, make_backend
from realcli.gateway.meter import Meter, Pricing
from realcli.harness import HarnessContext, ModelCallRelay, make_harness
from realcli.judge.agent_evidence import StagedEvidence, stage_evidence
from realcli.judge.agent_output import (
    CHEAT_PATTERNS,
    DIMENSION_TEXT,
    EVIDENCE_MOUNT,
    JUDGE_WORKDIR,
    OUTPUT_FILE,
    AgentOutput,
    MalformedJudgement,
    agent_judgement,
    parse_output,
)
from realcli.judge.agent_prompt import render_prompt
from realcli.judge.base import JUDGES, Judge
from realcli.judge.context import JudgeInputError, RunEvidence
from realcli.judge.store import JUDGEMENTS_DIR
from realcli.ledger import LedgerWriter
from realcli.sandbox import SandboxOptions, make_sandbox
from realcli.schema.events import BudgetEvent, ErrorEvent, ErrorType, HeaderEvent, ModelCallEvent
from realcli.schema.judgement import Judgement, JudgeUsage
from realcli.schema.run_spec import AgentJudgeSpec, ModelSpec
from realcli.schema.verdict import VerdictStatus
from realcli.util.bounded import MIB
from realcli.util.errors import ConfigError
from realcli.util.redact import Redactor
from realcli.util.safe_fs import NotARegularFile, read_bytes_under

__all__ = [
    "CHEAT_PATTERNS",
    "DIMENSION_TEXT",
    "EVIDENCE_MOUNT",
    "JUDGE_WORKDIR",
    "OUTPUT_FILE",
    "AgentJudge",
    "AgentOutput",
    "MalformedJudgement",
    "parse_output",
    "render_prompt",
    "stage_evidence",
]

MAX_OUTPUT_BYTES = 4 * MIB
GATEWAY_PORT = 8765
DEFAULT_SCRIPT = "scripted_judge.jsonl"
"""The offline judge played when ``judge.agent.model`` is scripted without a script."""


@dataclass
class _Meter:
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, event: ModelCallEvent) -> None:
        with self.lock:
            self.calls += 1
            self.tokens_in += event.tokens_in
            self.tokens_out += event.tokens_out
            self.cost_usd += event.cost_usd

    def snapshot(self) -> tuple[int, int, int, float]:
        with self.lock:
            return self.calls, self.tokens_in, self.tokens_out, self.cost_usd

    def budget(self, before: tuple[int, int, int, float], seconds: float) -> BudgetEvent:
        """One session's share, as the runner writes it for an agent session."""
        calls, t_in, t_out, usd = self.snapshot()
        return BudgetEvent(
            seq=0,
            turns=calls - before[0],
            wall_clock_s=seconds,
            tokens_in=t_in - before[1],
            tokens_out=t_out - before[2],
            cost_usd=max(usd - before[3], 0.0),
        )


@dataclass(frozen=True)
class _Attempt:
    output: bytes | None
    error: str | None
    listing: tuple[str, ...]


def _session_root(run: RunEvidence, name: str) -> Path:
    """``judgements/<name>/`` of the run folder, emptied (a forced re-judge starts clean)."""
    parent = run.run_dir / JUDGEMENTS_DIR
    folder = parent / name
    for path in (parent, folder):
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            raise JudgeInputError(
                str(path), None, "is not a folder", "remove it; realcli writes judgements here"
            )
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def _listing(root: Path) -> tuple[str, ...]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        for name in sorted(dirnames + filenames):
            out.append(name if rel == "." else f"{rel}/{name}")
    return tuple(sorted(out))


@JUDGES.register("agent")
class AgentJudge(Judge):
    """The agent-as-judge. See the module docstring."""

    kind = "agent"
    version = "2"  # 2: records Judgement.screenshots (realcli's own provenance classification)

    @property
    def agent(self) -> AgentJudgeSpec:
        if self.spec.agent is None:
            raise ConfigError(
                f"conf/judge/{self.spec.name}.yaml",
                "judge.agent",
                "the agent judge needs an agent section (harness, model, retries)",
                "use judge=agent, or add agent: {harness, model} to the option file",
            )
        return self.spec.agent

    def judge(self, run: RunEvidence) -> Judgement:
        agent = self.agent
        base = self.base_fields(run)
        if run.verdict.status is VerdictStatus.infra_error:
            return Judgement(**base, status="not_applicable", error=run.verdict.error or "infra")
        model = self._model(agent)
        backend = make_backend(model, (), workdir=JUDGE_WORKDIR)  # a bad config: an error line
        folder = _session_root(run, self.spec.name)
        meter = _Meter()
        started = time.monotonic()
        errors: list[str] = []
        with tempfile.TemporaryDirectory(prefix="realcli-judge-") as tmp:
            evidence = stage_evidence(run, Path(tmp) / "evidence", agent.max_evidence_mb * MIB)
            for attempt in range(1, agent.retries + 2):
                result = self._session(
                    run, agent, model, backend, evidence, folder, attempt, errors, meter
                )
                if result.output is None:
                    errors.append(result.error or "no output")
                    continue
                try:
                    out, notes = parse_output(result.output, run.task, self.spec, evidence.corpus)
                except MalformedJudgement as exc:
                    errors.append(str(exc))
                    continue
                usage = self._usage(meter, attempt, started)
                return agent_judgement(self.spec, run, base, out, notes, attempt, usage)
        attempts = agent.retries + 1
        return Judgement(
            **base,
            status="judge_failed",
            error=f"{attempts} attempts, no valid judgement: "
            + " | ".join(f"#{i}: {e}" for i, e in enumerate(errors, 1)),
            attempts=attempts,
            usage=self._usage(meter, attempts, started),
            summary="the agent judge produced no valid judgement (judge_failed)",
        )

    @staticmethod
    def _usage(meter: _Meter, sessions: int, started: float) -> JudgeUsage:
        return JudgeUsage(
            sessions=sessions,
            model_calls=meter.calls,
            tokens_in=meter.tokens_in,
            tokens_out=meter.tokens_out,
            cost_usd=round(meter.cost_usd, 8),
            wall_time_s=round(time.monotonic() - started, 3),
        )

    def _model(self, agent: AgentJudgeSpec) -> ModelSpec:
        model = agent.model
        if model.backend == "scripted" and not model.script:
            script = files("realcli.judge") / "prompts" / DEFAULT_SCRIPT
            model = model.model_copy(update={"script": str(script)})
        return model

    def _session(
        self,
        run: RunEvidence,
        agent: AgentJudgeSpec,
        model: ModelSpec,
        backend: Backend,
        evidence: StagedEvidence,
        folder: Path,
        attempt: int,
        errors: list[str],
        meter: _Meter,
    ) -> _Attempt:
        """One judge session in a fresh sandbox; its output bytes or why there are none."""
        session_dir = folder / f"attempt-{attempt}"
        native = session_dir / "native"
        native.mkdir(parents=True)
        redactor = Redactor()
        prompt = render_prompt(
            run, self.spec, agent, attempt=attempt, previous_error=errors[-1] if errors else None
        )
        header = HeaderEvent(
            seq=0,
            realcli_version=__version__,
            git_sha=None,
            run_key=run.run_key,
            experiment=f"judge:{self.spec.name}",
            task_id=run.task.id,
            task_digest=run.ledger.header.task_digest,
            spec={"judge": self.spec.model_dump(mode="json"), "attempt": attempt},
            host={"node": platform.node(), "python": platform.python_version()},
        )
        relay = ModelCallRelay()
        before = meter.snapshot()
        session_started = time.monotonic()

        def on_call(event: ModelCallEvent) -> None:
            meter.add(event)
            relay(event)

        sandbox_spec = run.spec.get("sandbox") if isinstance(run.spec, dict) else None
        enforce = bool((sandbox_spec or {}).get("enforce_limits", True))
        paths = run.spec.get("paths") if isinstance(run.spec, dict) else None
        agents_dir = (paths or {}).get("agents_dir")
        with (
            tempfile.TemporaryDirectory(prefix="realcli-judge-ws-") as ws_tmp,
            tempfile.TemporaryDirectory(prefix="realcli-gw-") as sock_dir,
            LedgerWriter.create(session_dir / "ledger.jsonl", header, redactor) as ledger,
        ):
            workspace = Path(ws_tmp)
            (workspace / "evidence").mkdir()
            try:
                for secret in backend.secrets():
                    redactor.add(secret)
                harness = make_harness(agent.harness)
                p = model.pricing
                with Gateway(
                    backend,
                    on_call,
                    model_id=model.model_id,
                    meter=Meter(
                        Pricing(p.input_per_mtok, p.output_per_mtok, p.cached_input_per_mtok)
                    ),
                    log_path=native / "gateway.jsonl",
                    redactor=redactor,
                ) as gateway:
                    gateway.start(Path(sock_dir) / "gateway.sock")
                    options = SandboxOptions(
                        workspace=workspace,
                        workdir=JUDGE_WORKDIR,
                        memory_mb=2048,
                        cpu_seconds=int(agent.timeout_s) + 60,
                        max_file_mb=64,
                        enforce_limits=enforce,
                        ro_binds=((evidence.root, EVIDENCE_MOUNT),),
                        stage_ro_binds=False,
                        gateway_socket=Path(sock_dir) / "gateway.sock",
                        gateway_port=GATEWAY_PORT,
                    )
                    ctx = HarnessContext(
                        sandbox=make_sandbox("local", options),
                        ledger=ledger,
                        native_dir=native,
                        instruction=prompt,
                        model_id=model.model_id,
                        gateway_port=GATEWAY_PORT,
                        workdir=JUDGE_WORKDIR,
                        timeout_s=agent.timeout_s,
                        redactor=redactor,
                        model_calls=relay,
                        agents_dir=Path(agents_dir) if agents_dir else None,
                    )
                    outcome = harness.run(ctx)
            except Exception as exc:  # an infra failure of this session: the next one retries
                msg = f"judge session failed: {type(exc).__name__}: {exc}"
                ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.infra_error, message=msg))
                return _Attempt(None, msg.splitlines()[0], ())
            finally:
                for event in relay.drain():
                    ledger.emit(event)
                ledger.emit(meter.budget(before, time.monotonic() - session_started))
            listing = _listing(workspace) + tuple(
                f"evidence/{rel}" for rel in _listing(evidence.root)
            )
            try:
                raw = read_bytes_under(workspace, OUTPUT_FILE, max_bytes=MAX_OUTPUT_BYTES)
            except FileNotFoundError:
                return _Attempt(
                    None,
                    f"{OUTPUT_FILE}: missing (the judge session ended: {outcome.reason}"
                    f"{', ' + outcome.detail.splitlines()[0] if outcome.detail else ''})",
                    listing,
                )
            except (NotARegularFile, OSError) as exc:
                return _Attempt(None, f"{OUTPUT_FILE}: unreadable ({exc})", listing)
            (session_dir / OUTPUT_FILE).write_bytes(raw)  # what the judge wrote, for audit
            (session_dir / "workspace.txt").write_text("\n".join(listing) + "\n", "utf-8")
            return _Attempt(raw, None, listing)
