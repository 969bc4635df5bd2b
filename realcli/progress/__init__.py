"""Progress over time within a run: workspace snapshots after tool calls (a shadow git
repository in the run folder), and the task's tests replayed on chosen snapshots to find when
each goal first held, broke and held again (``progress.json``)."""

from realcli.progress.replay import choose_snapshots, grid_indices, replay_progress
from realcli.progress.runs import (
    load_snapshots,
    progress_for_run,
    progress_table,
    run_sandbox_options,
)
from realcli.progress.snapshots import (
    SNAPSHOT_REF,
    SnapshotError,
    Snapshotter,
    restore_snapshot,
)

__all__ = [
    "SNAPSHOT_REF",
    "SnapshotError",
    "Snapshotter",
    "choose_snapshots",
    "grid_indices",
    "load_snapshots",
    "progress_for_run",
    "progress_table",
    "replay_progress",
    "restore_snapshot",
    "run_sandbox_options",
]
