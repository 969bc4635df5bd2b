"""Links planted for the agent judge (``judge=agent``).

A run's agent controls its workspace: it can leave a deliverable that is a symlink to the
run's hidden test logs, its verdict or a host file, hoping the judge's evidence copy follows
it (the judge would then see, and quote, what it must never see). A judge model, in turn,
controls its own workspace: its ``judgement.json`` could be a link to a file realcli would
then read as the judgement. Neither link is ever followed.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from realcli.judge.agent import JUDGE_WORKDIR, stage_evidence
from realcli.judge.context import load_run
from realcli.judge.store import judge_folder
from tests.conftest import TASKS
from tests.judge.test_agent_judge import _spec, _valid, finished_run  # noqa: F401 (a fixture)


@pytest.fixture
def run_dir(finished_run: Path, tmp_path: Path) -> Path:  # noqa: F811
    copy = tmp_path / "run"
    shutil.copytree(finished_run, copy, symlinks=True)
    shutil.rmtree(copy / "judgements", ignore_errors=True)
    return copy


def test_a_deliverable_linked_to_hidden_files_is_not_copied(run_dir: Path, tmp_path: Path) -> None:
    secret = (run_dir / "tests" / "round-1.f2p.log").read_bytes()
    result = run_dir / "workspace" / "out" / "result.json"
    result.unlink()
    os.symlink("../../tests/round-1.f2p.log", result)  # relative: inside the run folder
    solver = run_dir / "workspace" / "lightsout"
    shutil.rmtree(solver)
    os.symlink(run_dir / "tests", solver)  # a folder on the way is a link
    staged = stage_evidence(load_run(run_dir), tmp_path / "evidence", 64 * 2**20)
    copied = {f["path"] for f in staged.files}
    assert "workspace/out/result.json" not in copied
    assert not any(p.startswith("workspace/lightsout") for p in copied)
    omitted = {o["path"]: o["reason"] for o in staged.omitted}
    assert "not a regular file" in omitted["out/result.json"]
    for path in (tmp_path / "evidence").rglob("*"):
        assert not path.is_symlink(), path
        if path.is_file() and path.name != "ledger.jsonl":
            assert secret not in path.read_bytes(), path


def test_a_judgement_json_link_is_not_read(run_dir: Path, tmp_path: Path) -> None:
    """The judge links judgement.json to a valid judgement elsewhere: realcli refuses to
    read through it, so every attempt fails and the run is judge_failed."""
    valid = json.dumps(_valid(run_dir))
    cmd = (
        f"cat > /tmp/real.json <<'EOF'\n{valid}\nEOF\n"
        f"ln -s /tmp/real.json {JUDGE_WORKDIR}/judgement.json; ls -l {JUDGE_WORKDIR}"
    )
    script = tmp_path / "judge.jsonl"
    script.write_text(json.dumps({"action": "shell", "cmd": cmd}) + "\n")
    outcome = judge_folder(run_dir, _spec(tmp_path, script, 0), TASKS, force=True)
    j = outcome.judgement
    assert j is not None and j.status == "judge_failed", j
    assert j.error is not None and "judgement.json: unreadable" in j.error, j.error
