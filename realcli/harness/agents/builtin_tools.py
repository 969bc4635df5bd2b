"""The builtin agent's tools: their schemas as offered to the model and what each one does.

STANDALONE and stdlib-only, like ``builtin_agent.py`` beside it: it runs INSIDE the sandbox,
imported by that script from the folder they are both mounted in, and must not import realcli.
``shell(cmd, timeout_s?)``, ``read_file(path)``, ``write_file(path, content)``,
``edit_file(path, old, new)`` (relative paths are relative to the workdir) and the GUI
channel's ``gui_<name>`` tools, performed by the trusted GUI service behind the gateway.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

__all__ = [
    "CLI_TOOLS",
    "GUI_PREFIX",
    "REQUEST_TIMEOUT_S",
    "TOOLS",
    "ToolFailure",
    "Tools",
    "gui_tools",
    "truncate",
]

REQUEST_TIMEOUT_S = 600.0
SHELL_GRACE_S = 1.0  # wait for output after the shell exits (daemons may hold the pipe)


def _function(name: str, description: str, props: dict[str, Any], required: list[str]) -> Any:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": props, "required": required},
        },
    }


_STR = {"type": "string"}
TOOLS = [
    _function(
        "shell",
        "Run a bash command (bash -lc) in the working directory. Returns the exit code and "
        "the combined stdout and stderr.",
        {"cmd": _STR, "timeout_s": {"type": "number", "description": "wall clock limit"}},
        ["cmd"],
    ),
    _function("read_file", "Read a UTF-8 text file.", {"path": _STR}, ["path"]),
    _function(
        "write_file",
        "Create or overwrite a file with the given content (parent folders are created).",
        {"path": _STR, "content": _STR},
        ["path", "content"],
    ),
    _function(
        "edit_file",
        "Replace the exact text `old` with `new` in a file; `old` must occur exactly once.",
        {"path": _STR, "old": _STR, "new": _STR},
        ["path", "old", "new"],
    ),
]


CLI_TOOLS = {"shell", "read_file", "write_file", "edit_file"}
GUI_PREFIX = "gui_"


def gui_tools(gateway_root: str) -> list[Any]:
    """The GUI channel's tools as the trusted GUI service describes them (``gui_<name>``)."""
    req = urllib.request.Request(gateway_root + "/gui/tools", method="GET")
    with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT_S) as resp:
        listed = json.loads(resp.read())["tools"]
    return [
        {
            "type": "function",
            "function": {
                "name": GUI_PREFIX + t["name"],
                "description": t["description"],
                "parameters": t["input_schema"],
            },
        }
        for t in listed
    ]


