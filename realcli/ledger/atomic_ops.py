"""Tool calls as atomic operations, with GUI work hidden in shell calls re-attributed.

WeaveBench (SPEC §2 "Tool-call distribution and re-attribution") decomposes every tool call
into atomic operations and counts a shell call that drives the display as GUI work. Here:

- a GUI tool (``gui_click``, ``mcp__gui__screenshot``...) is one op ``computer: <primitive>``
  on the GUI channel;
- a shell call is parsed (``shlex`` with punctuation characters, plus a pre-pass for heredocs
  and command substitutions; :mod:`realcli.ledger.shell_words`) into its simple commands —
  ``a && b | c; d``, newlines, ``( ... )``, ``$( ... )`` and backticks, ``bash -c '...'``/
  ``eval`` (recursively), heredoc bodies fed to Python — and each simple command is one op:
  ``exec: <program>`` on the GUI channel when the program drives or reads the display
  (:data:`DISPLAY_PROGRAMS`, ImageMagick ``import`` only when it grabs the screen, Python code
  importing :data:`PYTHON_GUI_LIBS`),
  ``exec: python`` for other Python, ``exec: shell`` for anything else (``program`` names it);
  wrappers (``sudo``, ``env``, ``timeout 5``, ``xargs``, ``VAR=value``...) and shell keywords
  are looked through, and a look-up (``which xclip``, ``apt-get install xdotool``) is not the
  program it names;
- any other tool is one op: the ledger's own ``atomic_op`` (``fs: write``...) and channel.

``tool_channel`` is the call's own channel at tool level (a shell tool is CLI, whatever it
ran); ``channel`` is the op's after re-attribution. The agent is untrusted: the classifier
never raises; input it cannot parse (an unterminated quote, binary junk) is one ``exec:
shell`` op — on the GUI channel if a display program's name appears in it at all.

Standard library and the ledger's schema only, so the harness, the warehouse and the judge
can all use it.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from realcli.ledger.shell_words import (
    SUBSTITUTED,
    cut_heredocs,
    cut_substitutions,
    heredoc_body,
    shell_words,
    simple_commands,
)
from realcli.schema.actions import gui_primitive

__all__ = [
    "DISPLAY_PROGRAMS",
    "MAX_COMMAND_CHARS",
    "MAX_OPS",
    "PYTHON_GUI_LIBS",
    "AtomicOp",
    "call_command",
    "decompose_call",
    "display_program",
    "shell_ops",
]

DISPLAY_PROGRAMS = frozenset(
    {
        "gnome-screenshot",
        "scrot",
        "maim",
        "import",  # ImageMagick's screen grabber, only when it grabs (see _grabs_screen)
        "xwd",
        "xdotool",
        "ydotool",
        "xte",
        "wmctrl",
        "xclip",
        "xsel",
        "xwininfo",
        "xprop",
    }
)
"""Programs that drive or read the display (screenshots, input, windows, the X clipboard)."""

PYTHON_GUI_LIBS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx))
    for name, rx in (
        ("pyautogui", r"\bpyautogui\b"),
        ("pynput", r"\bpynput\b"),
        ("Xlib", r"\bXlib\b"),
        ("ImageGrab", r"\bImageGrab\b"),
        ("pyscreenshot", r"\bpyscreenshot\b"),
        ("mss", r"\b(?:import|from)\s+mss\b"),
    )
)
"""Python libraries that drive or capture the display, by the name an op gets."""

MAX_COMMAND_CHARS = 100_000
"""A longer command is classified on its first characters (the ledger clips at 20,000)."""
MAX_OPS = 200
"""At most this many ops per call (a generated script of 10,000 commands is not 10,000 ops)."""
_MAX_DEPTH = 4  # bash -c inside bash -c ...
_MAX_PROGRAM_CHARS = 100

SHELL_TOOL_OPS = frozenset({"exec: shell"})
_COMMAND_KEYS = ("cmd", "command", "commands", "script", "code", "input")
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "busybox"})
_WRAPPERS = frozenset(
    {
        "sudo",
        "doas",
        "env",
        "nohup",
        "time",
        "nice",
        "ionice",
        "exec",
        "xargs",
        "stdbuf",
        "setsid",
        "unbuffer",
        "chronic",
        "timeout",
        "watch",
        "then",
        "do",
        "else",
        "elif",
        "if",
        "while",
        "until",
        "!",
        "{",
        "builtin",
        "dbus-launch",
        "xvfb-run",
    }
)
"""Words that run the next word as the program (options after them are skipped)."""
_WRAPPER_VALUE_OPTS = {
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"},
    "nice": {"-n"},
    "ionice": {"-c", "-n", "-p"},
    "xargs": {"-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
    "watch": {"-n", "-d"},
    "stdbuf": {"-i", "-o", "-e"},
    "env": {"-u", "-C", "-S"},
}
_NO_OP_KEYWORDS = frozenset(
    {"for", "case", "select", "function", "done", "fi", "esac", "}", "in", ";;", "[[", "]]"}
)
_LOOKUPS = frozenset({"which", "whereis", "type", "man", "apropos", "hash"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_PYTHON = re.compile(r"^(python|python[23](\.\d+)?|pypy3?|ipython3?)$")
_IMAGE_FILE = re.compile(r"\.(png|jpe?g|gif|bmp|ppm|pnm|xwd|tiff?|webp|miff)$", re.I)
_IMPORT_GRAB_OPTS = frozenset({"-window", "-screen", "-silent", "-display", "-frame", "-crop"})
_ANY_DISPLAY = re.compile(
    r"(?<![\w.-])(" + "|".join(re.escape(p) for p in sorted(DISPLAY_PROGRAMS - {"import"})) + r")\b"
)


@dataclass(frozen=True)
class AtomicOp:
    """One atomic operation of a tool call."""

    op: str
    """``exec: shell``, ``exec: python``, ``exec: xdotool``, ``computer: click``, ``fs: write``"""
    program: str | None
    """the program a shell op ran (``grep``, ``xdotool``, ``pyautogui``); None otherwise"""
    tool_channel: str
    """the call's own channel at tool level (``cli``/``gui``)"""
    channel: str
    """the op's channel after re-attribution"""

    @property
    def reattributed(self) -> bool:
        return self.channel != self.tool_channel


