"""The trusted GUI tool service: the ten GUI tools an agent may call, run outside its sandbox.

The gateway serves it at ``/gui/<tool>`` (:mod:`realcli.gateway.server`); the MCP server the
agent talks to (:mod:`realcli.gui.mcp_server`) only forwards calls there. So every
screenshot is taken here, on the host, saved as ``screenshots/<NNNN>-<sha8>.png`` in the
run folder and reported as a :class:`ScreenshotEvent` (its sha256 goes into the ledger):
a screenshot the agent hands in as a deliverable can be checked against these hashes.
"""

from __future__ import annotations

import copy
import hashlib
import re
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from realcli.gui.driver import (
    BUTTONS,
    MAX_SCROLL,
    MAX_TYPE_CHARS,
    MAX_WAIT_S,
    GuiArgumentError,
    GuiDriver,
    GuiError,
    png_size,
)
from realcli.schema.events import ScreenshotEvent
from realcli.util.safe_fs import write_bytes_under

__all__ = ["GUI_TOOLS", "GuiResult", "GuiService"]

_POINT = {
    "x": {"type": "integer", "minimum": 0, "description": "pixels from the left edge"},
    "y": {"type": "integer", "minimum": 0, "description": "pixels from the top edge"},
}
_BUTTON = {"type": "string", "enum": list(BUTTONS), "default": "left"}


def _schema(properties: Mapping[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }


GUI_TOOLS: dict[str, dict[str, Any]] = {
    "screenshot": {
        "description": "Take a screenshot of the whole screen. Returns a PNG image; "
        "coordinates for the other tools are pixels in this image (0,0 = top left). "
        "With save_as, the same PNG is also saved at that path in the working directory "
        "(use it for screenshot evidence: only screenshots taken this way count).",
        "input_schema": _schema(
            {
                "save_as": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400,
                    "description": "file to save the PNG to, relative to the working "
                    "directory (or absolute inside it), e.g. evidence/final.png",
                }
            }
        ),
    },
    "click": {
        "description": "Move the mouse to (x, y) and click a button once.",
        "input_schema": _schema({**_POINT, "button": _BUTTON}, ("x", "y")),
    },
    "double_click": {
        "description": "Double-click the left button at (x, y) (e.g. select a word, open a file).",
        "input_schema": _schema(_POINT, ("x", "y")),
    },
    "triple_click": {
        "description": "Triple-click the left button at (x, y) (e.g. select a line).",
        "input_schema": _schema(_POINT, ("x", "y")),
    },
    "move": {
        "description": "Move the mouse to (x, y) without clicking (e.g. to hover).",
        "input_schema": _schema(_POINT, ("x", "y")),
    },
    "drag": {
        "description": "Press a button at (x1, y1), move to (x2, y2) and release it.",
        "input_schema": _schema(
            {
                "x1": _POINT["x"],
                "y1": _POINT["y"],
                "x2": _POINT["x"],
                "y2": _POINT["y"],
                "button": _BUTTON,
            },
            ("x1", "y1", "x2", "y2"),
        ),
    },
    "scroll": {
        "description": "Scroll with the mouse wheel at (x, y): dy wheel clicks down (negative: "
        "up), dx wheel clicks right (negative: left).",
        "input_schema": _schema(
            {
                **_POINT,
                "dy": {"type": "integer", "minimum": -MAX_SCROLL, "maximum": MAX_SCROLL},
                "dx": {
                    "type": "integer",
                    "minimum": -MAX_SCROLL,
                    "maximum": MAX_SCROLL,
                    "default": 0,
                },
            },
            ("x", "y", "dy"),
        ),
    },
    "type": {
        "description": "Type text with the keyboard into the focused window (any Unicode, "
        "e.g. CJK; a newline presses Return, a tab Tab). Click the target field first.",
        "input_schema": _schema(
            {"text": {"type": "string", "minLength": 1, "maxLength": MAX_TYPE_CHARS}},
            ("text",),
        ),
    },
    "keypress": {
        "description": "Press keys or key chords, space-separated, in xdotool syntax: "
        "'Return', 'ctrl+s', 'ctrl+shift+Tab', 'ctrl+a Delete', 'alt+F4', 'Page_Down'. "
        "Names are X keysyms (Escape, BackSpace, Up, F5, a, ...); modifiers ctrl, alt, shift, "
        "super.",
        "input_schema": _schema(
            {"keys": {"type": "string", "minLength": 1, "maxLength": 200}}, ("keys",)
        ),
    },
    "wait": {
        "description": f"Wait some seconds (at most {MAX_WAIT_S:g}) for the screen to update.",
        "input_schema": _schema(
            {"seconds": {"type": "number", "minimum": 0, "maximum": MAX_WAIT_S}}, ("seconds",)
        ),
    },
}
"""The GUI tools: name -> {description, input_schema} (JSON Schema of the arguments)."""

