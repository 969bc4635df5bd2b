"""The GUI channel: a private virtual desktop per run, the GUI primitives, the trusted GUI
tool service (served by the gateway under ``/gui``) and the MCP server agents use to reach it.

- :mod:`realcli.gui.desktop`: :class:`Desktop` (Xvfb + openbox; a sandbox sees only its own
  display) and the task's GUI applications, with its parts :mod:`~realcli.gui.xserver`,
  :mod:`~realcli.gui.display_number`, :mod:`~realcli.gui.apps` and :mod:`~realcli.gui.errors`;
- :mod:`realcli.gui.driver`: :class:`GuiDriver` (screenshot, click, type, ... on the host;
  key names in :mod:`~realcli.gui.keys`, PNG in :mod:`~realcli.gui.png`);
- :mod:`realcli.gui.service`: :data:`GUI_TOOLS` and :class:`GuiService` (validation,
  screenshots saved and hashed into the ledger);
- :mod:`realcli.gui.mcp_server`: the MCP server run in the agent's sandbox (stdlib + ``mcp``
  only; imported by nobody here).
"""

from realcli.gui.desktop import (
    SANDBOX_ENV,
    App,
    Desktop,
    DesktopError,
    GuiArgumentError,
    GuiError,
)
from realcli.gui.driver import GuiDriver
from realcli.gui.service import GUI_TOOLS, GuiResult, GuiService

__all__ = [
    "GUI_TOOLS",
    "SANDBOX_ENV",
    "App",
    "Desktop",
    "DesktopError",
    "GuiArgumentError",
    "GuiDriver",
    "GuiError",
    "GuiResult",
    "GuiService",
]
