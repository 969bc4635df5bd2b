"""The layout of a run folder, ``<runs_dir>/<experiment>/<run_key>/``: its file names and how
the folders are found. The runner writes this layout; ``show``, ``regrade`` and the warehouse
read it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "EXPECTED",
    "LEDGER",
    "PROGRESS",
    "SNAPSHOTS_GIT",
    "SPEC",
    "TASK_COPY",
    "VERDICT",
    "run_folders",
]

SPEC = "spec.json"
"""run key, experiment, task metadata and the resolved, redacted spec"""
LEDGER = "ledger.jsonl"
"""header line, then one typed event per line"""
VERDICT = "verdict.json"
"""the graded outcome; written last: its presence means the run finished"""
TASK_COPY = "task.toml"
"""the task's task.toml at run time (what regrade scores against)"""
EXPECTED = "expected.json"
"""under tests/: the task's expected test ids per test set"""
PROGRESS = "progress.json"
"""progress over time: when each goal first held and broke (``realcli progress``)"""
SNAPSHOTS_GIT = "snapshots.git"
"""the shadow git repository of workspace snapshots, one commit per file-changing tool call"""


def run_folders(runs_dir: Path) -> Iterator[Path]:
    """``runs_dir/<experiment>/<run>/`` folders, sorted; names starting with ``.`` or ``_``
    (``.locks``, ``.hydra``) are not experiments or runs."""
    for experiment in sorted(runs_dir.iterdir()):
        if not experiment.is_dir() or experiment.name[0] in "._":
            continue
        for run_dir in sorted(experiment.iterdir()):
            if run_dir.is_dir() and run_dir.name[0] not in "._":
                yield run_dir