class ToolFailure(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


def _drain(stream: Any, chunks: list[bytes]) -> None:
    while True:
        data = stream.read1(65536)
        if not data:
            return
        chunks.append(data)


def truncate(text: str, limit: int) -> str:
    """Head and tail of ``text`` within ``limit`` characters, with a marker in between."""
    if len(text) <= limit:
        return text
    marker = f"\n[... {len(text) - limit} characters truncated ...]\n"
    keep = max(limit - len(marker), 0)
    head = keep // 2
    return text[:head] + marker + text[len(text) - (keep - head) :]


class Tools:
    def __init__(self, workdir: str, default_timeout_s: float, gateway_root: str = "") -> None:
        self.workdir = workdir
        self.default_timeout_s = default_timeout_s
        self.gateway_root = gateway_root
        self.offered: set[str] = set(CLI_TOOLS)
        self.images: list[tuple[str, str]] = []
        """(call id, base64 PNG) of screenshots to show the model after the tool results."""

    def path(self, raw: Any) -> Path:
        if not isinstance(raw, str) or not raw:
            raise ToolFailure("'path' must be a non-empty string")
        p = Path(raw)
        return p if p.is_absolute() else Path(self.workdir) / p

    def run(self, name: str, args: dict[str, Any]) -> tuple[bool, int | None, str]:
        """Execute one tool call: ``(ok, exit_code, output)``."""
        if name not in self.offered:
            raise ToolFailure(
                f"unknown tool {name!r}; available: {', '.join(sorted(self.offered))}"
            )
        if name.startswith(GUI_PREFIX):
            return self.gui(name[len(GUI_PREFIX) :], args)
        if name == "shell":
            return self.shell(args)
        if name == "read_file":
            return True, None, self.read_file(args)
        if name == "write_file":
            return True, None, self.write_file(args)
        if name == "edit_file":
            return True, None, self.edit_file(args)
        raise ToolFailure(
            f"unknown tool {name!r}; available: shell, read_file, write_file, edit_file"
        )

    def shell(self, args: dict[str, Any]) -> tuple[bool, int | None, str]:
        cmd = args.get("cmd")
        if not isinstance(cmd, str) or not cmd.strip():
            raise ToolFailure("'cmd' must be a non-empty string")
        timeout = args.get("timeout_s") or self.default_timeout_s
        if not isinstance(timeout, int | float) or timeout <= 0:
            raise ToolFailure("'timeout_s' must be a positive number")
        timeout = min(float(timeout), self.default_timeout_s)
        proc = subprocess.Popen(
            ["bash", "-lc", cmd],
            cwd=self.workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert proc.stdout is not None
        chunks: list[bytes] = []
        reader = threading.Thread(target=_drain, args=(proc.stdout, chunks), daemon=True)
        reader.start()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            reader.join(timeout=SHELL_GRACE_S)
            text = b"".join(chunks).decode("utf-8", errors="replace")
            return False, None, f"{text}\n[command timed out after {timeout:g}s and was killed]"
        # A background process may keep the pipe open: take what is there, leave it running.
        reader.join(timeout=SHELL_GRACE_S)
        text = b"".join(chunks).decode("utf-8", errors="replace")
        return proc.returncode == 0, proc.returncode, text

    def gui(self, tool: str, args: dict[str, Any]) -> tuple[bool, int | None, str]:
        """A GUI primitive, performed (and screenshots hashed) by the trusted GUI service."""
        call_id = args.pop("_call_id", None)
        body = json.dumps({**args, "call_id": call_id}).encode("utf-8")
        req = urllib.request.Request(
            f"{self.gateway_root}/gui/{tool}",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT_S) as resp:
                result = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", errors="replace")[:500]
            raise ToolFailure(f"GUI {tool} failed: HTTP {exc.code}: {detail}") from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ToolFailure(f"GUI {tool} failed: {exc}") from exc
        image = result.get("image_png_base64")
        if isinstance(image, str) and image and call_id:
            self.images.append((str(call_id), image))
        return bool(result.get("ok")), None, str(result.get("text") or "")

    def read_file(self, args: dict[str, Any]) -> str:
        path = self.path(args.get("path"))
        try:
            return path.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise ToolFailure(f"cannot read {path}: {exc.strerror or exc}") from exc

    def write_file(self, args: dict[str, Any]) -> str:
        path = self.path(args.get("path"))
        content = args.get("content")
        if not isinstance(content, str):
            raise ToolFailure("'content' must be a string")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode("utf-8"))
        except OSError as exc:
            raise ToolFailure(f"cannot write {path}: {exc.strerror or exc}") from exc
        return f"wrote {len(content)} characters to {path}"

    def edit_file(self, args: dict[str, Any]) -> str:
        path = self.path(args.get("path"))
        old, new = args.get("old"), args.get("new")
        if not isinstance(old, str) or not old or not isinstance(new, str):
            raise ToolFailure("'old' must be a non-empty string and 'new' a string")
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ToolFailure(f"cannot read {path}: {exc}") from exc
        count = text.count(old)
        if count != 1:
            raise ToolFailure(f"'old' must occur exactly once in {path}, found {count} times")
        try:
            path.write_bytes(text.replace(old, new, 1).encode("utf-8"))
        except OSError as exc:
            raise ToolFailure(f"cannot write {path}: {exc.strerror or exc}") from exc
        return f"edited {path}"
