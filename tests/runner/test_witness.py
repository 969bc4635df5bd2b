"""Witness captures: in a run with a display, a CLI call that writes an image makes the host
capture the display at once (a ``screenshot`` event with source ``witness`` and that call's
id), so a genuine ``import -window root`` capture taken through the shell is evidence the
judge's provenance check accepts; calls that write no image, or whose image the GUI service
itself saved, get none."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from realcli.judge import load_run
from realcli.judge.checkers import check_clause
from realcli.judge.provenance import WITNESS, classify
from realcli.schema.events import ScreenshotEvent
from tests.conftest import REPO, TASKS, env_for, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.gui]

TASK = "weave-dav-bar-digitize"  # its tests are fast on an unsolved workspace
SHOT = "evidence/overlay_worst.png"  # a screenshot deliverable: its provenance clause


@pytest.mark.skipif(shutil.which("import") is None, reason="ImageMagick's import is missing")
def test_a_shell_capture_gets_a_witness_and_is_genuine(tmp_path: Path, cache_dir: Path) -> None:
    script = [
        {"action": "shell", "cmd": f"mkdir -p evidence && import -window root {SHOT}"},
        {"action": "shell", "cmd": "echo measured > notes.txt"},  # no image: no witness
        {"action": "gui", "tool": "screenshot", "args": {"save_as": "evidence/north.png"}},
        {"action": "message", "text": "done"},
    ]
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in script))
    proc = run_realcli(
        [
            "run",
            f"task={TASK}",
            "model=scripted",
            f"model.script={path}",
            "harness=builtin",
            "mode=hybrid",
            "judge=tests",
        ],
        env_for(tmp_path, cache_dir),
        REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    (run_dir,) = [p for p in (tmp_path / "runs" / "default").iterdir() if p.is_dir()]
    run = load_run(run_dir, TASKS)
    first = run.steps[0]
    assert first.call.args["cmd"].endswith(f"import -window root {SHOT}")
    witnesses = [e for e in run.events if isinstance(e, ScreenshotEvent) and e.source == WITNESS]
    assert [w.call_id for w in witnesses] == [first.call.call_id]  # one, for the import call
    assert (run_dir / witnesses[0].path).is_file()
    assert witnesses[0].seq > first.result.seq if first.result else False
    prov = classify(run, SHOT)
    assert (prov.status, prov.shot) == ("witnessed", witnesses[0])
    assert prov.writer is not None and prov.writer.call.call_id == first.call.call_id
    d = next(i for i, d in enumerate(run.task.deliverables) if d.path == SHOT)
    c = next(j for j, c in enumerate(run.task.deliverables[d].clauses) if c.checker == "provenance")
    result = check_clause(run, d, c)
    assert result.status == "satisfied" and "witnessed" in result.reason
    assert any(e.kind == "screenshot" and e.seq == witnesses[0].seq for e in result.evidence)
