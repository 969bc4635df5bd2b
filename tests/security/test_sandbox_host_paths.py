"""What the sandbox shows of the host: no path of the repo, the tasks dir or the runs dir in
``/proc/self/mountinfo``, ``cmdline`` or ``environ`` (of any process inside), neither in the
agent's sandbox nor in the grading sandbox (where the code under test runs). Before, the
venv's path (inside the repo) and every bind's source (the workspace in the run folder, the
tests in the tasks dir) were there for an agent to aim its links at.

What stops it (realcli.sandbox.neutral, realcli.runner.workspace.stage_workspace): the venv
is mounted from a hard-link mirror at /run/realcli/venv, small read-only binds are copied to a
temp folder first, and the workspace lives in a temp folder while the run works on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, run_realcli
from tests.security.conftest import TASK, MarkedTasks

pytestmark = pytest.mark.sandbox

PROC = (
    "for p in /proc/[0-9]*; do echo == $p; cat $p/mountinfo; tr '\\0' ' ' < $p/cmdline; echo;"
    " tr '\\0' '\\n' < $p/environ; done 2>/dev/null"
)
DUMP_AT_IMPORT = """
import subprocess as _subprocess
raise RuntimeError(_subprocess.run(["sh", "-c", {proc!r}], capture_output=True, text=True).stdout)
"""  # a collection error: pytest puts the message (the dump) in the saved log


def host_paths(tmp: Path, marked: MarkedTasks) -> list[str]:
    return [str(REPO), str(REPO / "tasks"), str(marked.tasks_dir), str(tmp / "runs"), str(tmp)]


def test_no_host_path_inside_the_agent_or_grading_sandbox(
    tmp_path: Path, realcli_env: dict[str, str], marked_tasks: MarkedTasks
) -> None:
    actions = [
        {"action": "shell", "cmd": f"({PROC}) > /tmp/proc.txt; cp /tmp/proc.txt seen.txt"},
        {
            "action": "shell",
            "cmd": "cat >> intervals/__init__.py <<'EOF'\n"
            + DUMP_AT_IMPORT.format(proc=PROC)
            + "\nEOF",
        },
        {"action": "message", "text": "looked around"},
    ]
    script = tmp_path / "look.jsonl"
    script.write_text("".join(json.dumps(a) + "\n" for a in actions))
    env = {**realcli_env, "REALCLI_TASKS_DIR": str(marked_tasks.tasks_dir)}
    args = ["run", "model=scripted", f"model.script={script}", f"task={TASK}"]
    proc = run_realcli(args, env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    [run_dir] = [p.parent for p in (tmp_path / "runs").glob("*/*/verdict.json")]
    seen = (run_dir / "workspace" / "seen.txt").read_text()
    log = (run_dir / "tests" / "round-1.f2p.log").read_text()
    assert "/newroot / ro" in seen and " /app rw" in seen  # the probe read mountinfo
    assert "/run/realcli/venv" in seen and "/newroot / ro" in log and " /app rw" in log
    for path in host_paths(tmp_path, marked_tasks):
        assert path not in seen, f"the agent's sandbox shows {path}"
        assert path not in log.split("\n", 2)[2], f"the grading sandbox shows {path}"
