"""The agent judge's prompt: the rubric template (``prompts/agent_judge.md``) filled in for
one run."""

from __future__ import annotations

import string
from importlib.resources import files

from realcli.judge.agent_output import CHEAT_PATTERNS, DIMENSION_TEXT, EVIDENCE_MOUNT, JUDGE_WORKDIR
from realcli.judge.context import RunEvidence
from realcli.schema.judgement import TAXONOMY
from realcli.schema.run_spec import AgentJudgeSpec, JudgeSpec

__all__ = ["render_prompt"]


PROMPT_FILE = "agent_judge.md"


def _prompt_template() -> string.Template:
    return string.Template(
        (files("realcli.judge") / "prompts" / PROMPT_FILE).read_text(encoding="utf-8")
    )


def render_prompt(
    run: RunEvidence,
    spec: JudgeSpec,
    agent: AgentJudgeSpec,
    *,
    attempt: int,
    previous_error: str | None = None,
) -> str:
    """The judge's instruction: realcli's rubric prompt filled in for this run."""
    lines = []
    for d in run.task.deliverables:
        lines.append(f"- `{d.path}` ({d.kind}; evidence: {d.evidence}): {d.description}")
        for c in d.clauses:
            crit = " **critical**" if c.critical else ""
            lines.append(f"  - `{c.id}`{crit}: {c.text}")
    if not run.task.deliverables:
        lines.append("(the task lists no deliverables)")
    prev = ""
    if previous_error:
        prev = (
            f" Your previous judgement.json was rejected: {previous_error}. Write a corrected one."
        )
    return _prompt_template().substitute(
        task_id=run.task.id,
        task_title=run.task.title,
        attempt=attempt,
        attempts=agent.retries + 1,
        previous_error=prev,
        evidence_dir=EVIDENCE_MOUNT,
        workdir=JUDGE_WORKDIR,
        max_evidence_mb=agent.max_evidence_mb,
        deliverables="\n".join(lines),
        dimensions="\n".join(f"- `{k}`: {v}" for k, v in DIMENSION_TEXT.items()),
        patterns="\n".join(f"- `{k}`: {v}" for k, v in CHEAT_PATTERNS.items()),
        taxonomy="\n".join(f"  `{k}` {v}" for k, v in TAXONOMY.items()),
        hack_threshold=f"{spec.hack_threshold:g}",
        tau=f"{spec.tau:g}",
    )
