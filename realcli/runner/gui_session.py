"""The GUI side of one run: a private desktop, the task's GUI apps, the trusted GUI service.

Only for modes with the ``gui`` channel (``hybrid``, ``gui_only``). The desktop is the task's
resolution (``[gui]`` in task.toml). Each app runs in a sandbox of its own that shares only
the display: its files (``environment/<files>``) at ``/run/realcli/app``, the agent's
workspace read-only at ``/run/realcli/workspace`` when the task asks, nothing else of the run.
The GUI service (host side, trusted) performs the agent's GUI tool calls and hashes every
screenshot into the ledger. When the agent is done, the final screen is captured as
``screenshots/final.png`` (also hashed) and the window list as ``artifacts/gui/windows.txt``.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog import TaskBundle
from realcli.gui.desktop import Desktop
from realcli.gui.driver import GuiDriver
from realcli.gui.service import GuiService
from realcli.runner.app_sandbox import app_launch
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.events import ScreenshotEvent
from realcli.schema.task_gui_app import APP_MOUNT, WORKSPACE_MOUNT
from realcli.schema.task_spec import GuiSpec
from realcli.util.errors import TaskError

__all__ = ["APP_MOUNT", "APP_OUTPUT_TAIL", "WORKSPACE_MOUNT", "GuiSession", "gui_session"]

APP_OUTPUT_TAIL = 800
"""How much of a failed app's output (its last characters) the start error quotes."""


@dataclass
class GuiSession:
    desktop: Desktop
    service: GuiService

    def agent_sandbox(self, sandbox: Sandbox) -> Sandbox:
        """``sandbox`` with this run's display (and only it) for the agent's shell."""
        return self.desktop.sandbox(sandbox)


@contextlib.contextmanager
def gui_session(
    task: TaskBundle,
    workspace: Path,
    run_dir: Path,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    on_event: Callable[[ScreenshotEvent], object],
) -> Iterator[GuiSession]:
    """Start the desktop and the task's apps; yield the session; capture the final screen
    and stop everything (even on errors).

    Raises:
        TaskError: an app's files are missing, or its window never appears.
        GuiError: the desktop cannot start.
    """
    spec = task.spec.gui or GuiSpec()
    with (
        tempfile.TemporaryDirectory(prefix="realcli-app-") as app_wd,
        Desktop(spec.width, spec.height) as desktop,
    ):
        profiles = Path(app_wd) / ".profiles"  # not below the app workdir's mount: beside it
        for app in spec.apps:
            launch = app_launch(task, app, workspace, Path(app_wd) / "wd", profiles)
            started = desktop.launch(
                launch.argv, sandbox=make_sandbox(launch.options), env=launch.env
            )
            try:
                desktop.wait_for_window(app.window, timeout=app.start_s)
            except Exception as exc:
                said = started.output().strip()[-APP_OUTPUT_TAIL:]  # why it failed, usually
                raise TaskError(
                    str(task.root / "task.toml"),
                    f"gui.apps.{app.name}",
                    f"its window {app.window!r} did not appear within {app.start_s:g}s: {exc}"
                    + (f"; the app's output ends: {said!r}" if said else ""),
                    "check the app's argv and window title (run it by hand under Xvfb)",
                ) from exc
        service = GuiService(
            GuiDriver(desktop),
            screenshots_dir=run_dir / "screenshots",
            run_dir=run_dir,
            on_event=on_event,
            workspace=workspace,
            workdir=task.spec.workdir,
        )
        session = GuiSession(desktop, service)
        try:
            yield session
        finally:
            _capture_final(session, run_dir)


def _capture_final(session: GuiSession, run_dir: Path) -> None:
    """The screen and window list as the agent left them (for judges and humans)."""
    with contextlib.suppress(Exception):
        session.service.capture(source="runner.final")
    with contextlib.suppress(Exception):
        out = run_dir / "artifacts" / "gui"
        out.mkdir(parents=True, exist_ok=True)
        listing = [f"{wid}\t{name}" for wid, name in session.desktop.windows()]
        (out / "windows.txt").write_text("\n".join(listing) + "\n", encoding="utf-8")
