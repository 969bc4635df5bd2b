"""The non-Hydra ``realcli`` commands: ingest, agents list/install, images; and, from their own
modules, tasks list/check/import (``task_commands``), show (``run_show``), regrade and progress
(``regrade``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from pydantic import ValidationError

from realcli.catalog import load_task
from realcli.runner.regrade import progress, regrade
from realcli.runner.run_show import AmbiguousRunKey, find_run, show
from realcli.runner.task_commands import tasks_check, tasks_import, tasks_list
from realcli.runner.task_new import tasks_new, tasks_validate
from realcli.schema.run_spec import DockerSpec
from realcli.util.errors import ConfigError, RealcliError
from realcli.util.validation import describe_validation_error

__all__ = [
    "AmbiguousRunKey",
    "agents_install",
    "agents_list",
    "find_run",
    "images",
    "ingest",
    "progress",
    "regrade",
    "show",
    "tasks_check",
    "tasks_import",
    "tasks_list",
    "tasks_new",
    "tasks_validate",
]


def ingest(runs_dir: Path, warehouse: Path, wait_s: float = 60.0) -> int:
    """Load the runs folder; a second ingest of the same warehouse waits for the first (up to
    ``wait_s`` seconds, then one error line)."""
    from realcli.warehouse import connect, writer_lock
    from realcli.warehouse import ingest as ingest_runs

    if not 0 <= wait_s <= 86400:  # also rejects nan
        raise RealcliError(
            "command line", "--wait", f"{wait_s:g} is not a number of seconds", "use 0 to 86400"
        )
    say = partial(print, file=sys.stderr, flush=True)
    with writer_lock(warehouse, wait_s, on_wait=lambda line: say(f"realcli: {line}")):
        con = connect(warehouse)
        try:
            stats = ingest_runs(con, runs_dir)
        finally:
            con.close()
    for problem in stats.problems:
        print(f"warning: {problem}", file=sys.stderr)
    print(
        f"ingested {runs_dir} into {warehouse}: {stats.loaded} loaded, {stats.unchanged} unchanged,"
        f" {stats.incomplete} incomplete, {stats.removed} removed, {stats.skipped} skipped,"
        f" {len(stats.problems)} problems"
    )
    return 0


def agents_list(agents_dir: Path) -> int:
    """One line per harness (and Node): name, package kind, pinned version, installed or not,
    the modes it supports, and its executable or the command that installs it."""
    from realcli.harness.base import HARNESSES
    from realcli.harness.install import NODE, InstallError, Recipe, find_install
    from realcli.runner.capabilities import mode_list

    rows: list[tuple[str, Recipe | None, str]] = [("node", NODE, "-")]
    rows += [(name, cls.RECIPE, ",".join(mode_list(cls.MODES))) for name, cls in HARNESSES]
    for name, recipe, modes in rows:
        if recipe is None:
            kind, version, state, where = "-", "-", "n/a", "nothing to install"
        else:
            kind, version = recipe.kind, recipe.version
            try:
                where, state = str(find_install(recipe.name, agents_dir).entry), "installed"
            except InstallError:
                where, state = f"`realcli agents install {recipe.name}`", "missing"
        print(f"{name:<12} {kind:<4} {version:<10} {state:<9} {modes:<24} {where}")
    return 0


def agents_install(agents_dir: Path, names: Sequence[str], *, force: bool = False) -> int:
    """Install the named agents (``all``: every one) at their pinned versions."""
    import time

    from realcli.harness.install import install, recipes

    known = recipes()
    wanted = list(known) if "all" in names else list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise RealcliError(
            "command line", "AGENT", f"no agent {unknown[0]!r}", f"use one of {sorted(known)}"
        )
    for name in wanted:
        started = time.monotonic()
        done = install(name, agents_dir, force=force)
        seconds = time.monotonic() - started
        print(f"{name} {done.recipe.version}: {done.entry} ({seconds:.1f}s)", flush=True)
    return 0


def _docker_spec(overrides: Sequence[str]) -> DockerSpec:
    """``sandbox.docker`` as ``realcli run sandbox=docker`` composes it, with ``overrides``."""
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf import OmegaConf

    from realcli.runner.app import CONF_DIR, search_path_override, user_config_dirs

    bad = [o for o in overrides if not o.lstrip("+~").startswith("sandbox.docker.")]
    if bad:
        raise ConfigError("command line", bad[0], "not a docker option", "use sandbox.docker.KEY=V")
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            search = search_path_override(user_config_dirs())  # their local/default.yaml
            cfg = compose(config_name="config", overrides=["sandbox=docker", *overrides, *search])
    except HydraException as exc:
        raise ConfigError(
            "command line", None, str(exc).splitlines()[0], "fix the override"
        ) from exc
    raw = OmegaConf.to_container(cfg.sandbox.docker, resolve=True)
    try:
        return DockerSpec.model_validate(raw)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, DockerSpec)
        raise ConfigError("conf/sandbox/docker.yaml", f"docker.{field}", problem, fix) from exc


def images(action: str, tasks_dir: Path, args: Sequence[str]) -> int:
    """``realcli images build|list|prune``: ``args`` are task ids (build only; prune weighs
    every task) and ``sandbox.docker.KEY=VALUE`` overrides."""
    from realcli.sandbox import images_cli

    docker_spec = _docker_spec([a for a in args if "=" in a])
    ids = [a for a in args if "=" not in a]
    if action == "list":
        return images_cli.images_list(docker_spec)
    if ids and action == "prune":
        raise ConfigError("command line", "TASK", "prune weighs every task", "drop the task ids")
    roots = [tasks_dir / t for t in ids] or sorted(p.parent for p in tasks_dir.glob("*/task.toml"))
    bundles = [load_task(root) for root in roots]
    if action == "build":
        return images_cli.images_build(bundles, docker_spec)
    return images_cli.images_prune(bundles, tasks_dir, docker_spec)