# ------------------------------------------------------------------------------ a whole call
def call_command(args: Mapping[str, Any]) -> str:
    """The shell text of a shell tool's arguments (``cmd``/``command``/... ; an argv list is
    joined as the shell would see it); "" when there is none."""
    for key in _COMMAND_KEYS:
        if key in args:
            value = args[key]
            break
    else:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return shlex.join(value)
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return ""


def decompose_call(
    name: str, raw_name: str, channel: str, atomic_op: str, args: Mapping[str, Any]
) -> tuple[AtomicOp, ...]:
    """The atomic ops of one tool call (fields of :class:`~realcli.schema.events.ToolCallEvent`;
    ``channel``/``atomic_op`` as the ledger recorded them). Never raises; at least one op."""
    try:
        primitive = gui_primitive(raw_name) or gui_primitive(name)
        if primitive is not None:
            return (AtomicOp(f"computer: {primitive}", None, "gui", "gui"),)
        if atomic_op in SHELL_TOOL_OPS or atomic_op.startswith("gui: via shell"):
            # the harness may already have put a display-driving shell call on the GUI
            # channel; at tool level it is still a shell call
            return tuple(
                AtomicOp(op, program, "cli", ch)
                for op, program, ch in shell_ops(call_command(args))
            )
        ch = channel if channel in ("cli", "gui") else "cli"
        return (AtomicOp(atomic_op or f"other: {name or '?'}", None, ch, ch),)
    except Exception:  # never: the classifier must not cost an ingest a run
        return (AtomicOp("exec: shell", None, "cli", "cli"),)


# ------------------------------------------------------------------------------ shell text
def shell_ops(command: str) -> list[tuple[str, str | None, str]]:
    """``(op, program, channel)`` for each simple command of a shell command line; at least
    one. Never raises."""
    try:
        ops = _ops(command[:MAX_COMMAND_CHARS] if isinstance(command, str) else "", 0)
    except Exception:
        ops = None
    if not ops:
        return [_fallback(command if isinstance(command, str) else "")]
    return ops[:MAX_OPS]


def display_program(command: str) -> str | None:
    """The first display-driving program (or Python GUI library) a shell command runs, or
    None (``which xclip`` runs ``which``)."""
    for _op, program, channel in shell_ops(command):
        if channel == "gui":
            return program
    return None


def _fallback(command: str) -> tuple[str, str | None, str]:
    m = _ANY_DISPLAY.search(command[:MAX_COMMAND_CHARS])
    if m:
        return (f"exec: {m.group(1)}", m.group(1), "gui")
    return ("exec: shell", None, "cli")


