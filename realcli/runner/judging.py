"""``realcli judge [RUN_KEY...] judge=NAME [overrides]``: judge finished runs without rerunning
them, and the judge step of ``realcli run ... judge=NAME``.

The judge config is composed by Hydra from the same ``conf/`` tree as ``realcli run`` (the
``judge`` and ``paths`` groups, any ``judge.*``/``paths.*`` override, ``--config-dir``), then
validated into a :class:`JudgeSpec`. Runs that already carry a judgement with the same
judge_key over the same inputs are skipped (``--force`` redoes them). One line per run; one
run that cannot be judged never stops the others.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.judge import judge_folder, make_judge
from realcli.judge.store import JudgeOutcome
from realcli.ledger.layout import LEDGER, VERDICT, run_folders
from realcli.schema.run_spec import JudgeSpec, PathsSpec
from realcli.util.errors import ConfigError, RealcliError
from realcli.util.validation import describe_validation_error

__all__ = ["compose_judge", "judge_command", "judge_runs"]

_USAGE = (
    "usage: realcli judge [RUN_KEY ...] [judge=NAME] [judge.KEY=VALUE ...] [paths.KEY=VALUE ...]"
    " [GROUP@judge.agent.KEY=NAME ...] [--force] [--config-dir DIR]"
)


def _split(argv: Sequence[str]) -> tuple[list[str], list[str], list[str], bool]:
    """(run keys, overrides, config dirs, force)."""
    keys: list[str] = []
    overrides: list[str] = []
    dirs: list[str] = []
    force = False
    it = iter(argv)
    for arg in it:
        if arg == "--force":
            force = True
        elif arg in ("--config-dir", "-cd"):
            value = next(it, None)
            if value is None:
                raise ConfigError("command line", arg, "needs a directory", "--config-dir DIR")
            dirs.append(value)
        elif arg.startswith("--config-dir="):
            dirs.append(arg.split("=", 1)[1])
        elif arg.startswith("-"):
            raise ConfigError("command line", arg, "unknown option", _USAGE)
        elif "=" in arg:
            key = arg.split("=", 1)[0].lstrip("+~")
            package = key.split("@", 1)[1] if "@" in key else ""
            if (
                key not in ("judge", "paths")
                and not key.startswith(("judge.", "paths."))
                and not package.startswith("judge.")  # the agent judge's model@judge.agent.model
            ):
                raise ConfigError(
                    "command line",
                    arg,
                    "realcli judge takes judge and paths overrides only (a judge never reruns"
                    " the agent, so model, harness, mode... are the runs' own)",
                    "pass judge=NAME, judge.KEY=VALUE, paths.KEY=VALUE or (the agent judge's "
                    "model and harness) model@judge.agent.model=NAME",
                )
            overrides.append(arg)
        else:
            keys.append(arg)
    return keys, overrides, dirs, force


def compose_judge(
    overrides: Sequence[str], config_dirs: Sequence[str] = ()
) -> tuple[JudgeSpec, PathsSpec]:
    """The judge and paths groups composed as ``realcli run`` would, validated."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf import OmegaConf

    from realcli.runner.app import CONF_DIR, user_config_dirs
    from realcli.runner.cli_run import check_group_overrides

    argv = [*overrides]
    for d in config_dirs:
        argv = ["--config-dir", d, *argv]
    check_group_overrides(argv)
    dirs = [*(Path(d).resolve() for d in config_dirs), *user_config_dirs()]
    search = [f"file://{d}" for d in dirs]
    extra = [f"hydra.searchpath=[{','.join(search)}]"] if search else []
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            cfg = compose(config_name="config", overrides=[*overrides, *extra])
            choice = str(cfg.judge.get("name", "?")) if "judge" in cfg else "?"
            raw_judge = OmegaConf.to_container(cfg.judge, resolve=True, throw_on_missing=True)
            raw_paths = OmegaConf.to_container(cfg.paths, resolve=True)
    except HydraException as exc:
        raise ConfigError(
            "command line", None, str(exc).splitlines()[0], "check the overrides"
        ) from None
    finally:
        GlobalHydra.instance().clear()
    try:
        spec = JudgeSpec.model_validate(raw_judge)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, JudgeSpec, "judge.")
        raise ConfigError(f"conf/judge/{choice}.yaml", field, problem, fix) from None
    assert isinstance(raw_paths, dict)
    paths = PathsSpec(**{str(k): str(Path(str(v)).resolve()) for k, v in raw_paths.items()})
    if spec.kind != "auto":
        make_judge(spec, f"conf/judge/{choice}.yaml")  # an unknown kind fails here, once
    return spec, paths


def _folders(runs_dir: Path, keys: Sequence[str]) -> list[Path]:
    from realcli.runner.commands import find_run

    if keys:
        return [find_run(runs_dir, k) for k in keys]
    if not runs_dir.is_dir():
        raise RealcliError(
            str(runs_dir), "paths.runs_dir", "no such runs directory", "pass paths.runs_dir=DIR"
        )
    return [d for d in run_folders(runs_dir) if (d / LEDGER).is_file()]


def judge_runs(
    run_dirs: Sequence[Path],
    spec: JudgeSpec,
    tasks_dir: Path | None,
    *,
    force: bool = False,
    say: Any = print,
) -> list[JudgeOutcome]:
    """Judge each finished run folder; one printed line per run."""
    outcomes = []
    for run_dir in run_dirs:
        if not (run_dir / VERDICT).is_file():
            say(f"skip     {run_dir.name}: not finished (no verdict.json)", flush=True)
            continue
        outcome = judge_folder(run_dir, spec, tasks_dir, force=force)
        say(outcome.line(), flush=True)
        outcomes.append(outcome)
    return outcomes


def judge_command(argv: Sequence[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(_USAGE)
        print(__doc__)
        return 0
    try:
        keys, overrides, dirs, force = _split(argv)
        spec, paths = compose_judge(overrides, dirs)
        run_dirs = _folders(Path(paths.runs_dir), keys)
    except RealcliError as exc:
        print(f"realcli: error: {exc}", file=sys.stderr)
        for line in getattr(exc, "details", ()):  # the runs an ambiguous prefix matches
            print(line, file=sys.stderr)
        return 2
    outcomes = judge_runs(run_dirs, spec, Path(paths.tasks_dir), force=force)
    counts = {s: sum(o.status == s for o in outcomes) for s in ("judged", "skipped", "error")}
    print(
        f"{len(run_dirs)} runs: {counts['judged']} judged, {counts['skipped']} skipped"
        f" (same judge_key), {counts['error']} could not be judged"
    )
    return 1 if counts["error"] else 0
