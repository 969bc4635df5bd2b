"""How one ``[[gui.apps]]`` entry becomes a sandboxed process: its mounts, its per-run
profile copy, its environment and its argv (placeholders filled in).

The app's sandbox shares only the display with the run (``Desktop.launch`` adds it). It sees
``/usr``, the curated ``/etc`` of every sandbox, the task's ``system_paths`` read-only, its
``files`` read-only at ``/run/realcli/app``, the agent's workspace read-only at
``/run/realcli/workspace`` (``workspace = true``: live, never a copy) and its profile
read-write at ``/run/realcli/profile``: a fresh copy of the bundle's frozen profile for each
run, so no run sees what an earlier one changed. The copy is made by the host from the bundle
(which has no symlinks: :mod:`realcli.catalog.confine`) and copies links as links, never
following one; nothing of the agent's workspace is read by the host here.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog import TaskBundle
from realcli.sandbox import SandboxOptions
from realcli.schema.task_gui_app import (
    APP_MOUNT,
    APP_PLACEHOLDERS,
    PROFILE_MOUNT,
    WORKSPACE_MOUNT,
    GuiApp,
)
from realcli.util.errors import TaskError

__all__ = ["AppLaunch", "app_launch", "fill_placeholders"]

APP_WORKDIR = "/run/realcli/appwd"
APP_MEMORY_MB = 4096


@dataclass(frozen=True)
class AppLaunch:
    """What :meth:`Desktop.launch` needs for one app."""

    options: SandboxOptions
    argv: list[str]
    env: dict[str, str]


def fill_placeholders(value: str) -> str:
    """``value`` with ``{app}``, ``{profile}`` and ``{workspace}`` replaced by their mounts."""
    for name, mount in APP_PLACEHOLDERS.items():
        value = value.replace("{" + name + "}", mount)
    return value


def _folder(task: TaskBundle, app: GuiApp, field: str, rel: str) -> Path:
    path = task.root / "environment" / rel
    if not path.is_dir() or path.is_symlink():
        raise TaskError(
            str(task.root / "task.toml"),
            f"gui.apps.{app.name}.{field}",
            f"{path} is not a folder",
            "point it at a folder under environment/",
        )
    return path


def app_launch(
    task: TaskBundle, app: GuiApp, workspace: Path, app_wd: Path, profiles: Path
) -> AppLaunch:
    """The sandbox options, argv and env of ``app`` for one run. ``app_wd`` is the run's
    writable app workdir; the app's profile copy goes to ``profiles/<app name>`` (a fresh
    folder of the run, removed with it).

    Raises:
        TaskError: a folder the app names is missing, or a system path is not on this host.
    """
    toml = str(task.root / "task.toml")
    app_wd.mkdir(exist_ok=True)
    profiles.mkdir(exist_ok=True)
    ro_binds: list[tuple[Path, str]] = []
    rw_binds: list[tuple[Path, str]] = []
    for path in app.system_paths:
        if not Path(path).exists():
            raise TaskError(
                toml,
                f"gui.apps.{app.name}.system_paths",
                f"{path} does not exist on this host",
                "install the application (scripts/setup.sh) or drop the path",
            )
        ro_binds.append((Path(path), path))
    if app.files is not None:
        ro_binds.append((_folder(task, app, "files", app.files), APP_MOUNT))
    if app.workspace:
        ro_binds.append((workspace, WORKSPACE_MOUNT))
    if app.profile is not None:
        frozen = _folder(task, app, "profile", app.profile)
        copy = profiles / app.name
        shutil.copytree(frozen, copy, symlinks=True)  # links stay links: none is followed
        rw_binds.append((copy, PROFILE_MOUNT))
    options = SandboxOptions(
        workspace=app_wd,
        workdir=APP_WORKDIR,
        memory_mb=max(task.spec.resources.memory_mb, APP_MEMORY_MB),
        limit_address_space=False,  # browsers and toolkits reserve address space
        ro_binds=tuple(ro_binds),
        rw_binds=tuple(rw_binds),
        stage_ro_binds=False,  # the app sees the workspace live, not a copy
    )
    argv = [fill_placeholders(a) for a in app.argv]
    env = {key: fill_placeholders(value) for key, value in app.env.items()}
    return AppLaunch(options, argv, env)
