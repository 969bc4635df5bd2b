"""Execute one run: folder, ledger, workspace, gateway + sandbox + harness, grading, verdict.

A run folder ``runs/<experiment>/<run_key>/`` is finished exactly when ``verdict.json`` exists
and is usable (written atomically, last but for the ``run_end`` event). A finished run is
skipped (healed first when its ledger lacks ``run_end``: see ``realcli.runner.folders``); a
folder without a usable verdict is an interrupted run and is removed and redone from scratch.

While the run works, its workspace lives in a neutral temp folder (``workspace`` in the run
folder links to it: :func:`realcli.runner.workspace.stage_workspace`) on a filesystem of its
own, ``disk_mb`` in size (:mod:`realcli.sandbox.disk`); before the verdict it is a plain
folder in the run folder again.

This module is the run's lifecycle (its folder, spec.json, header, ledger); the rest has a room
of its own: :mod:`~realcli.runner.rounds` (setup, rounds, protocols, verdict),
:mod:`~realcli.runner.session` (agent sessions), :mod:`~realcli.runner.live` (snapshots,
witness captures, stall guidance), :mod:`~realcli.runner.fidelity`,
:mod:`~realcli.runner.run_grading` and :mod:`~realcli.runner.run_state` (what they share).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

from realcli import __version__
from realcli.catalog import TaskBundle
from realcli.ledger import LedgerWriter
from realcli.ledger.layout import LEDGER, SPEC, TASK_COPY
from realcli.runner.folders import RunOutcome, finished_outcome, run_dir_for, write_json_atomic
from realcli.runner.locks import RunLocked, run_lock
from realcli.runner.rounds import RunRounds
from realcli.runner.run_state import warn
from realcli.runner.spec import run_key
from realcli.sandbox.disk import unmount_stale
from realcli.schema.events import HeaderEvent
from realcli.schema.run_spec import RunSpec
from realcli.schema.verdict import Verdict

__all__ = ["RunOutcome", "execute_run"]


def _git_sha() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


def execute_run(spec: RunSpec, task: TaskBundle) -> RunOutcome:
    """Run ``task`` under ``spec`` unless already finished; never raises for agent failures."""
    key = run_key(spec, task)
    run_dir = run_dir_for(spec, key)
    try:
        with run_lock(Path(spec.paths.runs_dir) / ".locks", key):
            finished = finished_outcome(run_dir, key, task.id, heal=True, say=warn)
            if finished is not None:
                return finished
            if run_dir.is_symlink():
                run_dir.unlink()  # never follow it: a run folder is made here, not linked
            elif run_dir.exists():
                _drop_stale_workspace(run_dir / "workspace")
                shutil.rmtree(run_dir)  # interrupted earlier: redo from scratch
            verdict = _Run(spec, task, key, run_dir).execute()
            return RunOutcome(key, task.id, "finished", run_dir, verdict)
    except RunLocked:
        return RunOutcome(key, task.id, "locked", run_dir)


def _drop_stale_workspace(workspace: Path) -> None:
    """A killed run's workspace: its capped filesystem unmounted, its staged folder removed.
    The link in the run folder is realcli's own (the agent never sees the run folder)."""
    if workspace.is_symlink():
        staged = Path(os.readlink(workspace))
        if staged.name == "ws" and staged.parent.name.startswith("realcli-ws-"):
            unmount_stale(staged)
            shutil.rmtree(staged.parent, ignore_errors=True)
        return
    unmount_stale(workspace)


class _Run(RunRounds):
    """One run, from its folder to its verdict."""

    def execute(self) -> Verdict:
        self.run_dir.mkdir(parents=True)
        spec_json = self.redactor.obj(self.spec.model_dump(mode="json"))
        task_meta = {
            "id": self.task.id,
            "version": self.task.spec.version,
            "kind": self.task.spec.kind.value,
            "category": self.task.spec.category.value,
            "digest": self.task.digest,
        }
        write_json_atomic(
            self.run_dir / SPEC,
            {
                "run_key": self.key,
                "experiment": self.spec.experiment_name,
                "task": task_meta,
                "spec": spec_json,
            },
        )
        shutil.copyfile(self.task.root / "task.toml", self.run_dir / TASK_COPY)
        header = HeaderEvent(
            seq=0,
            realcli_version=__version__,
            git_sha=_git_sha(),
            run_key=self.key,
            experiment=self.spec.experiment_name,
            task_id=self.task.id,
            task_digest=self.task.digest,
            spec=spec_json,
            host={"node": platform.node(), "python": platform.python_version()},
        )
        with LedgerWriter.create(self.run_dir / LEDGER, header, self.redactor) as ledger:
            self.ledger = ledger
            return self._rounds()
