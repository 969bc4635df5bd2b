"""Run folders: their file names, how a run's outcome is read back, atomic JSON writes.

Kept free of the execution stack (gateway, harness, sandbox) so that finding a finished run,
the common case of a rerun, imports nothing heavy.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from realcli.ledger.layout import VERDICT
from realcli.schema.run_spec import RunSpec
from realcli.schema.verdict import Verdict

__all__ = [
    "RunOutcome",
    "RunState",
    "finished_outcome",
    "run_dir_for",
    "write_json_atomic",
]

RunState = Literal["finished", "skipped", "locked"]


@dataclass(frozen=True)
class RunOutcome:
    run_key: str
    task_id: str
    state: RunState
    run_dir: Path
    verdict: Verdict | None = None

    def summary_line(self) -> str:
        v = self.verdict
        if v is None:
            return f"{self.state:8s} {self.run_key} {self.task_id}"
        return (
            f"{self.state:8s} {self.run_key} {self.task_id}: {v.status.value} pass={int(v.passed)}"
            f" f2p_step={v.f2p_step:.2f} p2p_step={v.p2p_step:.2f} wall={v.wall_time_s:.1f}s"
        )


def run_dir_for(spec: RunSpec, key: str) -> Path:
    return Path(spec.paths.runs_dir) / spec.experiment_name / key


def finished_outcome(run_dir: Path, key: str, task_id: str) -> RunOutcome | None:
    """The ``skipped`` outcome of a finished run (its verdict exists), else None."""
    path = run_dir / VERDICT
    if not path.is_file():
        return None
    verdict = Verdict.model_validate_json(path.read_text(encoding="utf-8"))
    return RunOutcome(key, task_id, "skipped", run_dir, verdict)


def write_json_atomic(path: Path, data: object) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
