"""Fixtures for the GUI tests: a real desktop (Xvfb + openbox) per module, and a Tk probe
window that reports every input event it receives (``apps/probe.py``)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from gui_helpers import APPS, SYSTEM_PYTHON, Probe

from realcli.gui import Desktop


def pytest_configure(config: pytest.Config) -> None:
    # Until pyproject.toml lists it (requested): keeps -m gui selectable without warnings.
    config.addinivalue_line("markers", "gui: runs a real virtual display (Xvfb, xdotool)")


def _missing() -> list[str]:
    missing = [b for b in ("Xvfb", "xdotool", "openbox", "wmctrl", "xmodmap", "xwd", "scrot")
               if shutil.which(b) is None]  # fmt: skip
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import tkinter"], capture_output=True, check=False
    ) if Path(SYSTEM_PYTHON).exists() else None  # fmt: skip
    if probe is None or probe.returncode != 0:
        missing.append("python3-tk")
    return missing


@pytest.fixture(scope="session")
def gui_available() -> None:
    missing = _missing()
    if missing:
        pytest.skip(f"GUI tools not installed: {', '.join(missing)}")


@pytest.fixture(scope="module")
def desktop(gui_available: None) -> Iterator[Desktop]:
    """One running 1280x800 desktop with openbox, shared by the tests of a module."""
    with Desktop(1280, 800) as d:
        yield d


@pytest.fixture(scope="module")
def probe(desktop: Desktop) -> Iterator[Probe]:
    """The probe window on the module's desktop (host side), focused."""
    app = desktop.launch([SYSTEM_PYTHON, "-u", str(APPS / "probe.py"), "probe"])
    try:
        yield Probe(desktop, app, "probe")
    finally:
        app.kill()
