"""What the LongCLI protocols say to the agent: the plan, test feedback, guidance, transcripts.

Every message realcli sends after the first starts with :data:`CONTINUATION_MARK` (the
offline backends count them to know which turn of a script comes next). The texts are built
from the task bundle and the hidden tests' results; the tests themselves never reach the
agent's sandbox. Feedback carries realcli's parsed results, never raw test output (which the
code under test controls): per failing test its id, outcome and the assertion message the
pytest guard extracted, scrubbed of any text copied from the hidden tests or the reference
solution (:class:`realcli.grading.hidden.HiddenText`) and bounded in length. A score-file
test set has no per-test results: its grading command's output (what LongCLI-Bench gives
between turns) follows, scrubbed the same way (:func:`with_score_output`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog import TaskBundle
from realcli.gateway import CONTINUATION_MARK, ChatRequest, earlier_calls_line, make_backend
from realcli.grading.hidden import HiddenText
from realcli.grading.sets import score_outputs
from realcli.ledger import read_ledger
from realcli.schema.events import Event
from realcli.schema.run_spec import ModelSpec
from realcli.schema.task_spec import SubStep
from realcli.schema.verdict import RoundVerdict, TestOutcome, TestResult

__all__ = [
    "PLAN_FILE",
    "SimulatedUser",
    "feedback_message",
    "guidance_message",
    "next_unmet",
    "plan_text",
    "transcript_prompt",
    "with_plan",
    "with_score_output",
]

PLAN_FILE = "solution/plan.md"
"""A task's reference plan (optional: otherwise built from its sub-steps)."""


def _ordered(substeps: Sequence[SubStep]) -> list[SubStep]:
    """Sub-steps in task.toml order, each moved after the sub-steps it depends on: at every
    point the earliest one whose dependencies are done comes next."""
    left = list(substeps)
    done: set[str] = set()
    out: list[SubStep] = []
    while left:
        ready = next((s for s in left if set(s.depends_on) <= done), left[0])  # a cycle: as is
        left.remove(ready)
        done.add(ready.id)
        out.append(ready)
    return out


def plan_text(task: TaskBundle) -> tuple[str, str]:
    """(the reference plan, its source): ``solution/plan.md`` when the bundle has one,
    otherwise one step per sub-step in dependency order (title, then its guidance)."""
    path = task.root / PLAN_FILE
    if path.is_file():
        return path.read_text(encoding="utf-8").strip(), "reference_plan"
    lines = []
    for i, sub in enumerate(_ordered(task.spec.substeps), 1):
        line = f"{i}. {sub.title}"
        if sub.guidance:
            line += f" — {sub.guidance}"
        lines.append(line)
    return "\n".join(lines), "substeps"


def with_plan(instruction: str, plan: str) -> str:
    return (
        f"{instruction.rstrip()}\n\n## Plan\n\nAn expert who knows this codebase suggests "
        f"working in this order:\n\n{plan}\n"
    )


def _tail(text: str, limit: int) -> str:
    return text if len(text) <= limit else "…" + text[-limit:]


FEEDBACK_MESSAGE_CHARS = 300
"""Most characters of one failing test's message in feedback."""


def _failure_line(test: TestResult, hidden: HiddenText) -> str:
    message = hidden.scrub(test.message)
    if len(message) > FEEDBACK_MESSAGE_CHARS:
        message = message[: FEEDBACK_MESSAGE_CHARS - 1] + "…"
    return f"- {test.nodeid} [{test.outcome.value}]" + (f": {message}" if message else "")


def feedback_message(round_no: int, verdict: RoundVerdict, hidden: HiddenText, limit: int) -> str:
    """After round ``round_no``: which sub-steps and regression tests fail, then one line per
    failing test (its id, outcome and scrubbed assertion message), in at most ``limit``
    characters. Nothing of the tests' raw output is included."""
    failing_steps = [s.id for s in verdict.substeps if not s.passed]
    failing_p2p = [t.nodeid for t in verdict.tests if t.test_set == "p2p" and t.outcome != "passed"]
    head = [
        f"{CONTINUATION_MARK}feedback after round {round_no}] The task's hidden tests were run "
        "on your work.",
        f"Requirement tests: {verdict.f2p.passed}/{verdict.f2p.total} passed; "
        + (
            f"regression tests: {verdict.p2p.passed}/{verdict.p2p.total} passed."
            if verdict.p2p is not None
            else "the task has no regression tests."
        ),
    ]
    if failing_steps:
        head.append(f"Parts still failing: {', '.join(failing_steps)}.")
    if failing_p2p:
        shown = ", ".join(failing_p2p[:10]) + (" …" if len(failing_p2p) > 10 else "")
        head.append(f"Regressions (tests that passed before you started): {shown}.")
    failing = [t for t in verdict.tests if t.outcome is not TestOutcome.passed]
    head.append(
        "Continue working on the task; the failing tests follow."
        if failing
        else "Continue working on the task."
    )
    text = "\n".join(head)
    if verdict.tampered:
        text += "\nThe test run was interfered with, so no test result can be reported."
        return text[:limit]
    lines: list[str] = []
    used = len(text) + 2
    for i, test in enumerate(failing):
        line = _failure_line(test, hidden)
        more = f"… and {len(failing) - i} more failing tests"
        if used + len(line) + 1 + len(more) > limit:
            lines.append(more)
            break
        lines.append(line)
        used += len(line) + 1
    return text + ("\n\n" + "\n".join(lines) if lines else "")


