"""Key names for the GUI driver: the friendly aliases (``enter``, ``pgdn``, ``cmd``...) and
the check that turns ``keys`` (xdotool syntax) into names xdotool accepts, before anything is
sent (libX11's ``XStringToKeysym`` when it loads; xdotool's stderr otherwise)."""

from __future__ import annotations

import ctypes
import ctypes.util

from realcli.gui.errors import GuiArgumentError

__all__ = ["KEY_ALIASES", "normalize_keys"]

KEY_ALIASES = {
    # xdotool's own (case-insensitive): ctrl, control, alt, shift, super, meta
    "enter": "Return",
    "return": "Return",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "space": "space",
    "backspace": "BackSpace",
    "del": "Delete",
    "delete": "Delete",
    "insert": "Insert",
    "ins": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "Page_Up",
    "pgup": "Page_Up",
    "page_up": "Page_Up",
    "pagedown": "Page_Down",
    "pgdn": "Page_Down",
    "page_down": "Page_Down",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "win": "super",
    "cmd": "super",
    "command": "super",
    "option": "alt",
    "capslock": "Caps_Lock",
    "printscreen": "Print",
    "menu": "Menu",
}
"""Friendly key names accepted (case-insensitively) besides X keysym names."""
_XDOTOOL_MODIFIERS = {"ctrl", "control", "alt", "shift", "super", "meta"}


def _load_xlib() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("X11") or "libX11.so.6"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib.XStringToKeysym.restype = ctypes.c_ulong
    lib.XStringToKeysym.argtypes = [ctypes.c_char_p]
    return lib


_XLIB = _load_xlib()


def _keysym_exists(name: str) -> bool:
    if _XLIB is None:  # cannot check here; xdotool's stderr is the backstop
        return True
    return bool(_XLIB.XStringToKeysym(name.encode()))


def normalize_keys(keys: str) -> list[str]:
    """``keys`` (xdotool syntax: space-separated chords like ``ctrl+s Return``) with the
    friendly aliases resolved, each key name checked.

    Raises:
        GuiArgumentError: empty, or an unknown key name (nothing is sent).
    """
    chords = keys.split()
    if not chords:
        raise GuiArgumentError("keys is empty: give xdotool key names such as 'ctrl+s' or 'Return'")
    out, unknown = [], []
    for chord in chords:
        if chord == "+":
            names = ["plus"]
        elif chord.endswith("++"):  # "ctrl++": ctrl and the plus key
            names = [*chord[:-2].split("+"), "plus"]
        else:
            names = chord.split("+")
        fixed = []
        for name in names:
            low = name.lower()
            if not name:
                unknown.append(repr(chord))
            elif low in _XDOTOOL_MODIFIERS:
                fixed.append(low)
            elif low in KEY_ALIASES:
                fixed.append(KEY_ALIASES[low])
            elif _keysym_exists(name):
                fixed.append(name)
            elif len(name) == 1 and name.isprintable():
                fixed.append(f"U{ord(name):04X}")
            elif name.isdigit():  # xdotool takes a number for a raw keycode
                fixed.append(name)
            else:
                unknown.append(repr(name))
        out.append("+".join(fixed))
    if unknown:
        raise GuiArgumentError(
            f"unknown key name(s) {', '.join(unknown)} in {keys!r}: use X keysym names "
            "(Return, Escape, BackSpace, Tab, Page_Down, F5, a, ...) joined by '+' with "
            "modifiers ctrl/alt/shift/super, e.g. 'ctrl+s' or 'ctrl+shift+Tab'"
        )
    return out
