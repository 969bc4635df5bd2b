"""GuiDriver: the GUI primitives (screenshot, mouse, keyboard) on a :class:`Desktop`.

Everything runs on the host with the desktop's ``DISPLAY`` (never inside the agent's
sandbox): ``xwd`` + a stdlib PNG encoder for screenshots (``scrot`` when the screen format
is not the usual 24-bit TrueColor), ``xdotool`` for input (XTEST), ``xmodmap`` to give
non-ASCII characters keycodes of their own before they are typed.

Why the keycodes: ``xdotool type`` types a character missing from the keymap by rebinding
one scratch keycode to it, pressing it and unbinding it again, for every such character.
An application that reads the key event after the next rebinding sees another character or
none (here: ``hé 中文`` arrived as ``h 中`` in a Tk entry under load). So :meth:`GuiDriver.type`
first binds every non-ASCII character of the text to a spare keycode of its own (in chunks
of as many characters as there are spare keycodes, least recently used first) and only then
types: xdotool finds them in the keymap and never rebinds while keys are in flight.

Key names are checked in :mod:`realcli.gui.keys`, screenshots encoded in :mod:`realcli.gui.png`.
Bad arguments raise :class:`GuiArgumentError` before anything is sent (off-screen points,
unknown key names, control characters); a failing command raises :class:`GuiError` with
its stderr.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence

from realcli.gui.desktop import Desktop
from realcli.gui.errors import GuiArgumentError, GuiError
from realcli.gui.keys import KEY_ALIASES, normalize_keys
from realcli.gui.png import encode_png, png_size, xwd_to_rgb

__all__ = [
    "BUTTONS",
    "KEY_ALIASES",
    "MAX_SCROLL",
    "MAX_TYPE_CHARS",
    "MAX_WAIT_S",
    "GuiArgumentError",
    "GuiDriver",
    "GuiError",
    "encode_png",
    "normalize_keys",
    "png_size",
]

BUTTONS = {"left": 1, "middle": 2, "right": 3}
MAX_WAIT_S = 60.0
MAX_SCROLL = 50
"""Most wheel clicks in one scroll, per axis."""
MAX_TYPE_CHARS = 4000
"""At 12 ms a key, about a minute of typing (the MCP forwarder waits 120 s)."""
_SETTLE_S = 0.15
"""Before a keycode typed less than this long ago is rebound to another character."""


class GuiDriver:
    """Host-side GUI primitives on ``desktop``. One action at a time (thread-safe)."""

    def __init__(
        self,
        desktop: Desktop,
        *,
        command_timeout_s: float = 10.0,
        type_delay_ms: int = 12,
        screenshot_method: str = "auto",
    ) -> None:
        if screenshot_method not in ("auto", "xwd", "scrot"):
            raise ValueError(f"screenshot_method must be auto, xwd or scrot: {screenshot_method}")
        self.desktop = desktop
        self.command_timeout_s = command_timeout_s
        self.type_delay_ms = type_delay_ms
        self.screenshot_method = screenshot_method
        self._lock = threading.RLock()
        # keymap state for type(): spare keycodes and which character each one holds now
        self._keymap_generation = -1
        self._spare: list[int] = []
        self._bound: OrderedDict[str, int] = OrderedDict()  # char -> keycode, LRU first
        self._typed_at: dict[int, float] = {}

    # ----------------------------------------------------------------- plumbing
    @property
    def width(self) -> int:
        return self.desktop.width

    @property
    def height(self) -> int:
        return self.desktop.height

    def _run(self, argv: Sequence[str], *, timeout_s: float | None = None) -> bytes:
        if not self.desktop.running:
            raise GuiError("the desktop is not running")
        timeout = timeout_s or self.command_timeout_s
        try:
            proc = subprocess.run(
                list(argv),
                env=self.desktop.env(),
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise GuiError(
                f"{argv[0]} {argv[1] if len(argv) > 1 else ''} timed out after {timeout}s"
            ) from None
        except FileNotFoundError:
            raise GuiError(f"{argv[0]} is not installed") from None
        err = proc.stderr.decode("utf-8", "replace").strip()
        if proc.returncode != 0:
            raise GuiError(f"{argv[0]} failed (exit {proc.returncode}): {err or '(no stderr)'}")
        if "No such key name" in err:
            raise GuiArgumentError(f"{argv[0]}: {err.splitlines()[0]}")
        return proc.stdout

    def xdotool(self, *args: str, timeout_s: float | None = None) -> str:
        """``xdotool ARGS`` on the desktop; its stdout. Raises GuiError when it fails."""
        return self._run(["xdotool", *args], timeout_s=timeout_s).decode("utf-8", "replace")

    def check_point(self, x: int, y: int) -> tuple[int, int]:
        """``(x, y)`` as ints. Raises GuiArgumentError when it is not on the screen."""
        for name, value in (("x", x), ("y", y)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise GuiArgumentError(f"{name} must be an integer, got {value!r}")
            if isinstance(value, float) and not float(value).is_integer():
                raise GuiArgumentError(f"{name} must be an integer, got {value!r}")
        xi, yi = int(x), int(y)
        if not (0 <= xi < self.width and 0 <= yi < self.height):
            raise GuiArgumentError(
                f"point ({xi}, {yi}) is off-screen: the screen is {self.width}x{self.height} "
                f"(x 0..{self.width - 1}, y 0..{self.height - 1})"
            )
        return xi, yi

    @staticmethod
    def _button(button: str) -> int:
        try:
            return BUTTONS[button]
        except (KeyError, TypeError):
            raise GuiArgumentError(
                f"button must be one of {', '.join(BUTTONS)}, got {button!r}"
            ) from None

    # ----------------------------------------------------------------- screen
    def screenshot(self) -> bytes:
        """A PNG of the whole screen (root window; no cursor)."""
        with self._lock:
            if self.screenshot_method in ("auto", "xwd"):
                decoded = xwd_to_rgb(self._run(["xwd", "-root", "-silent"]))
                if decoded is not None:
                    return encode_png(*decoded)
                if self.screenshot_method == "xwd":
                    raise GuiError("xwd returned a screen format the encoder does not handle")
            png = self._run(["scrot", "--overwrite", "-"])
            try:
                png_size(png)
            except ValueError:
                raise GuiError(f"scrot returned no PNG ({len(png)} bytes)") from None
            return png

    # ----------------------------------------------------------------- mouse
    def move(self, x: int, y: int) -> None:
        """Move the pointer to (x, y) and wait (up to 2 s) until it is there: right after a
        click on a window the window manager may hold the pointer for a moment (openbox's
        click-to-focus grab, longer while it digests keymap changes from :meth:`type`)."""
        x, y = self.check_point(x, y)
        with self._lock:
            self.xdotool("mousemove", str(x), str(y))
            deadline = time.monotonic() + 2.0
            while not self.xdotool("getmouselocation").startswith(f"x:{x} y:{y} "):
                if time.monotonic() > deadline:
                    break  # the motion is queued and happens when the pointer is released
                time.sleep(0.005)

    def click(self, x: int, y: int, button: str = "left", *, count: int = 1) -> None:
        x, y = self.check_point(x, y)
        b = self._button(button)
        if not 1 <= count <= 3:
            raise GuiArgumentError(f"count must be 1..3, got {count}")
        clicks: list[str] = []
        for i in range(count):  # xdotool's own --repeat also sleeps after the last click
            clicks += [*(["sleep", "0.06"] if i else []), "click", "--delay", "0", str(b)]
        with self._lock:
            self.xdotool("mousemove", str(x), str(y), *clicks)

    def double_click(self, x: int, y: int, button: str = "left") -> None:
        self.click(x, y, button, count=2)

    def triple_click(self, x: int, y: int, button: str = "left") -> None:
        self.click(x, y, button, count=3)

    def drag(self, x1: int, y1: int, x2: int, y2: int, button: str = "left") -> None:
        """Press at (x1, y1), move in steps to (x2, y2), release."""
        x1, y1 = self.check_point(x1, y1)
        x2, y2 = self.check_point(x2, y2)
        b = str(self._button(button))
        steps: list[str] = []
        for i in range(1, 5):  # intermediate motion: toolkits start a drag past a threshold
            steps += ["mousemove", str(x1 + (x2 - x1) * i // 4), str(y1 + (y2 - y1) * i // 4)]
            steps += ["sleep", "0.02"]
        with self._lock:
            try:
                self.xdotool(
                    "mousemove", str(x1), str(y1), "mousedown", b, "sleep", "0.05",
                    *steps, "sleep", "0.05", "mouseup", b,
                )  # fmt: skip
            except GuiError:
                with contextlib.suppress(GuiError):
                    self.xdotool("mouseup", b)  # never leave the button held
                raise

    def scroll(self, x: int, y: int, dy: int, dx: int = 0) -> None:
        """Wheel clicks at (x, y): ``dy`` > 0 down (button 5), < 0 up (4); ``dx`` > 0 right
        (7), < 0 left (6)."""
        x, y = self.check_point(x, y)
        for name, value in (("dy", dy), ("dx", dx)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise GuiArgumentError(f"{name} must be an integer, got {value!r}")
            if abs(value) > MAX_SCROLL:
                raise GuiArgumentError(f"{name} must be within ±{MAX_SCROLL}, got {value}")
        if dy == 0 and dx == 0:
            raise GuiArgumentError("scroll needs dy or dx (wheel clicks), both are 0")
        args = ["mousemove", str(x), str(y)]
        for value, neg, pos in ((dy, 4, 5), (dx, 6, 7)):
            if value:
                args += ["click", "--repeat", str(abs(value)), "--delay", "10"]
                args.append(str(pos if value > 0 else neg))
        with self._lock:
            self.xdotool(*args)

    # ----------------------------------------------------------------- keyboard
    def keypress(self, keys: str) -> None:
        """Press key chords in xdotool syntax, e.g. ``ctrl+s``, ``Return``, ``ctrl+a Delete``."""
        chords = normalize_keys(keys)
        with self._lock:
            self.xdotool("key", "--", *chords)

    def type(self, text: str) -> None:
        """Type ``text`` (any Unicode, CJK included; ``\\n`` is Return, ``\\t`` Tab)."""
        if not isinstance(text, str) or not text:
            raise GuiArgumentError("text must be a non-empty string")
        if len(text) > MAX_TYPE_CHARS:
            raise GuiArgumentError(f"text is too long ({len(text)} > {MAX_TYPE_CHARS} chars)")
        text = text.replace("\r\n", "\n")
        bad = sorted(
            {c for c in text if unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t"}
        )
        if bad:
            raise GuiArgumentError(
                f"text has control characters {', '.join(f'U+{ord(c):04X}' for c in bad)}: "
                "only printable characters, \\n and \\t can be typed (use keypress for keys)"
            )
        with self._lock:
            try:
                self._type(text)
            except BaseException:
                self._bound.clear()  # the keymap may not hold what _bound says: rebind all
                raise

    def _type(self, text: str) -> None:
        for chunk, binds, codes in self._chunks(text):
            if binds:
                self._bind(binds)
            self.xdotool(
                "type", "--delay", str(self.type_delay_ms), "--", chunk,
                timeout_s=self.command_timeout_s + len(chunk) * self.type_delay_ms / 250,
            )  # fmt: skip
            now = time.monotonic()
            for code in codes:
                self._typed_at[code] = now

    def _load_keymap(self) -> None:
        if self._keymap_generation == self.desktop.generation:
            return
        out = self._run(["xmodmap", "-pke"]).decode("utf-8", "replace")
        spare = [int(m.group(1)) for m in re.finditer(r"^keycode\s+(\d+)\s*=\s*$", out, re.M)]
        # xdotool rebinds the lowest spare keycode itself when it meets an unbound
        # character (e.g. a non-ASCII key in keypress): leave that one to it.
        if len(spare) < 2:
            raise GuiError("the keymap has no spare keycodes to type non-ASCII text with")
        self._spare = spare[1:]
        self._bound.clear()
        self._typed_at.clear()
        self._keymap_generation = self.desktop.generation

    def _chunks(self, text: str) -> list[tuple[str, dict[int, str], set[int]]]:
        """``text`` cut into pieces whose non-ASCII characters all fit the spare keycodes:
        (piece, the keycode -> character bindings it needs first, the keycodes it uses)."""
        if all(" " <= c <= "~" or c in "\n\t" for c in text):
            return [(text, {}, set())]
        self._load_keymap()
        bound = self._bound  # char -> keycode, least recently used first
        chunks: list[tuple[str, dict[int, str], set[int]]] = []
        start, needed, binds = 0, dict[str, int](), dict[int, str]()
        unused = [k for k in self._spare if k not in set(bound.values())]
        for i, c in enumerate(text):
            if " " <= c <= "~" or c in "\n\t" or c in needed:
                continue
            if len(needed) == len(self._spare):  # every keycode is taken: cut here
                chunks.append((text[start:i], binds, set(needed.values())))
                start, needed, binds = i, {}, {}
            if c in bound:
                bound.move_to_end(c)
            else:
                if unused:
                    code = unused.pop(0)
                else:  # rebind the least recently used keycode this piece does not need
                    victim = next(ch for ch in bound if ch not in needed)
                    code = bound.pop(victim)
                bound[c] = code
                binds[code] = c
            needed[c] = bound[c]
        chunks.append((text[start:], binds, set(needed.values())))
        return chunks

    def _bind(self, binds: dict[int, str]) -> None:
        # A keycode typed a moment ago may still be queued in the application: let it read
        # the key with the old binding before the keycode changes meaning.
        last = max((self._typed_at.get(code, 0.0) for code in binds), default=0.0)
        pause = last + _SETTLE_S - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        exprs: list[str] = []
        for code, c in binds.items():
            sym = f"U{ord(c):04X}"
            exprs += ["-e", f"keycode {code} = {sym} {sym}"]
        self._run(["xmodmap", *exprs])

    # ----------------------------------------------------------------- time
    def wait(self, seconds: float) -> None:
        """Sleep ``seconds`` (0..MAX_WAIT_S) so the application can catch up."""
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise GuiArgumentError(f"seconds must be a number, got {seconds!r}")
        if not 0 <= seconds <= MAX_WAIT_S:
            raise GuiArgumentError(f"seconds must be within 0..{MAX_WAIT_S:g}, got {seconds}")
        time.sleep(float(seconds))
