"""Workspaces: the initial state of a task, and the reference applied onto it (health gates)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from realcli.catalog import TaskBundle
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.actions import Action, EditAction, GuiAction, ShellAction, WriteAction
from realcli.util.errors import TaskError

if TYPE_CHECKING:
    from realcli.runner.gui_session import GuiSession

__all__ = [
    "apply_reference",
    "prepare_workspace",
    "sandbox_options",
    "stage_workspace",
    "unstage_workspace",
]

SETUP_MOUNT = "/run/realcli/setup.sh"


def sandbox_options(task: TaskBundle, workspace: Path, **overrides: object) -> SandboxOptions:
    """Sandbox options from the task's resources, with optional overrides (None is ignored)."""
    res = task.spec.resources
    opts = SandboxOptions(
        workspace=workspace,
        workdir=task.spec.workdir,
        memory_mb=res.memory_mb,
        cpu_seconds=res.cpu_seconds,
        max_file_mb=res.max_file_mb,
        max_processes=res.max_processes,
    )
    given = {k: v for k, v in overrides.items() if v is not None}
    return replace(opts, **given) if given else opts  # type: ignore[arg-type]


def stage_workspace(workspace: Path) -> Path:
    """Where the run's workspace lives while agents and apps work on it: a fresh folder under
    the host's temp dir, with ``workspace`` (in the run folder) a link to it, so the sandbox's
    ``/proc/self/mountinfo`` shows a meaningless temp path, not the runs dir. Only when the
    temp dir is on the run folder's filesystem (moving it back is a rename); else
    ``workspace`` itself. :func:`unstage_workspace` moves it back."""
    tmp = Path(tempfile.gettempdir())
    try:
        same_fs = tmp.stat().st_dev == workspace.parent.stat().st_dev
    except OSError:
        same_fs = False
    if not same_fs or workspace.exists() or workspace.is_symlink():
        return workspace
    staged = Path(tempfile.mkdtemp(prefix="realcli-ws-", dir=tmp)) / "ws"
    workspace.symlink_to(staged, target_is_directory=True)
    return staged


def unstage_workspace(workspace: Path, staged: Path) -> None:
    """Put the workspace back in the run folder (``workspace`` is no longer a link)."""
    if staged == workspace:
        return
    if workspace.is_symlink():
        workspace.unlink()
    if staged.exists() or staged.is_symlink():
        os.rename(staged, workspace)
    shutil.rmtree(staged.parent, ignore_errors=True)


def prepare_workspace(
    task: TaskBundle,
    dest: Path,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    **limits: object,
) -> None:
    """Copy ``environment/repo`` to ``dest`` (new, or an empty mount point) and run
    ``environment/setup.sh`` there, sandboxed."""
    shutil.copytree(task.repo_dir, dest, symlinks=True, dirs_exist_ok=True)
    script = task.setup_script
    if script is None:
        return
    opts = sandbox_options(task, dest, **limits)
    sandbox = make_sandbox(replace(opts, ro_binds=((script, SETUP_MOUNT),)))
    result = sandbox.exec(["bash", SETUP_MOUNT], timeout_s=task.spec.timeouts.setup_s)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout)[-300:]
        raise TaskError(
            str(script),
            None,
            f"setup failed with exit {result.returncode}: {tail}",
            "make environment/setup.sh succeed on the initial repo",
        )


def _inside(workspace: Path, rel: str, where: str) -> Path:
    path = (workspace / rel).resolve()
    if not path.is_relative_to(workspace.resolve()):
        raise TaskError(where, "path", f"{rel!r} leaves the workspace", "use a relative path")
    return path


def apply_reference(
    task: TaskBundle, workspace: Path, make_sandbox: Callable[[SandboxOptions], Sandbox]
) -> None:
    """Play the reference trajectory onto ``workspace`` without an agent (the health gate).

    A task with GUI actions gets its desktop and apps for the replay (the same GUI session a
    hybrid run gets); its shell actions then see the display, like a hybrid agent's.
    """
    actions = task.reference_actions()
    if not any(isinstance(a, GuiAction) for a in actions):
        _apply(task, workspace, make_sandbox(sandbox_options(task, workspace)), actions, None)
        return
    from realcli.runner.gui_session import gui_session  # the desktop only when needed

    with (
        tempfile.TemporaryDirectory(prefix="realcli-reference-") as tmp,
        gui_session(task, workspace, Path(tmp), make_sandbox, lambda event: None) as gui,
    ):
        sandbox = gui.agent_sandbox(make_sandbox(sandbox_options(task, workspace)))
        _apply(task, workspace, sandbox, actions, gui)


def _apply(
    task: TaskBundle,
    workspace: Path,
    sandbox: Sandbox,
    actions: Sequence[Action],
    gui: GuiSession | None,
) -> None:
    where = str(task.trajectory_path)
    for i, action in enumerate(actions):
        if isinstance(action, WriteAction):
            path = _inside(workspace, action.path, where)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(action.content or "", encoding="utf-8")
        elif isinstance(action, EditAction):
            path = _inside(workspace, action.path, where)
            text = path.read_text(encoding="utf-8")
            if text.count(action.old) != 1:
                raise TaskError(
                    where,
                    "old",
                    f"edit of {action.path} matches {text.count(action.old)} times",
                    "make 'old' match exactly once",
                )
            path.write_text(text.replace(action.old, action.new), encoding="utf-8")
        elif isinstance(action, ShellAction):
            sandbox.exec(["bash", "-lc", action.cmd], timeout_s=action.timeout_s)
        elif isinstance(action, GuiAction) and gui is not None:
            result = gui.service.call(action.tool, dict(action.args), call_id=f"reference-{i}")
            if not result.ok:
                raise TaskError(
                    where,
                    f"action #{i} ({action.tool})",
                    f"the GUI service refused it: {result.text}",
                    "fix the action's arguments (see realcli.gui.service.GUI_TOOLS)",
                )
