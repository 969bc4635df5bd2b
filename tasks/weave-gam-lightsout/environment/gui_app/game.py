#!/usr/bin/env python3
"""Lights Out: a two-level puzzle window (the boards live only in levels.json, next to this
file, which the player cannot read; the player sees them on screen).

Pressing a cell toggles it and its four orthogonal neighbours. "Load moves.txt" reads the
player's workspace (read-only, /run/realcli/workspace/moves.txt) and presses the cells listed
there, one "row col" pair (0-based) per line. Clearing level 2 shows the completion code in a
read-only field.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tkinter as tk
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKSPACE = Path(os.environ.get("LO_WORKSPACE", "/run/realcli/workspace"))
MOVES_NAME = "moves.txt"

W, H = 1024, 768
BG = "#1b1f24"
PANEL = "#252b33"
FG = "#e6edf3"
MUTED = "#9aa5b1"
LIT = "#ffd23f"
OFF = "#2f3742"
GRID = "#14171b"
GREEN = "#2ea043"
RED = "#f85149"
BOARD_X, BOARD_Y, BOARD_PX = 36, 96, 600
FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"


class Game:
    def __init__(self, root: tk.Tk, data: dict) -> None:
        self.root = root
        self.salt = data["salt"]
        self.levels = [[[int(ch) for ch in row] for row in lv["rows"]] for lv in data["levels"]]
        self.level = 0
        self.board: list[list[int]] = []
        self.presses = 0
        self.solved = [False] * len(self.levels)

        root.title("Lights Out")
        root.configure(bg=BG)
        root.geometry(f"{W}x{H}+0+0")
        root.resizable(False, False)
        root.attributes("-fullscreen", True)

        self.title = tk.Label(root, text="", font=(FONT, 22, "bold"), bg=BG, fg=FG, anchor="w")
        self.title.place(x=BOARD_X, y=28, width=600, height=44)

        self.canvas = tk.Canvas(
            root, width=BOARD_PX, height=BOARD_PX, bg=GRID, highlightthickness=0, bd=0
        )
        self.canvas.place(x=BOARD_X, y=BOARD_Y)
        self.canvas.bind("<Button-1>", self.on_click)

        px = 672
        panel = tk.Frame(root, bg=PANEL)
        panel.place(x=px, y=BOARD_Y, width=320, height=BOARD_PX)
        self.counter = tk.Label(
            root, text="", font=(FONT, 14), bg=PANEL, fg=FG, anchor="w", justify="left"
        )
        self.counter.place(x=px + 16, y=BOARD_Y + 16, width=288, height=56)
        self.load_btn = tk.Button(
            root, text="Load moves.txt", font=(FONT, 13, "bold"), command=self.load_moves
        )
        self.load_btn.place(x=px + 16, y=BOARD_Y + 88, width=288, height=44)
        self.reset_btn = tk.Button(root, text="Reset level", font=(FONT, 13), command=self.reset)
        self.reset_btn.place(x=px + 16, y=BOARD_Y + 144, width=288, height=44)
        self.next_btn = tk.Button(
            root, text="Next level \u25b6", font=(FONT, 13), command=self.next_level
        )
        self.next_btn.place(x=px + 16, y=BOARD_Y + 200, width=288, height=44)
        self.status = tk.Label(
            root,
            text="",
            font=(FONT, 12),
            bg=PANEL,
            fg=MUTED,
            anchor="nw",
            justify="left",
            wraplength=288,
        )
        self.status.place(x=px + 16, y=BOARD_Y + 260, width=288, height=120)

        self.code_label = tk.Label(
            root, text="Completion code", font=(FONT, 12), bg=PANEL, fg=MUTED, anchor="w"
        )
        self.code_var = tk.StringVar(value="")
        self.code_entry = tk.Entry(
            root,
            textvariable=self.code_var,
            font=(MONO, 20, "bold"),
            state="readonly",
            readonlybackground="#0d1117",
            fg=FG,
            justify="center",
            relief="flat",
        )
        self.banner = tk.Label(
            root, text="ALL LIGHTS OUT", font=(FONT, 18, "bold"), bg=GREEN, fg="white"
        )
        self.start_level(0)

    # ---------------------------------------------------------------- state
    def start_level(self, idx: int) -> None:
        self.level = idx
        self.board = [row[:] for row in self.levels[idx]]
        self.presses = 0
        self.title.configure(text=f"Lights Out \u2014 level {idx + 1} of {len(self.levels)}")
        self.next_btn.configure(state="disabled")
        self.set_status("Turn every light off. Click a cell, or load moves.txt.", MUTED)
        self.draw()

    def reset(self) -> None:
        if self.solved[-1]:
            return
        self.start_level(self.level)

    def next_level(self) -> None:
        if self.solved[self.level] and self.level + 1 < len(self.levels):
            self.start_level(self.level + 1)

    def press(self, r: int, c: int) -> None:
        n = len(self.board)
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n:
                self.board[rr][cc] ^= 1
        self.presses += 1

    def lit(self) -> int:
        return sum(map(sum, self.board))

    def after_moves(self) -> None:
        self.draw()
        if self.lit() == 0 and not self.solved[self.level]:
            self.solved[self.level] = True
            if self.level + 1 < len(self.levels):
                self.next_btn.configure(state="normal")
                self.set_status(
                    f"Level {self.level + 1} solved in {self.presses} presses. "
                    "Press \u201cNext level\u201d.",
                    GREEN,
                )
            else:
                self.finish()

    def finish(self) -> None:
        self.set_status(f"Level {self.level + 1} solved in {self.presses} presses.", GREEN)
        rows = ["/".join("".join(map(str, r)) for r in lv) for lv in self.levels]
        digest = hashlib.sha256((self.salt + "|" + "|".join(rows)).encode()).hexdigest().upper()
        self.code_var.set(f"LO-{digest[:4]}-{digest[4:8]}")
        self.code_label.place(x=672 + 16, y=BOARD_Y + 392, width=288, height=24)
        self.code_entry.place(x=672 + 16, y=BOARD_Y + 420, width=288, height=48)
        self.banner.place(x=672 + 16, y=BOARD_Y + 500, width=288, height=72)
        for b in (self.load_btn, self.reset_btn, self.next_btn):
            b.configure(state="disabled")

    # ---------------------------------------------------------------- input
    def on_click(self, event: tk.Event) -> None:
        if self.solved[self.level]:
            return
        n = len(self.board)
        cell = BOARD_PX // n
        c, r = event.x // cell, event.y // cell
        if 0 <= r < n and 0 <= c < n:
            self.press(r, c)
            self.counter_text()
            self.after_moves()

    def load_moves(self) -> None:
        if self.solved[self.level]:
            return
        path = WORKSPACE / MOVES_NAME
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            self.set_status(f"{MOVES_NAME} not found in the workspace.", RED)
            return
        n = len(self.board)
        moves = []
        for no, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0].replace(",", " ").strip()
            if not line:
                continue
            parts = line.split()
            try:
                r, c = (int(p) for p in parts)
            except ValueError:
                self.set_status(f"{MOVES_NAME} line {no}: expected 'row col'.", RED)
                return
            if not (0 <= r < n and 0 <= c < n):
                self.set_status(f"{MOVES_NAME} line {no}: ({r}, {c}) is off the board.", RED)
                return
            moves.append((r, c))
        for r, c in moves:
            self.press(r, c)
        self.after_moves()
        if not self.solved[self.level]:
            self.set_status(
                f"Loaded {len(moves)} presses: {self.lit()} lights are still on.", RED
            )

    # ---------------------------------------------------------------- drawing
    def set_status(self, text: str, color: str) -> None:
        self.status.configure(text=text, fg=color)
        self.counter_text()

    def counter_text(self) -> None:
        self.counter.configure(
            text=f"Board {len(self.board)} \u00d7 {len(self.board)}\nPresses: {self.presses}"
        )

    def draw(self) -> None:
        self.canvas.delete("all")
        n = len(self.board)
        cell = BOARD_PX // n
        for r in range(n):
            for c in range(n):
                x0, y0 = c * cell, r * cell
                self.canvas.create_rectangle(
                    x0 + 3,
                    y0 + 3,
                    x0 + cell - 3,
                    y0 + cell - 3,
                    fill=LIT if self.board[r][c] else OFF,
                    outline="",
                )
        self.counter_text()


def main() -> int:
    data = json.loads((HERE / "levels.json").read_text(encoding="utf-8"))
    root = tk.Tk()
    Game(root, data)
    root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