def _ops(text: str, depth: int) -> list[tuple[str, str | None, str]] | None:
    """None when the text does not tokenize (the caller falls back)."""
    text, bodies = cut_heredocs(text)
    text, substituted = cut_substitutions(text)
    words = shell_words(text)
    if words is None:
        return None
    ops: list[tuple[str, str | None, str]] = []
    for inner in substituted:
        if depth < _MAX_DEPTH:
            ops.extend(_ops(inner, depth + 1) or [_fallback(inner)])
    for simple in simple_commands(words):
        ops.extend(_classify(simple, bodies, depth))
        if len(ops) >= MAX_OPS:
            break
    return ops


def _classify(words: list[str], bodies: list[str], depth: int) -> list[tuple[str, str | None, str]]:
    words = _look_through(words)
    if not words or words[0] in _NO_OP_KEYWORDS or words[0] == SUBSTITUTED:
        return []
    program = (posixpath.basename(words[0]) or words[0])[:_MAX_PROGRAM_CHARS]
    args = words[1:]
    if program in _SHELLS or program == "eval":
        script = _shell_script(program, args, bodies)
        if script is not None and depth < _MAX_DEPTH:
            return _ops(script, depth + 1) or [_fallback(script)]
        return [("exec: shell", program, "cli")]
    if program == "command" and args and not args[0].startswith("-"):
        return _classify(args, bodies, depth)
    if program == "command" or program in _LOOKUPS:
        return [("exec: shell", program, "cli")]
    if _PYTHON.match(program):
        code = _python_code(args, bodies)
        for lib, pattern in PYTHON_GUI_LIBS:
            if pattern.search(code):
                return [(f"exec: {lib}", lib, "gui")]
        shelled = _ANY_DISPLAY.search(code)
        if shelled:  # subprocess.run(["xdotool", ...]) inside the code
            return [(f"exec: {shelled.group(1)}", shelled.group(1), "gui")]
        return [("exec: python", program, "cli")]
    if program in DISPLAY_PROGRAMS and (program != "import" or _grabs_screen(args)):
        return [(f"exec: {program}", program, "gui")]
    return [("exec: shell", program, "cli")]


def _look_through(words: list[str]) -> list[str]:
    """Drop assignments, wrappers (with their options) and keywords before the program."""
    i = 0
    while i < len(words):
        w = words[i]
        if _ASSIGNMENT.match(w):
            i += 1
            continue
        base = posixpath.basename(w)
        if base not in _WRAPPERS:
            break
        i += 1
        value_opts = _WRAPPER_VALUE_OPTS.get(base, set())
        while i < len(words) and (words[i].startswith("-") or _ASSIGNMENT.match(words[i])):
            i += 2 if words[i] in value_opts else 1
        if base == "timeout" and i < len(words) and re.fullmatch(r"[\d.]+[smhd]?", words[i]):
            i += 1
    return words[i:]


def _shell_script(program: str, args: list[str], bodies: list[str]) -> str | None:
    if program == "eval":
        return " ".join(args)
    for j, a in enumerate(args):
        if a.startswith("-") and not a.startswith("--") and "c" in a[1:]:
            return args[j + 1] if j + 1 < len(args) else None
        if a in ("<<", "<<-") and j + 1 < len(args):
            return heredoc_body(args[j + 1], bodies)
        if a == "<<<" and j + 1 < len(args):
            return args[j + 1]
        if not a.startswith("-"):
            return None  # bash script.sh: the script is not in the call
    return None


def _python_code(args: list[str], bodies: list[str]) -> str:
    for j, a in enumerate(args):
        if a == "-c" and j + 1 < len(args):
            return args[j + 1]
        if a in ("<<", "<<-") and j + 1 < len(args):
            return heredoc_body(args[j + 1], bodies) or ""
        if a == "<<<" and j + 1 < len(args):
            return args[j + 1]
        if a == "-m" and j + 1 < len(args):
            return f"import {args[j + 1]}"
    return ""


def _grabs_screen(args: list[str]) -> bool:
    """ImageMagick ``import`` grabs the display: with a grab option or an image file to
    write (``import -window root shot.png``, ``import shot.png``)."""
    return any(a in _IMPORT_GRAB_OPTS or _IMAGE_FILE.search(a) for a in args)
