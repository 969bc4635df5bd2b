"""``realcli run``: check config-group overrides up front, then hand argv to the Hydra app."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from realcli.runner.app import CONF_DIR, hydra_main, search_path_override, user_config_dirs
from realcli.schema.run_spec import CONFIG_GROUPS, RunSpec
from realcli.util.errors import ConfigError, RealcliError
from realcli.util.validation import did_you_mean

__all__ = ["check_group_overrides", "config_dirs", "run_command"]

_GROUPS = (*CONFIG_GROUPS, "experiment", "local")
# Live progress and the summary table of a sweep (a Hydra callback; set here, not in YAML).
_PROGRESS_CALLBACK = (
    "++hydra.callbacks.realcli_progress._target_=realcli.runner.sweep_progress.SweepProgress"
)


# hydra/launcher=ray: Ray sends no usage statistics anywhere (docs/cluster.md).
_LAUNCHER_ENV = {"RAY_USAGE_STATS_ENABLED": "0"}
# hydra/launcher=ray starts a Ray instance for this machine alone: its services listen on
# loopback, not on the address of the machine's first interface (Ray's default).
_RAY_LOCAL = "++hydra.launcher.ray.init._node_ip_address=127.0.0.1"
# ... and without its dashboard: no web port, and a start light enough for a small machine
# (Ray gives a new node 30 s to come up; two at once on 2 busy cores missed it with one)
_RAY_NO_DASHBOARD = "++hydra.launcher.ray.init.include_dashboard=false"


def config_dirs(argv: Sequence[str]) -> list[Path]:
    """Hydra's ``--config-dir``/``-cd`` directories on the command line (searched before
    ``conf/``: your own harnesses, models, experiments...), then ``conf/``."""
    dirs: list[Path] = []
    it = iter(argv)
    for arg in it:
        if arg in ("--config-dir", "-cd"):
            dirs.append(Path(next(it, ".")))
        elif arg.startswith("--config-dir="):
            dirs.append(Path(arg.split("=", 1)[1]))
    return [*dirs, *user_config_dirs(), CONF_DIR]


def _options(group: str, dirs: Sequence[Path]) -> list[str]:
    return sorted({p.stem for d in dirs for p in (d / group).glob("*.yaml") if p.is_file()})


def _check_key(arg: str, key: str) -> None:
    """``key`` (dotted, no prefix) must name a RunSpec field, as ``seed`` or ``model.backend``."""
    parts = key.split(".")
    model: type[BaseModel] = RunSpec
    for depth, part in enumerate(parts[:2]):
        if part not in model.model_fields:
            allowed = sorted(model.model_fields)
            hint = did_you_mean(part, allowed)
            where = ".".join(parts[:depth]) or "the top level"
            raise ConfigError(
                "command line",
                arg,
                f"no key {part!r} in {where}",
                f"{hint}allowed: {', '.join(allowed)}",
            )
        annotation = model.model_fields[part].annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return
        model = annotation


def check_group_overrides(argv: Sequence[str]) -> None:
    """Raise :class:`ConfigError` for ``group=option`` naming an option with no YAML file, and
    for ``key=value`` naming a key the RunSpec does not have (before Hydra's terser errors)."""
    dirs = config_dirs(argv)
    for i, arg in enumerate(argv):
        if arg.startswith("-") or "=" not in arg or (i and argv[i - 1] in ("--config-dir", "-cd")):
            continue
        key, value = arg.split("=", 1)
        group_key = key.split("@", 1)[0]  # GROUP@PACKAGE: e.g. model@judge.agent.model
        if key[0] not in "+~" and not key.startswith("hydra") and group_key not in _GROUPS:
            _check_key(arg, key)
            continue
        group = group_key.lstrip("+~")
        if group not in _GROUPS or "(" in value or "*" in value:
            continue
        for option in filter(None, (v.strip() for v in value.split(","))):
            for d in dirs:
                path = d / group / f"{option}.yaml"
                if path.exists() and not path.is_file():
                    raise ConfigError(
                        str(path), None, "is not a file", "make it a YAML file or remove it"
                    )
            if option != "null" and not any((d / group / f"{option}.yaml").is_file() for d in dirs):
                known = ", ".join(_options(group, dirs)) or "(none)"
                raise ConfigError(
                    "command line",
                    arg,
                    f"no option {option!r} in config group {group!r}",
                    f"use one of {known}, or add conf/{group}/{option}.yaml",
                )


def run_command(argv: Sequence[str]) -> int:
    from realcli.runner.precheck import precheck
    from realcli.runner.sweep_check import SweepRefused

    try:
        check_group_overrides(argv)
        precheck(argv, config_dirs(argv))
    except SweepRefused as exc:  # one line per refused job; nothing has started
        for line in exc.lines:
            print(f"realcli: error: {line}", file=sys.stderr)
        print(f"realcli: error: {exc.summary} (fix: {exc.fix})", file=sys.stderr)
        return 2
    except RealcliError as exc:
        print(f"realcli: error: {exc}", file=sys.stderr)
        return 2
    from realcli.runner.sweep_progress import finish_sweep

    sweep = any(a in ("--multirun", "-m") for a in argv)
    for name, value in _LAUNCHER_ENV.items():  # inherited by Ray's and submitit's processes
        os.environ.setdefault(name, value)
    extra = [_PROGRESS_CALLBACK] if sweep else []
    if "hydra/launcher=ray" in argv and not any("_node_ip_address" in a for a in argv):
        extra.append(_RAY_LOCAL)
    if "hydra/launcher=ray" in argv and not any("include_dashboard" in a for a in argv):
        extra.append(_RAY_NO_DASHBOARD)
    search = []  # $REALCLI_CONFIG_DIR (first: overrides after `--cfg job` would not parse)
    if not any(a.lstrip("+").startswith("hydra.searchpath=") for a in argv):
        search = search_path_override(user_config_dirs())
    sys.argv = ["realcli run", *search, *argv, *extra]
    try:
        hydra_main()
    finally:  # the summary, also when a job raised and Hydra stopped the sweep
        code = finish_sweep()
    return code or 0
