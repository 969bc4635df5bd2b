"""A sweep's plan: every run its jobs will do, known before the first job starts.

Built in the sweep's parent process from the multirun config, the way Hydra's basic sweeper
builds its job list (``hydra.sweeper.params`` then the command line's overrides, as a cross
product), then composing each job's config the way the launcher will and validating it into a
:class:`RunSpec`: the job's runs are its suite's tasks, each with its :func:`run_key`. A job
whose config does not validate is planned as one error (its task count is unknown). Under a
sweeper that chooses jobs as it goes (Optuna, Nevergrad...) there is no plan: ``None``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
from hydra.core.global_hydra import GlobalHydra
from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import DictConfig, OmegaConf, open_dict

from realcli.util.errors import RealcliError

__all__ = ["PlannedJob", "PlannedRun", "SweepPlan", "job_overrides", "plan_sweep"]


@dataclass(frozen=True)
class PlannedRun:
    job: int
    run_key: str
    task_id: str
    run_dir: str
    model: str
    harness: str
    mode: str
    protocol: str
    seed: int
    judge: str


@dataclass(frozen=True)
class PlannedJob:
    num: int
    overrides: tuple[str, ...]
    runs: tuple[PlannedRun, ...] = ()
    error: str | None = None  # the config does not validate: the job will fail

    @property
    def label(self) -> str:
        return f"job #{self.num} ({' '.join(self.overrides) or 'no overrides'})"


@dataclass(frozen=True)
class SweepPlan:
    jobs: tuple[PlannedJob, ...]
    run_stores: tuple[str, ...] = field(default=())

    @property
    def runs(self) -> list[PlannedRun]:
        return [r for j in self.jobs for r in j.runs]

    @property
    def total(self) -> int:
        """Runs, plus one for each job that cannot be planned (it counts as one error)."""
        return sum(len(j.runs) if j.error is None else 1 for j in self.jobs)


def job_overrides(config: DictConfig) -> list[list[str]] | None:
    """Each job's overrides, in Hydra's job order, as the basic sweeper builds them from the
    multirun ``config`` (Hydra's global instance initialised); None for another sweeper."""
    sweeper = OmegaConf.select(config, "hydra.sweeper._target_", default="") or ""
    if not str(sweeper).endswith("BasicSweeper"):
        return None
    params = OmegaConf.select(config, "hydra.sweeper.params", default=None) or {}
    args = [f"{k}={v}" for k, v in params.items()]
    args += [str(a) for a in OmegaConf.to_container(config.hydra.overrides.task)]  # type: ignore[union-attr]
    loader = GlobalHydra.instance().config_loader()
    parsed = OverridesParser.create(config_loader=loader).parse_overrides(args)
    batches = BasicSweeper.split_arguments(parsed, None)
    return [list(job) for batch in batches for job in batch]


def _plan_job(
    config: DictConfig, num: int, overrides: Sequence[str], cache: dict[Any, Any]
) -> PlannedJob:
    from realcli.catalog import select_tasks
    from realcli.runner.app import spec_from_cfg
    from realcli.runner.folders import run_dir_for
    from realcli.runner.spec import run_key

    loader = GlobalHydra.instance().config_loader()
    try:
        job_cfg = loader.load_sweep_config(config, list(overrides))
        choices = {str(k): v for k, v in job_cfg.hydra.runtime.choices.items()}
        task_cfg = copy.deepcopy(job_cfg)
        with open_dict(task_cfg):
            del task_cfg["hydra"]
        spec = spec_from_cfg(task_cfg, choices)
        where = (spec.paths.tasks_dir, spec.suite, spec.task)
        if where not in cache:
            cache[where] = select_tasks(Path(spec.paths.tasks_dir), spec.suite, spec.task)
        tasks = cache[where]
    except RealcliError as exc:
        return PlannedJob(num, tuple(overrides), error=str(exc))
    except Exception as exc:  # Hydra/OmegaConf errors: the job fails the same way
        return PlannedJob(num, tuple(overrides), error=f"{type(exc).__name__}: {exc}")
    runs = []
    for task in tasks:
        key = run_key(spec, task)
        runs.append(
            PlannedRun(
                job=num,
                run_key=key,
                task_id=task.id,
                run_dir=str(run_dir_for(spec, key)),
                model=spec.model.name,
                harness=spec.harness.name,
                mode=spec.mode.name,
                protocol=spec.protocol.name,
                seed=spec.seed,
                judge=spec.judge.name,
            )
        )
    return PlannedJob(num, tuple(overrides), tuple(runs))


def plan_sweep(config: DictConfig) -> SweepPlan | None:
    """The plan of the multirun ``config`` (see the module docstring)."""
    jobs_overrides = job_overrides(config)
    if jobs_overrides is None:
        return None
    cache: dict[Any, Any] = {}
    jobs = tuple(_plan_job(config, n, o, cache) for n, o in enumerate(jobs_overrides))
    stores = dict.fromkeys(str(Path(r.run_dir).parent) for j in jobs for r in j.runs)
    return SweepPlan(jobs, tuple(stores))
