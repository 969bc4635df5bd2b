"""The Hydra application behind ``realcli run``: compose, validate once, run every task."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import MissingMandatoryValue

from realcli.runner.conf_paths import (
    USER_CONFIG_ENV,
    search_path_override,
    shipped_conf_dir,
    user_config_dirs,
)
from realcli.runner.folders import RunOutcome, finished_outcome, run_dir_for
from realcli.runner.spec import run_key, validate_spec
from realcli.runner.sweep_progress import job_reporter
from realcli.runner.sweep_status import RunResult
from realcli.schema.run_spec import CONFIG_GROUPS, PathsSpec, RunSpec
from realcli.util.errors import ConfigError, RealcliError

__all__ = [
    "CONF_DIR",
    "USER_CONFIG_ENV",
    "default_paths",
    "hydra_main",
    "run_job",
    "search_path_override",
    "spec_from_cfg",
    "user_config_dirs",
]

CONF_DIR = shipped_conf_dir()
"""The config groups shipped in the package (``realcli.conf``; the repo's ``conf/``)."""


def spec_from_cfg(cfg: DictConfig, choices: dict[str, Any]) -> RunSpec:
    try:
        container = OmegaConf.to_container(cfg, resolve=True, throw_on_missing=True)
    except MissingMandatoryValue as exc:
        key = str(exc.full_key)
        group = key.split(".", 1)[0]
        where = f"conf/{group}/{choices[group]}.yaml" if choices.get(group) else "conf/config.yaml"
        raise ConfigError(
            where, key, "required value is missing (???)", f"set {key}=VALUE"
        ) from exc
    assert isinstance(container, dict)
    raw = {str(k): v for k, v in container.items() if k != "hydra"}
    spec = validate_spec(raw, {g: choices.get(g) for g in CONFIG_GROUPS})
    paths = PathsSpec(**{k: str(Path(v).resolve()) for k, v in spec.paths.model_dump().items()})
    return spec.model_copy(update={"paths": paths})


def default_paths() -> PathsSpec:
    """The ``paths`` group as ``realcli run`` composes it (conf/paths, local/default.yaml of
    the shipped or your own config dirs, REALCLI_* environment variables), for the commands
    that are not Hydra apps."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=search_path_override(user_config_dirs()))
    raw = OmegaConf.to_container(cfg.paths, resolve=True)
    assert isinstance(raw, dict)
    return PathsSpec(**{str(k): str(Path(str(v)).resolve()) for k, v in raw.items()})


def run_job(spec: RunSpec) -> list[RunOutcome]:
    """Run (or skip, when finished) every task the spec's suite selects, in order."""
    from realcli.catalog import select_tasks
    from realcli.gateway import make_backend

    tasks = select_tasks(Path(spec.paths.tasks_dir), spec.suite, spec.task)
    if spec.judge.kind != "auto":  # an unknown judge fails before any run
        from realcli.judge import make_judge

        make_judge(spec.judge, f"conf/judge/{spec.judge.name}.yaml")
    if spec.model.backend != "replay":  # fail before any run on a bad backend config
        make_backend(spec.model, ())
    guidance = spec.protocol.guidance
    if guidance is not None and guidance.user_model is not None and guidance.source == "model":
        try:  # the simulated user's backend, the same way
            make_backend(guidance.user_model, ())
        except ConfigError as exc:
            field = (exc.field or "").removeprefix("model.")
            raise ConfigError(
                f"conf/protocol/{spec.protocol.name}.yaml",
                f"protocol.guidance.user_model.{field}" if field else "protocol.guidance",
                exc.problem,
                exc.fix.replace("model.", "protocol.guidance.user_model."),
            ) from exc
    outcomes = []
    checked = False
    reporter = job_reporter()  # in a watched sweep the parent prints this job's lines
    say: Callable[..., None] = reporter.say if reporter is not None else _print
    for task in tasks:
        key = run_key(spec, task)
        outcome = finished_outcome(run_dir_for(spec, key), key, task.id)
        if outcome is None:  # only now load the execution stack (a rerun never needs it)
            from realcli.runner.execute import execute_run

            if not checked:
                _check_limits(spec)
                checked = True
            if reporter is not None:
                reporter.running(key, task.id)
            outcome = execute_run(spec, task)
        judged = None
        lines = [outcome.summary_line(spec)]
        if outcome.state != "locked" and outcome.verdict is not None:
            judged = _judge(spec, outcome, lines)
        if reporter is not None:
            reporter.finished(key, RunResult.of(outcome, judged), "\n".join(lines))
        else:
            for line in lines:
                say(line)
        outcomes.append(outcome)
    return outcomes


def _print(line: str, **_: Any) -> None:
    print(line, flush=True)


def _judge(spec: RunSpec, outcome: RunOutcome, lines: list[str]) -> tuple[float, str] | None:
    """Judge a finished run right after grading (a rerun of a finished sweep judges the runs
    that lack this judge's judgement, without running the agent again); its final score and
    the judge's name."""
    from realcli.runner.judging import judge_runs

    judged = judge_runs(
        [outcome.run_dir],
        spec.judge,
        Path(spec.paths.tasks_dir),
        say=lambda line, **kw: lines.append(f"  {line}"),
    )
    j = judged[0].judgement if judged else None
    return (j.final_score, j.judge) if j is not None and j.status == "judged" else None


def _check_limits(spec: RunSpec) -> None:
    """With ``sandbox.enforce_limits``: one line now rather than a failure in every run."""
    if not spec.sandbox.enforce_limits:
        return
    from realcli.sandbox.limits import LimitsUnavailable, check_limits

    try:
        check_limits()
    except LimitsUnavailable as exc:
        raise ConfigError(
            f"conf/sandbox/{spec.sandbox.kind}.yaml",
            "sandbox.enforce_limits",
            f"per-run limits cannot be enforced on this host ({exc})",
            "run as root with cgroups and loop devices, or set sandbox.enforce_limits=false "
            "(per-process rlimits and a polling disk watcher only)",
        ) from None


@hydra.main(config_path=str(CONF_DIR), config_name="config", version_base="1.3")
def hydra_main(cfg: DictConfig) -> None:
    """One Hydra job: every task of the suite under one composed spec. Agent and infra
    failures are recorded in each run's verdict; only bad input stops the job (exit 2)."""
    try:
        choices = dict(HydraConfig.get().runtime.choices)
        run_job(spec_from_cfg(cfg, choices))
    except RealcliError as exc:
        print(f"realcli: error: {exc}", file=sys.stderr, flush=True)
        reporter = job_reporter()
        if reporter is None:
            sys.exit(2)
        reporter.failed(str(exc))  # the sweep goes on; it ends with exit 2 (finish_sweep)
