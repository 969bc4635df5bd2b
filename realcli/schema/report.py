"""ReportSpec: what ``realcli report`` draws and over which runs (``conf/report/*.yaml``).

The runner composes the ``report`` config group and hands this record (as JSON) to
``python -m analysis report --spec FILE``; figures receive it as ``data(con, spec)``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from realcli.schema.base import Frozen

__all__ = ["BootstrapSpec", "ReorderingSpec", "ReportFilters", "ReportSpec"]


class BootstrapSpec(Frozen):
    """The paired task bootstrap behind every confidence interval (SPEC §3A)."""

    resamples: int = Field(2000, ge=100, description="B: bootstrap resamples of the tasks")
    seed: int = Field(0, description="seed of the resampling; same seed, same intervals")
    level: float = Field(0.95, gt=0, lt=1, description="confidence level of the intervals")


class ReorderingSpec(Frozen):
    """One leaderboard reordering: rank the systems under condition ``a`` and under ``b``."""

    name: str = Field(pattern=r"^[a-z0-9_]+$", description="row label and file stem suffix")
    axis: Literal["judge", "harness", "metric", "round", "protocol", "mode", "model"] = Field(
        description="what differs between the two conditions"
    )
    a: str = Field(description="condition A: a judge, harness, metric, round number, ...")
    b: str = Field(description="condition B")
    metric: str = Field(
        "pass",
        description="score ranked when the axis is not 'metric': pass, f2p_step, p2p_step, "
        "judged_pass, final_score",
    )
    kind: Literal["longcli", "weave", "any"] = Field(
        "any", description="which task kind's runs the rankings use"
    )


class ReportFilters(Frozen):
    """Which runs the report counts; empty tuples mean every value."""

    experiments: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()
    kinds: tuple[Literal["longcli", "weave"], ...] = ()
    models: tuple[str, ...] = ()
    harnesses: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()
    protocols: tuple[str, ...] = ()
    judges: tuple[str, ...] = Field(
        (), description="judges whose judgements the weave figures read; empty: every judge"
    )


class ReportSpec(Frozen):
    filters: ReportFilters = ReportFilters()
    figures: tuple[str, ...] = Field((), description="only these figures; empty: all")
    bootstrap: BootstrapSpec = BootstrapSpec()
    reorderings: tuple[ReorderingSpec, ...] = ()
    published: bool = Field(True, description="show the papers' reference rows beside ours")
    primary_judge: str = Field(
        "trajectory",
        description="the judge (judgements/<judge>.json) whose PassRate@tau the weave "
        "leaderboards use; judge=auto writes trajectory.json for weave tasks",
    )
    run_pages: bool = Field(True, description="write report/runs/<run_key>.html per run")
    table_rows: int = Field(
        200,
        ge=1,
        description="rows of a figure's table shown in index.html (and linked to row pages);"
        " the figure's CSV always has every row",
    )
    row_page_runs: int = Field(
        500,
        ge=1,
        description="runs listed on a table row's page (rows/<figure>-<n>.html); a row with"
        " more says how many and that the figure's CSV lists every run key",
    )

    @model_validator(mode="after")
    def _unique_reorderings(self) -> ReportSpec:
        names = [r.name for r in self.reorderings]
        if len(set(names)) != len(names):
            raise ValueError(f"reorderings {names} repeat a name")
        return self
