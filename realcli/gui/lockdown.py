"""What keeps a run's display a screen and not a back door (docs/security.md, "The display").

Everything on the display can be seen and driven (screenshots, clicks, keys, ``xdotool``,
the selection), but no X client, the agent's shell included, can run code in another:

- **Tk ``send`` is closed in every app.** :meth:`Desktop.launch` starts each application with
  ``TK_LIBRARY`` pointing at :data:`TK_SHIM` (the file ``tk.tcl``), which every Tk
  interpreter sources while it starts (Python's tkinter, ``wish``, anything on libtk). It
  loads the real Tk library, then deletes the ``send`` command: deleting it unregisters the
  interpreter from the display (no longer in the root window's ``InterpRegistry``, not
  listed by ``winfo interps``), so a ``send`` to it finds no application. A later
  ``tk appname NAME`` (which would register again) closes it again. The shim runs inside the
  app's own process: nothing on the display can undo it.
- **Xvfb runs with access control disabled** (``-ac``; the display has no TCP listener and no
  abstract socket, so this lets in no one new). Tk refuses every incoming ``send`` on such a
  server ("X server insecure"): a second lock for a Tk app that bypasses the shim. Any local
  client (the agent's shell too) can turn access control back on with ``xhost -``, so this
  layer is a backstop, not the guarantee.
- **RECORD stays on** (a known limit): any client may record other clients' protocol
  streams, which is what they draw and the input they get, the screen in another form. This
  Xvfb cannot drop it alone: ``-extension RECORD`` removes XTEST instead (measured), which
  ``xdotool`` and the GUI service need.
- **The window manager executes nothing.** Openbox runs on the host, and its stock
  configuration runs programs on input: the root menu's "Terminal emulator" (a right click on
  the desktop, then Return: a host shell), ``Print`` (``scrot``), ``W-e``. It runs here with
  :func:`openbox_config`: the system ``rc.xml`` without any ``Execute``, ``ShowMenu``,
  ``Restart``, ``Exit`` or ``SessionLogout`` action, and an empty root menu.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

__all__ = [
    "OPENBOX_BLOCKED_ACTIONS",
    "OPENBOX_SYSTEM_RC",
    "TK_SHIM",
    "TK_SHIM_MOUNT",
    "XVFB_LOCKDOWN_ARGS",
    "openbox_config",
    "write_tk_shim",
]

TK_SHIM_MOUNT = "/run/realcli/tk"
"""Where the Tk shim's folder appears in an application's sandbox (``TK_LIBRARY``)."""
XVFB_LOCKDOWN_ARGS: tuple[str, ...] = ("-ac",)
OPENBOX_SYSTEM_RC = Path("/etc/xdg/openbox/rc.xml")
OPENBOX_BLOCKED_ACTIONS = frozenset({"execute", "showmenu", "restart", "exit", "sessionlogout"})
"""Openbox actions that start programs (``Restart`` takes a command too) or open menus."""
_OPENBOX_NS = "http://openbox.org/3.4/rc"
_OPENBOX_MENU_NS = "http://openbox.org/3.4/menu"

TK_SHIM = r"""# realcli: the Tk library, then Tk's send closed (realcli/gui/lockdown.py).
namespace eval ::realcli_display {
    variable real ""
    variable here [file normalize [file dirname [info script]]]
    catch {set real [::tk::pkgconfig get scriptdir,runtime]}
    if {$real eq "" || [file normalize $real] eq $here
            || ![file readable [file join $real tk.tcl]]} {
        set real ""
        foreach d $::auto_path {
            set c [file join $d tk$::tk_version]
            if {[file normalize $c] ne $here && [file readable [file join $c tk.tcl]]} {
                set real $c
                break
            }
        }
    }
    if {$real eq ""} {
        error "realcli: the real Tk library (tk.tcl) was not found"
    }
}
set ::tk_library $::realcli_display::real
source [file join $::tk_library tk.tcl]
# Deleting send unregisters this interpreter from the display's InterpRegistry: no other
# client can send it a script, and [winfo interps] no longer lists it.
rename ::send {}
rename ::tk ::realcli_display::tk
proc ::tk {args} {
    set result [uplevel 1 [list ::realcli_display::tk {*}$args]]
    if {[lindex $args 0] eq "appname" && [llength $args] > 1} {
        catch {rename ::send {}}  ;# a new name registers again: close it again
    }
    return $result
}
"""
"""The ``tk.tcl`` every application's Tk interpreter sources (``TK_LIBRARY``)."""


def write_tk_shim(folder: Path) -> Path:
    """Write :data:`TK_SHIM` as ``folder/tk.tcl``; return ``folder`` (the ``TK_LIBRARY``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tk.tcl").write_text(TK_SHIM, encoding="utf-8")
    return folder


def _strip_actions(parent: ET.Element) -> int:
    removed = 0
    for child in list(parent):
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "action" and child.get("name", "").lower() in OPENBOX_BLOCKED_ACTIONS:
            parent.remove(child)
            removed += 1
        else:
            removed += _strip_actions(child)
    return removed


_MINIMAL_RC = f"""<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="{_OPENBOX_NS}">
  <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
  <placement><policy>Smart</policy></placement>
  <desktops><number>1</number></desktops>
</openbox_config>
"""


def openbox_config(folder: Path, system_rc: Path = OPENBOX_SYSTEM_RC) -> Path:
    """Write ``folder/rc.xml`` (for ``openbox --config-file``) and its empty ``menu.xml``.

    The rc is ``system_rc`` (the stock configuration: the same look, placement and window
    bindings as before) with every :data:`OPENBOX_BLOCKED_ACTIONS` action removed, a key or
    mouse binding left without actions doing nothing; its menu file is replaced by one with
    an empty root menu. Without a readable ``system_rc``, a minimal rc with no bindings.
    """
    folder.mkdir(parents=True, exist_ok=True)
    menu = folder / "menu.xml"
    menu.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<openbox_menu xmlns="{_OPENBOX_MENU_NS}">\n'
        '  <menu id="root-menu" label="Openbox 3"></menu>\n</openbox_menu>\n',
        encoding="utf-8",
    )
    try:
        root = ET.fromstring(system_rc.read_bytes())
    except (OSError, ET.ParseError):
        root = ET.fromstring(_MINIMAL_RC)
    tree = ET.ElementTree(root)
    _strip_actions(root)
    ns = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    q = (lambda tag: f"{{{ns}}}{tag}") if ns else (lambda tag: tag)
    for old in root.findall(q("menu")):
        root.remove(old)
    section = ET.SubElement(root, q("menu"))
    ET.SubElement(section, q("file")).text = str(menu)
    if ns:
        ET.register_namespace("", ns)
    rc = folder / "rc.xml"
    tree.write(rc, encoding="utf-8", xml_declaration=True)
    return rc
