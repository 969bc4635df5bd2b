"""The GUI channel's errors (importable from :mod:`realcli.gui` and :mod:`realcli.gui.desktop`)."""

from __future__ import annotations

__all__ = ["DesktopError", "GuiArgumentError", "GuiError"]


class GuiError(RuntimeError):
    """A GUI action or the desktop failed (the message carries the command's stderr)."""


class GuiArgumentError(GuiError, ValueError):
    """A GUI action was given a bad argument (off-screen point, unknown key name...)."""


class DesktopError(GuiError):
    """The virtual display could not be started or used."""