_CALL_ID = re.compile(r"^[\w.:\-]{1,200}$")


def _short(message: str, limit: int = 300) -> str:
    """A validation message cut down (it quotes the value: a long text would flood it)."""
    return message if len(message) <= limit else message[: limit - 20] + " ... " + message[-15:]


@dataclass(frozen=True)
class GuiResult:
    """What a GUI tool call returns: ``ok``, a short ``text``, and a PNG for screenshots."""

    ok: bool
    text: str
    png: bytes | None = None


class GuiService:
    """Runs GUI tools on ``driver``, one call at a time.

    ``screenshots_dir`` (inside ``run_dir``) receives every screenshot; ``on_event`` gets a
    :class:`ScreenshotEvent` (``seq=0``) for each, path relative to ``run_dir``. Like the
    gateway's ``on_call`` it must be thread-safe; an exception in it is kept in
    :attr:`callback_errors`, not raised.
    """

    def __init__(
        self,
        driver: GuiDriver,
        screenshots_dir: Path,
        run_dir: Path,
        on_event: Callable[[ScreenshotEvent], object],
        *,
        workspace: Path | None = None,
        workdir: str = "/app",
    ) -> None:
        self.driver = driver
        self.workspace = workspace
        self.workdir = workdir.rstrip("/") or "/"
        self.screenshots_dir = Path(screenshots_dir)
        self.run_dir = Path(run_dir)
        try:
            self.screenshots_dir.resolve().relative_to(self.run_dir.resolve())
        except ValueError:
            raise ValueError(
                f"screenshots_dir {screenshots_dir} is not inside run_dir {run_dir}"
            ) from None
        self.on_event = on_event
        self.callback_errors: list[str] = []
        self._lock = threading.RLock()
        self.screenshots_dir.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name[:4]) for p in self.screenshots_dir.glob("[0-9][0-9][0-9][0-9]-*.png")]
        self._count = max(numbers, default=0)
        import jsonschema  # only runs that have a GUI pay for the import

        self._tools = self._bounded_tools()
        self._validators = {
            name: jsonschema.Draft202012Validator(spec["input_schema"])
            for name, spec in self._tools.items()
        }

    def _bounded_tools(self) -> dict[str, dict[str, Any]]:
        """GUI_TOOLS with this screen's size as the coordinates' maximum."""
        tools = copy.deepcopy(GUI_TOOLS)
        limits = {"x": self.driver.width - 1, "y": self.driver.height - 1}
        for spec in tools.values():
            for name, prop in spec["input_schema"]["properties"].items():
                if name in ("x", "y", "x1", "y1", "x2", "y2"):
                    prop["maximum"] = limits[name[0]]
        return tools

    def tools(self) -> list[dict[str, Any]]:
        """``[{name, description, input_schema}]`` for this screen (what /gui/tools serves)."""
        return [
            {"name": name, "description": spec["description"], "input_schema": spec["input_schema"]}
            for name, spec in self._tools.items()
        ]

    # ----------------------------------------------------------------- calls
    def validate(self, name: str, args: Any) -> dict[str, Any]:
        """``args`` checked against tool ``name``'s schema.

        Raises:
            GuiArgumentError: unknown tool, or arguments that do not fit the schema.
        """
        if name not in self._tools:
            raise GuiArgumentError(
                f"no GUI tool named {name!r}; the tools are: {', '.join(self._tools)}"
            )
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise GuiArgumentError(
                f"{name}: arguments must be a JSON object, got {type(args).__name__}"
            )
        errors = sorted(
            self._validators[name].iter_errors(args), key=lambda e: [str(p) for p in e.path]
        )
        if errors:
            problems = "; ".join(
                (f"{'.'.join(map(str, e.path))}: " if e.path else "") + _short(e.message)
                for e in errors
            )
            raise GuiArgumentError(f"{name}: bad arguments: {problems}")
        properties = self._tools[name]["input_schema"]["properties"]
        return {  # JSON Schema counts 3.0 as an integer: hand the driver an int
            k: int(v) if properties[k].get("type") == "integer" and isinstance(v, float) else v
            for k, v in args.items()
        }

    def call(self, name: str, args: Any = None, call_id: str | None = None) -> GuiResult:
        """Run GUI tool ``name`` with ``args``.

        Raises:
            GuiArgumentError: unknown tool or bad arguments (nothing was done).

        A failure while acting (a command failed, the display is gone) is returned as
        ``GuiResult(ok=False, text=<why>)``.
        """
        if call_id is not None and (not isinstance(call_id, str) or not _CALL_ID.match(call_id)):
            raise GuiArgumentError(f"call_id must be a short id string, got {call_id!r}")
        args = self.validate(name, args)
        with self._lock:
            try:
                return self._dispatch(name, args, call_id)
            except GuiArgumentError:
                raise
            except GuiError as exc:
                return GuiResult(False, f"{name} failed: {exc}")

    def _dispatch(self, name: str, a: dict[str, Any], call_id: str | None) -> GuiResult:
        d = self.driver
        match name:
            case "screenshot":
                target = self._save_target(a["save_as"]) if "save_as" in a else None
                png, event = self.capture(call_id=call_id)
                text = (
                    f"screenshot {event.width}x{event.height} PNG, {event.bytes} bytes, "
                    f"sha256 {event.sha256[:12]}"
                )
                if target is not None:
                    try:  # fd-relative, no link followed: a link swapped in meanwhile is
                        # replaced, never written through (realcli.util.safe_fs)
                        write_bytes_under(self.workspace or Path("/nonexistent"), target, png)
                    except (OSError, ValueError) as exc:
                        raise GuiArgumentError(
                            f"screenshot: cannot save as {a['save_as']!r}: {exc}"
                        ) from None
                    text += f"; saved as {a['save_as']}"
                return GuiResult(True, text, png)
            case "click":
                button = a.get("button", "left")
                d.click(a["x"], a["y"], button)
                return GuiResult(True, f"clicked {button} at ({a['x']}, {a['y']})")
            case "double_click":
                d.double_click(a["x"], a["y"])
                return GuiResult(True, f"double-clicked at ({a['x']}, {a['y']})")
            case "triple_click":
                d.triple_click(a["x"], a["y"])
                return GuiResult(True, f"triple-clicked at ({a['x']}, {a['y']})")
            case "move":
                d.move(a["x"], a["y"])
                return GuiResult(True, f"moved the mouse to ({a['x']}, {a['y']})")
            case "drag":
                button = a.get("button", "left")
                d.drag(a["x1"], a["y1"], a["x2"], a["y2"], button)
                return GuiResult(
                    True,
                    f"dragged {button} from ({a['x1']}, {a['y1']}) to ({a['x2']}, {a['y2']})",
                )
            case "scroll":
                dy, dx = int(a["dy"]), int(a.get("dx", 0))
                d.scroll(a["x"], a["y"], dy, dx)
                parts = [
                    f"{abs(v)} {w}"
                    for v, w in (
                        (dy, "down" if dy > 0 else "up"),
                        (dx, "right" if dx > 0 else "left"),
                    )
                    if v
                ]
                return GuiResult(True, f"scrolled {' and '.join(parts)} at ({a['x']}, {a['y']})")
            case "type":
                d.type(a["text"])
                return GuiResult(True, f"typed {len(a['text'])} characters")
            case "keypress":
                d.keypress(a["keys"])
                return GuiResult(True, f"pressed {a['keys']}")
            case "wait":
                d.wait(a["seconds"])
                return GuiResult(True, f"waited {a['seconds']} s")
        raise GuiArgumentError(f"no GUI tool named {name!r}")  # pragma: no cover

    def _save_target(self, save_as: str) -> PurePosixPath:
        """``save_as`` relative to the agent's workspace (checked lexically: no ``..``, not
        absolute; links are never followed when it is written).

        Raises:
            GuiArgumentError: no workspace, or a path that leaves it.
        """
        if self.workspace is None:
            raise GuiArgumentError("screenshot: save_as needs a working directory (none here)")
        rel = save_as
        if rel.startswith(self.workdir + "/"):
            rel = rel[len(self.workdir) + 1 :]
        target = PurePosixPath(rel)
        if rel.startswith("/") or not target.parts or any(p in ("..", ".") for p in target.parts):
            raise GuiArgumentError(
                f"screenshot: save_as {save_as!r} must be a file inside {self.workdir}"
            )
        return target

    def capture(
        self, *, source: str = "gui.screenshot", call_id: str | None = None
    ) -> tuple[bytes, ScreenshotEvent]:
        """Take a screenshot, save it, report it; ``source`` names who asked (the agent's
        tool: ``gui.screenshot``; realcli itself, e.g. ``runner.final``).

        Raises:
            GuiError: the screenshot could not be taken.
        """
        with self._lock:
            png = self.driver.screenshot()
            width, height = png_size(png)
            digest = hashlib.sha256(png).hexdigest()
            self._count += 1
            path = self.screenshots_dir / f"{self._count:04d}-{digest[:8]}.png"
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(png)
            tmp.replace(path)
        event = ScreenshotEvent(
            seq=0,
            sha256=digest,
            width=width,
            height=height,
            bytes=len(png),
            path=path.resolve().relative_to(self.run_dir.resolve()).as_posix(),
            source=source,
            call_id=call_id,
        )
        try:
            self.on_event(event)
        except Exception as exc:  # the ledger failing must not take the agent down
            self.callback_errors.append(f"{type(exc).__name__}: {exc}")
            print(f"realcli gui: on_event failed: {exc!r}", file=sys.stderr)
        return png, event
