"""Acceptance b (special files): a FIFO and a Unix socket the agent leaves in its workspace
used to crash grading (``shutil.Error`` from the workspace copy: no verdict, and every resume
crashed again). Now the grading copy leaves them out (realcli.util.safe_fs.copy_tree), the
ledger has a ``skipped_special_file`` warning naming them, and the run is graded."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from realcli.ledger import read_ledger
from realcli.schema.events import WarningEvent, WarningType
from realcli.schema.verdict import Verdict
from tests.conftest import run_realcli

pytestmark = pytest.mark.sandbox

TASK = "smoke-bugfix-intervals"
SOCKET = "import socket; socket.socket(socket.AF_UNIX).bind('/app/data/agent.sock')"


def test_fifo_and_socket_in_the_workspace_still_give_a_verdict(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    actions = [
        {"action": "shell", "cmd": f'mkdir -p data && mkfifo pipe && python3 -c "{SOCKET}"'},
        {"action": "message", "text": "left a FIFO and a socket"},
    ]
    script = tmp_path / "special.jsonl"
    script.write_text("".join(json.dumps(a) + "\n" for a in actions))
    args = ["run", "model=scripted", f"model.script={script}", f"task={TASK}"]
    proc = run_realcli(args, realcli_env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    [run_dir] = [p.parent for p in (tmp_path / "runs").glob("*/*/ledger.jsonl")]
    verdict = Verdict.model_validate_json((run_dir / "verdict.json").read_text())
    assert verdict.status.value == "graded"
    assert verdict.p2p_step == 1.0  # the tests ran over the copy without the specials
    workspace = run_dir / "workspace"
    assert stat.S_ISFIFO((workspace / "pipe").lstat().st_mode)  # the workspace is untouched
    assert stat.S_ISSOCK((workspace / "data" / "agent.sock").lstat().st_mode)
    ledger = read_ledger(run_dir / "ledger.jsonl")
    assert ledger.complete
    [warning] = [e for e in ledger.events if isinstance(e, WarningEvent)]
    assert warning.warning_type is WarningType.skipped_special_file
    assert warning.where == "grading round 1 (workspace copy)"
    assert warning.paths == ("data/agent.sock (socket)", "pipe (fifo)")
    # a second run of the same spec is skipped as finished, not crashed
    again = run_realcli(args, realcli_env, tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]