SCORE_OUTPUT_CHARS = 2000
"""Most characters of a score-file set's grading output in feedback (its end)."""


def with_score_output(
    text: str, task: TaskBundle, run_dir: Path, round_no: int, hidden: HiddenText
) -> str:
    """``text`` followed by the output of each score-file set's grading command in
    ``round_no`` (what LongCLI-Bench gives between turns), scrubbed like test messages; the
    task's parser script and tests never appear (only what the command printed)."""
    outputs = score_outputs(task.spec.tests, run_dir / "tests", round_no, SCORE_OUTPUT_CHARS)
    blocks = [
        f"Output of the {name.upper()} grading command:\n{hidden.scrub_lines(out)}"
        for name, out in outputs.items()
        if out.strip()
    ]
    return "\n\n".join([text, *blocks]) if blocks else text


def next_unmet(task: TaskBundle, verdict: RoundVerdict) -> SubStep | None:
    """The first failing sub-step whose dependencies pass, in task.toml order (else the first
    failing one in dependency order); None when every sub-step passes."""
    passed = {s.id for s in verdict.substeps if s.passed}
    unmet = [s for s in _ordered(task.spec.substeps) if s.id not in passed]
    for sub in task.spec.substeps:
        if sub.id not in passed and set(sub.depends_on) <= passed:
            return sub
    return unmet[0] if unmet else None


def guidance_message(text: str) -> str:
    return f"{CONTINUATION_MARK}guidance] {text.strip()}"


def _render(event: Event, limit: int = 400) -> str | None:
    kind = event.kind
    if kind == "message":
        return f"{event.role}: {_tail(event.text, limit * 4)}"  # type: ignore[union-attr]
    if kind == "tool_call":
        args = json.dumps(event.args, ensure_ascii=False)  # type: ignore[union-attr]
        return f"tool call {event.name}: {_tail(args, limit)}"  # type: ignore[union-attr]
    if kind == "tool_result":
        code = event.exit_code  # type: ignore[union-attr]
        excerpt = _tail(event.output_excerpt, limit)  # type: ignore[union-attr]
        return f"tool result (exit {code}): {excerpt}"
    return None


def transcript_prompt(
    ledger_path: Path, instruction: str, message: str, limit: int = 30000
) -> tuple[str, int]:
    """A fresh session's first message when the harness cannot resume its own: the original
    instruction, the run so far (the ledger's messages and tool calls, newest kept when it is
    long), then ``message``. Also returns the number of earlier tool calls."""
    events = read_ledger(ledger_path).events
    n_calls = sum(e.kind == "tool_call" for e in events)
    lines = [r for e in events if (r := _render(e)) is not None]
    history = _tail("\n".join(lines), limit)
    text = (
        f"{earlier_calls_line(n_calls)}\n\n{instruction.rstrip()}\n\n"
        "## What you did so far (an earlier session's transcript)\n\n"
        f"{history}\n\n## Now\n\n{message}\n"
    )
    return text, n_calls


@dataclass
class SimulatedUser:
    """Guidance written by a model playing the user (``guidance.source=model``)."""

    model: ModelSpec
    task: TaskBundle

    def __post_init__(self) -> None:
        self.backend = make_backend(self.model, (), workdir=self.task.spec.workdir)

    def secrets(self) -> tuple[str, ...]:
        return self.backend.secrets()

    def guidance(self, unmet: SubStep, failing: Sequence[str], recent: str) -> str:
        """The user's next message. Raises whatever the backend raises."""
        system = (
            "You are the person who asked a coding agent to do the task below. You know what "
            "you want but you do not write code. The agent has stalled or stopped before "
            "finishing. Write one short message (at most four sentences) that steers it to the "
            "next unfinished part. Do not mention hidden tests or file names of tests."
        )
        user = (
            f"# The task\n\n{self.task.instruction.strip()}\n\n# Next unfinished part\n\n"
            f"{unmet.title}\n"
            + (f"Hint you may paraphrase: {unmet.guidance}\n" if unmet.guidance else "")
            + f"\n# Failing checks\n\n{', '.join(failing[:20]) or 'none listed'}\n\n"
            f"# The agent's recent work\n\n{recent}\n"
        )
        request = ChatRequest(
            model=self.model.model_id,
            messages=({"role": "system", "content": system}, {"role": "user", "content": user}),
        )
        reply = self.backend.respond(request)
        text = (reply.content or "").strip()
        if not text:
            raise ValueError("the simulated user's model replied with no text")
        return text


def recent_work(ledger_path: Path, limit: int = 4000) -> str:
    """The last tool calls and messages of the run, for the simulated user."""
    lines = [r for e in read_ledger(ledger_path).events if (r := _render(e, 200)) is not None]
    return _tail("\n".join(lines[-40:]), limit)


def failing_tests(results: Sequence[TestResult]) -> list[str]:
    return [r.nodeid for r in results if r.outcome is not TestOutcome.passed]
