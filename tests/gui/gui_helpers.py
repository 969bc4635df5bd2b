"""Helpers shared by the GUI tests (imported by name: ``from gui_helpers import ...``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from realcli.gui import App, Desktop

APPS = Path(__file__).parent / "apps"
SYSTEM_PYTHON = "/usr/bin/python3"
"""The Debian Python: it has tkinter (python3-tk); the venv's Python does not."""


def wait_until(check: Callable[[], object], timeout: float = 5.0, what: str = "") -> object:
    """Poll ``check`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what or check}")
        time.sleep(0.02)


class Probe:
    """The probe window: where its canvas and entry are, and the events it printed."""

    def __init__(self, desktop: Desktop, app: App, title: str) -> None:
        self.desktop = desktop
        self.app = app
        self.title = title
        ready = wait_until(lambda: self._ready_line(), 15, "the probe window")
        assert isinstance(ready, list)
        self.canvas = (int(ready[1]), int(ready[2]))
        self.entry = (int(ready[3]), int(ready[4]))
        self.window = desktop.wait_for_window(f"^{title}:")

    def _ready_line(self) -> list[str] | None:
        for line in self.app.output().splitlines():
            if line.startswith("ready "):
                return line.split()
        return None

    def lines(self) -> list[str]:
        return [line for line in self.app.output().splitlines() if line]

    def mark(self) -> int:
        return len(self.lines())

    def since(self, mark: int) -> list[str]:
        return self.lines()[mark:]

    def wait_for(self, mark: int, expected: str, timeout: float = 5.0) -> list[str]:
        """The lines after ``mark``, once one of them starts with ``expected``."""
        wait_until(lambda: any(x.startswith(expected) for x in self.since(mark)), timeout, expected)
        return self.since(mark)

    def name(self) -> str:
        """The window title (``<title>:<entry text>``)."""
        return self.desktop.xdotool("getwindowname", str(self.window)).stdout.rstrip("\n")

    def point(self, dx: int = 100, dy: int = 100) -> tuple[int, int]:
        """A point on the canvas, ``(dx, dy)`` from its top left corner."""
        return self.canvas[0] + dx, self.canvas[1] + dy
