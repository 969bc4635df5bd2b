#!/usr/bin/env python3
"""Regional Units Dashboard: a vendor portal that shows weekly units sold per store as a bar
chart only (no export). Hidden data: data.json next to this file.

The "Overlay digitized values" button reads <workspace>/out/measured.csv (read-only mount)
and draws a magenta tick at each measured value, so an analyst can check a digitization
against the chart (what WebPlotDigitizer-style tools show).
"""

import csv
import json
import os
import sys
import tkinter as tk
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKSPACE = Path(sys.argv[1] if len(sys.argv) > 1 else "/run/realcli/workspace")

W, H = 1024, 768
BAR = "#4682b4"
GRID = "#d9d9d9"
AXIS = "#222222"
MARK = "#ff00ff"
BG = "#ffffff"
FONT = ("DejaVu Sans", 11)
FONT_B = ("DejaVu Sans", 13, "bold")

# plot geometry (canvas coordinates)
LEFT, RIGHT = 110, 990
BASE = 560  # y of the value 0
PX_PER_UNIT = 0.75  # 600 units -> 450 px


class Dashboard:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        self.data = json.loads((HERE / "data.json").read_text())
        self.region = "North"
        self.overlay: dict[str, float] | None = None
        root.title("Regional Units Dashboard")
        root.geometry(f"{W}x{H}+0+0")
        root.configure(bg=BG)
        try:
            root.attributes("-fullscreen", True)
        except tk.TclError:
            pass

        top = tk.Frame(root, bg="#eef2f6", height=56)
        top.pack(side="top", fill="x")
        top.pack_propagate(False)
        tk.Label(top, text="Regional Units Dashboard", font=FONT_B, bg="#eef2f6").place(x=12, y=14)
        self.buttons: dict[str, tk.Button] = {}
        for i, name in enumerate(self.data["regions"]):
            b = tk.Button(top, text=name, font=FONT, width=7,
                          command=lambda n=name: self.show(n))
            b.place(x=300 + i * 95, y=11)
            self.buttons[name] = b
        tk.Button(top, text="Overlay digitized values", font=FONT,
                  command=self.load_overlay).place(x=700, y=11)

        self.canvas = tk.Canvas(root, width=W, height=H - 56 - 30, bg=BG,
                                highlightthickness=0, bd=0)
        self.canvas.pack(side="top", fill="both", expand=True)
        self.status = tk.Label(root, text="Overlay: off", font=FONT, anchor="w",
                               bg="#eef2f6")
        self.status.pack(side="bottom", fill="x")
        self.show(self.region)

    def y(self, v: float) -> int:
        return int(round(BASE - v * PX_PER_UNIT))

    def show(self, region: str) -> None:
        self.region = region
        for n, b in self.buttons.items():
            b.configure(relief="sunken" if n == region else "raised",
                        bg="#c8d8e8" if n == region else "#e6e6e6")
        c = self.canvas
        c.delete("all")
        c.create_text(LEFT, 24, anchor="w", font=FONT_B,
                      text=f"Units sold per store, {region} region, week {self.data['week']}")
        c.create_text(28, (BASE + self.y(self.data["axis_max"])) // 2, angle=90,
                      font=FONT, text="units sold")
        step, top = self.data["axis_step"], self.data["axis_max"]
        for v in range(0, top + 1, step):
            yy = self.y(v)
            if v:
                c.create_line(LEFT, yy, RIGHT, yy, fill=GRID, width=1)
            c.create_text(LEFT - 10, yy, anchor="e", font=FONT, text=str(v))
        stores = self.data["regions"][region]
        n = len(stores)
        slot = (RIGHT - LEFT) / n
        width = 64
        for i, (sid, val) in enumerate(sorted(stores.items())):
            cx = LEFT + slot * (i + 0.5)
            x0, x1 = int(cx - width / 2), int(cx + width / 2)
            c.create_rectangle(x0, self.y(val), x1, BASE, fill=BAR, outline="")
            c.create_text(int(cx), BASE + 16, font=FONT, text=sid)
            if self.overlay is not None and sid in self.overlay:
                ym = self.y(self.overlay[sid])
                c.create_line(x0 - 10, ym, x1 + 10, ym, fill=MARK, width=3)
        c.create_line(LEFT, BASE, RIGHT, BASE, fill=AXIS, width=1)
        c.create_line(LEFT, BASE, LEFT, self.y(top) - 10, fill=AXIS, width=1)
        c.create_text((LEFT + RIGHT) // 2, BASE + 44, font=FONT, text="store")

    def load_overlay(self) -> None:
        path = WORKSPACE / "out" / "measured.csv"
        try:
            with path.open(newline="", encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
            values = {r["store_id"].strip(): float(r["units"]) for r in rows}
        except FileNotFoundError:
            self.overlay = None
            self.status.configure(text="Overlay: out/measured.csv not found in the workspace")
        except (KeyError, ValueError, TypeError, csv.Error, UnicodeDecodeError) as e:
            self.overlay = None
            self.status.configure(
                text=f"Overlay: cannot read out/measured.csv (need columns store_id,units): {e}"
            )
        else:
            self.overlay = values
            here = [s for s in self.data["regions"][self.region] if s in values]
            self.status.configure(
                text=f"Overlay: {len(values)} rows loaded from out/measured.csv "
                f"({len(here)} of {len(self.data['regions'][self.region])} stores in this view)"
            )
        self.show(self.region)


def main() -> None:
    root = tk.Tk()
    Dashboard(root)
    if os.environ.get("DASH_DEBUG"):
        root.after(800, lambda: print_geometry(root))
    root.mainloop()


def print_geometry(root: tk.Tk) -> None:
    def walk(w: tk.Misc) -> None:
        for ch in w.winfo_children():
            if isinstance(ch, tk.Button):
                print(ch.cget("text"), ch.winfo_rootx() + ch.winfo_width() // 2,
                      ch.winfo_rooty() + ch.winfo_height() // 2, file=sys.stderr)
            walk(ch)
    walk(root)
    print("canvas origin", root.winfo_children()[1].winfo_rootx(),
          root.winfo_children()[1].winfo_rooty(), file=sys.stderr)


if __name__ == "__main__":
    main()
