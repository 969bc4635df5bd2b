"""Per-job status files: how a sweep's jobs tell the parent what they are doing.

Each job (in the parent under Hydra's basic launcher, in a worker process under joblib, on
another machine under submitit or Ray) rewrites one small JSON file, atomically (a temporary
file then ``os.replace``), in the sweep's status folder: the run it is running, the outcome of
each run it finished, its printed lines, and its error if it failed. The parent only reads these
files, so it works the same for any launcher whose jobs share the run store's file system
(submitit on a cluster file system; Ray with a shared ``paths.runs_dir``). The folder's path
reaches the jobs inside the pickled Hydra callback, not through the environment.
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from realcli.runner.folders import RunOutcome, write_json_atomic

__all__ = ["JobReporter", "RunResult", "read_job_status"]


@dataclass(frozen=True)
class RunResult:
    """What the parent needs of one run: its state, status and scores."""

    # finished | skipped | healed | locked (another process held its lock) | stored (no job
    # status reached the parent; the verdict was read from the run store) | error (not run)
    state: str
    status: str | None = None  # the verdict's: graded | infra_error | task_error
    passed: bool = False
    f2p_step: float | None = None
    wall_time_s: float | None = None
    judged: float | None = None  # final score of the sweep's judge, when it judged the run
    error: str | None = None
    judge: str | None = None  # the judge behind ``judged`` (``auto`` resolves per task kind)

    @property
    def is_error(self) -> bool:
        return self.state == "error" or self.status not in (None, "graded")

    @property
    def pending(self) -> bool:
        """Locked by another process and not finished when this sweep looked last."""
        return self.state == "locked" and self.status is None

    @property
    def failed(self) -> bool:
        return not self.passed and not self.is_error and not self.pending

    @classmethod
    def of(cls, outcome: RunOutcome, judged: tuple[float, str] | None) -> RunResult:
        v = outcome.verdict
        if v is None:
            return cls(outcome.state)
        score, judge = judged if judged is not None else (None, None)
        return cls(
            outcome.state, v.status.value, v.passed, v.f2p_step, v.wall_time_s, score, v.error,
            judge,
        )  # fmt: skip


class JobReporter:
    """The job side: one status file, rewritten whole at each change."""

    def __init__(self, path: Path, job: int) -> None:
        self.path = path
        self._data: dict[str, Any] = {
            "job": job,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "state": "started",
            "running": None,
            "runs": {},
            "lines": [],
            "error": None,
        }
        self._write()

    def _write(self) -> None:
        self._data["updated_at"] = time.time()
        write_json_atomic(self.path, self._data)

    def say(self, line: str, **_: Any) -> None:
        self._data["lines"].append(line)
        self._write()

    def running(self, run_key: str, task_id: str) -> None:
        self._data["running"] = {"run_key": run_key, "task_id": task_id, "since": time.time()}
        self._write()

    def finished(self, run_key: str, result: RunResult, line: str) -> None:
        self._data["running"] = None
        self._data["runs"][run_key] = asdict(result)
        self._data["lines"].append(line)
        self._write()

    def failed(self, error: str) -> None:
        self._data.update(state="error", running=None, error=error)
        self._write()

    def done(self) -> None:
        if self._data["state"] != "error":
            self._data.update(state="done", running=None)
            self._write()


def read_job_status(path: Path) -> dict[str, Any] | None:
    """A job's status file, or None when it is absent or not (yet) valid JSON."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def result_from_json(raw: dict[str, Any]) -> RunResult:
    fields = RunResult.__dataclass_fields__
    return RunResult(**{k: v for k, v in raw.items() if k in fields})
