"""Progress over time (``progress.json`` in a run folder): when each goal first held, and when
it broke again, found by re-running the task's tests on chosen workspace snapshots."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from realcli.schema.base import Frozen

__all__ = ["PROGRESS_SCHEMA_VERSION", "GoalProgress", "ProgressReport", "SnapshotOutcome"]

PROGRESS_SCHEMA_VERSION = 1


class SnapshotOutcome(Frozen):
    """One evaluated snapshot: which goals held there."""

    step: int = Field(ge=0, description="tool calls of the run so far (0: initial workspace)")
    round: int = Field(ge=1, description="the round in which the snapshot was taken")
    commit: str
    passed: tuple[str, ...] = Field(description="goal ids that held at this snapshot")
    f2p_step: float = Field(ge=0, le=1, description="F2P step score of this snapshot")
    p2p_step: float = Field(ge=0, le=1, description="P2P step score of this snapshot")
    seconds: float = Field(ge=0, description="time the test run took")


class GoalProgress(Frozen):
    goal: str = Field(description="a sub-step id, or a P2P test node id")
    kind: Literal["substep", "p2p"]
    reference_order: int | None = Field(
        None, description="sub-steps: 1-based position in task.toml (the reference order)"
    )
    depends_on: tuple[str, ...] = ()
    initial: bool = Field(description="held on the initial workspace (step 0)")
    first_pass_step: int | None = Field(
        None, description="first step at which it held (None: never)"
    )
    broke_at: tuple[int, ...] = Field(
        (), description="steps at which it stopped holding after having held (regressions)"
    )
    restored_at: tuple[int, ...] = Field((), description="steps at which it held again")
    final: bool = Field(description="held on the last snapshot")
    transitions: tuple[tuple[int, bool], ...] = Field(
        (), description="(step, holds) at each change found, in step order"
    )


class ProgressReport(Frozen):
    schema_version: int = PROGRESS_SCHEMA_VERSION
    run_key: str
    method: Literal["bisection", "exhaustive"]
    grid: int = Field(ge=0, description="evenly spaced snapshots always evaluated (bisection)")
    n_snapshots: int = Field(ge=1)
    last_step: int = Field(ge=0)
    evaluations: tuple[SnapshotOutcome, ...] = Field(description="every snapshot tested")
    seconds: float = Field(ge=0)
    goals: tuple[GoalProgress, ...]
    resolution_note: str = Field(
        "",
        description="what bisection may miss: a goal that breaks and is restored between "
        "two evaluated snapshots whose outcomes agree",
    )
