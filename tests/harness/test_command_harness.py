"""The command harness: a new CLI agent (a 30-line sh script) configured in YAML only.

The agent is ``tests/harness/agents/shell_agent.sh``; its whole integration is the YAML
written below into a config dir of its own (nothing in ``conf/``, no Python). It runs
through the harness contract (replay passes, noop fails F2P, timeouts leave nothing behind,
the ledger is complete and in order) and through ``realcli run --config-dir``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from harness_contract import HarnessContract, NativeToolEvent
from harness_scenarios import SMOKE_TASK

from realcli.ledger import read_ledger
from realcli.ledger.layout import LEDGER, VERDICT
from tests.conftest import REALCLI, TASKS, env_for

pytestmark = pytest.mark.sandbox

AGENT = Path(__file__).parent / "agents" / "shell_agent.sh"
YAML = """\
# A 30-line sh agent (curl + jq), run by the command harness: YAML only.
name: shell_agent
kind: command
version: "1"
max_turns: 60
command:
  argv: [sh, "{{files}}/agent.sh", "{{base_url}}", "{{model}}", "{{max_turns}}"]
  env: {{INSTRUCTION_FILE: "{{instruction_file}}"}}
  files: {{agent.sh: "{agent}"}}
"""


def write_config(base: Path) -> Path:
    """A config dir holding only ``harness/shell_agent.yaml``."""
    conf = base / "conf"
    (conf / "harness").mkdir(parents=True, exist_ok=True)
    (conf / "harness" / "shell_agent.yaml").write_text(YAML.format(agent=AGENT))
    return conf


class TestCommandHarnessContract(HarnessContract):
    harness_overrides = ("harness=shell_agent",)
    # one task: the shell fallback is the same for every smoke task
    replay_tasks = (SMOKE_TASK,)
    tool_pool = frozenset({"shell"})
    records_tool_pool = False  # the agent keeps no log of its own: the gateway's is the record

    @classmethod
    def extra_overrides(cls, base: Path) -> tuple[str, ...]:
        return (f"hydra.searchpath=[file://{write_config(base)}]",)

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        """The gateway's call log is this harness's native record: each reply's tool calls,
        and each request's tool results (by the ids of the calls before)."""
        events: list[NativeToolEvent] = []
        for line in (native_dir / "gateway.jsonl").read_text().splitlines():
            record = json.loads(line)
            if record.get("status") != 200:
                continue
            if events:  # this request carried the results of the previous reply's calls
                pending = [e.call_id for e in events if e.kind == "call"]
                done = {e.call_id for e in events if e.kind == "result"}
                events += [NativeToolEvent("result", c) for c in pending if c not in done]
            events += [NativeToolEvent("call", c["id"]) for c in record["reply"]["tool_calls"]]
        return events


def test_realcli_run_with_a_config_dir_runs_the_agent(tmp_path: Path, cache_dir: Path) -> None:
    """``realcli run -cd DIR harness=shell_agent``: the user's own YAML, the CLI path."""
    conf = write_config(tmp_path)
    runs = tmp_path / "runs"
    argv = [*REALCLI, "run", "--config-dir", str(conf)]
    argv += ["harness=shell_agent", "model=replay", "task=smoke-scratch-csvstats"]
    argv += [f"paths.tasks_dir={TASKS}", f"paths.runs_dir={runs}", "experiment_name=cmd"]
    proc = subprocess.run(
        argv,
        env=env_for(tmp_path, cache_dir),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    (run_dir,) = (runs / "cmd").iterdir()
    verdict = json.loads((run_dir / VERDICT).read_text())
    assert verdict["status"] == "graded" and verdict["passed"], verdict
    events = read_ledger(run_dir / LEDGER).events
    session = next(e for e in events if e.kind == "session")
    assert (session.harness, session.argv[0]) == ("command", "sh")
    assert [e.name for e in events if e.kind == "tool_call"] == ["shell"] * sum(
        1 for e in events if e.kind == "tool_call"
    )


def test_unknown_option_names_the_config_dirs(tmp_path: Path, cache_dir: Path) -> None:
    conf = write_config(tmp_path)
    argv = [*REALCLI, "run", "-cd", str(conf), "harness=shell_agnt"]
    proc = subprocess.run(
        argv,
        env=env_for(tmp_path, cache_dir),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert "no option 'shell_agnt' in config group 'harness'" in proc.stderr
    assert "shell_agent" in proc.stderr  # offered from the user's config dir


def test_a_harness_that_cannot_resume_gets_the_transcript(tmp_path: Path, cache_dir: Path) -> None:
    """``protocol=self_correct`` with an agent realcli cannot resume: round 2 is a fresh
    session whose first message holds the instruction, the run so far and the feedback."""
    from tests.runner.test_protocols import TASK, half_script

    conf = write_config(tmp_path)
    script = half_script(tmp_path / "half.jsonl", stop_after="s2")
    argv = [*REALCLI, "run", "--config-dir", str(conf), "harness=shell_agent"]
    argv += [f"task={TASK}", "model=scripted", f"model.script={script}"]
    argv += ["protocol=self_correct", "experiment_name=cmd"]
    env = env_for(tmp_path, cache_dir)
    proc = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (run_dir,) = (tmp_path / "runs" / "cmd").iterdir()
    verdict = json.loads((run_dir / VERDICT).read_text())
    assert [r["passed"] for r in verdict["rounds"]] == [False, True, True]
    events = read_ledger(run_dir / LEDGER).events
    (feedback,) = [e for e in events if e.kind == "intervention"]
    assert feedback.delivery == "transcript"  # type: ignore[union-attr]
    users = [e.text for e in events if e.kind == "message" and e.role == "user"]  # type: ignore[union-attr]
    assert len(users) == 2
    assert users[1].startswith("[realcli: ") and "tool calls in earlier sessions]" in users[1]
    assert "What you did so far" in users[1] and "feedback after round 1" in users[1]
    assert (run_dir / "native" / "command" / "session-2").is_dir()
