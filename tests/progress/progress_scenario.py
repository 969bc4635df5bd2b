"""A run's workspace history without an agent: a task's reference trajectory applied action by
action onto its prepared workspace, with planted actions after it, a snapshot after each.

Step numbering is the runner's: step 0 is the initial workspace (a forced snapshot), action
``i`` (0-based) of the played list is step ``i + 1``; an action that changes no file gets no
snapshot, as in a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from realcli.catalog import TaskBundle
from realcli.progress import Snapshotter
from realcli.runner.workspace import _apply, prepare_workspace, sandbox_options
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.actions import Action, EditAction, WriteAction
from realcli.schema.events import SnapshotEvent


@dataclass
class Played:
    workspace: Path
    git_dir: Path
    snapshots: list[SnapshotEvent] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)
    """label of a planted action -> its step"""

    def upto(self, step: int) -> list[SnapshotEvent]:
        return [s for s in self.snapshots if s.step <= step]


def undo(edit: Action, note: str) -> EditAction:
    """The inverse of a reference edit: puts the old text back (a planted regression)."""
    assert isinstance(edit, EditAction), edit
    return EditAction(action="edit", path=edit.path, old=edit.new, new=edit.old, note=note)


def redo(edit: Action, note: str) -> EditAction:
    assert isinstance(edit, EditAction), edit
    return EditAction(action="edit", path=edit.path, old=edit.old, new=edit.new, note=note)


def padding(k: int) -> WriteAction:
    """A file change that moves no test: a note the agent writes."""
    return WriteAction(action="write", path=f"notes/note-{k}.md", content=f"note {k}\n")


def last_tagged_step(actions: Sequence[Action]) -> dict[str, int]:
    """Sub-step id -> the step of the last action tagged with it."""
    found: dict[str, int] = {}
    for i, action in enumerate(actions):
        if action.substep:
            found[action.substep] = i + 1
    return found


def play(
    task: TaskBundle,
    actions: Sequence[tuple[str | None, Action]],
    root: Path,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
) -> Played:
    """Prepare the workspace under ``root``, snapshot it (step 0), then apply each
    ``(label, action)`` one at a time with a snapshot after it."""
    played = Played(workspace=root / "workspace", git_dir=root / "snapshots.git")
    prepare_workspace(task, played.workspace, make_sandbox)
    snapshotter = Snapshotter(played.workspace, played.git_dir)
    first = snapshotter.snapshot(round=1, step=0, call_id=None, force=True)
    assert first is not None
    played.snapshots.append(first)
    sandbox = make_sandbox(sandbox_options(task, played.workspace))
    for i, (label, action) in enumerate(actions):
        step = i + 1
        _apply(task, played.workspace, sandbox, [action], None)
        event = snapshotter.snapshot(round=1, step=step, call_id=f"call-{step}")
        if event is not None:
            played.snapshots.append(event)
        if label is not None:
            played.labels[label] = step
    return played
