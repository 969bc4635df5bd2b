#!/usr/bin/env python3
"""PlanView: a small floor-plan viewer for the surveyed plan of unit 4B.

The surveyed geometry (millimetres, origin at the south-west corner, y pointing north) lives
only here. Selecting an element shows its vertices in a read-only, selectable readout. The
"Overlay out/plan.dxf" button reads the DXF the user exported into the project workspace
(read-only mount) and draws it over the survey, reporting whether every outline matches.
"""

from __future__ import annotations

import math
import os
import sys
import tkinter as tk

TITLE = "PlanView - Unit 4B survey"
WORKSPACE = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "PLANVIEW_WORKSPACE", "/run/realcli/workspace"
)
DXF_REL = "out/plan.dxf"

# Surveyed outlines (mm) in the order the surveyor recorded them (some clockwise).
# Rooms tile the unit; ISLAND is the kitchen island footprint.
ELEMENTS: dict[str, list[tuple[int, int]]] = {
    "LIVING": [(0, 0), (5845, 0), (5845, 3915), (4185, 3915), (4185, 5265), (0, 5265)],
    "KITCHEN": [(5845, 0), (10395, 0), (10395, 4641), (7362, 4641), (7362, 3915), (5845, 3915)],
    "HALL": [(4185, 3915), (4185, 8610), (5590, 8610), (5590, 5265), (7362, 5265), (7362, 3915)],
    "BED-1": [(0, 5265), (4185, 5265), (4185, 8610), (0, 8610)],
    "BATH": [(5590, 5265), (8115, 5265), (8115, 8610), (5590, 8610)],
    "BED-2": [(10395, 8610), (10395, 4641), (7362, 4641), (7362, 5265), (8115, 5265), (8115, 8610)],
    "ISLAND": [(6805, 1390), (9170, 1390), (9170, 2285), (6805, 2285)],
}
FILL = {
    "LIVING": "#f3efe4",
    "KITCHEN": "#e6f0f5",
    "HALL": "#eeeeee",
    "BED-1": "#eef3e6",
    "BATH": "#e9e6f3",
    "BED-2": "#f5ebe6",
    "ISLAND": "#c9d3dc",
}
LABEL_AT = {
    "LIVING": (2400, 2300),
    "KITCHEN": (8000, 3300),
    "HALL": (4900, 6900),
    "BED-1": (2100, 7000),
    "BATH": (6850, 7000),
    "BED-2": (9250, 6900),
    "ISLAND": (7990, 1840),
}

SCALE = 18.0  # mm per pixel
OX, OY = 40, 40  # canvas offset of the plan's NW corner
EXTENT_X, EXTENT_Y = 10395, 8610

OK_BG, BAD_BG, IDLE_BG = "#1b873f", "#c62828", "#5f6b7a"

FONT = ("DejaVu Sans", 11)
FONT_B = ("DejaVu Sans", 11, "bold")
FONT_S = ("DejaVu Sans", 9)
MONO = ("DejaVu Sans Mono", 9)


def to_canvas(x: float, y: float) -> tuple[float, float]:
    return OX + x / SCALE, OY + (EXTENT_Y - y) / SCALE


def parse_dxf(text: str) -> dict[str, list[tuple[float, float]]]:
    """Closed LWPOLYLINEs by layer (last one wins), from an ASCII DXF."""
    lines = text.splitlines()
    pairs = []
    for i in range(0, len(lines) - 1, 2):
        try:
            pairs.append((int(lines[i].strip()), lines[i + 1].strip()))
        except ValueError:
            raise ValueError(f"bad group code on line {i + 1}") from None
    out: dict[str, list[tuple[float, float]]] = {}
    in_entities = False
    cur: dict | None = None

    def flush() -> None:
        if cur is not None and cur.get("layer") is not None:
            out[cur["layer"]] = list(zip(cur["xs"], cur["ys"]))

    prev = None
    for code, value in pairs:
        if code == 2 and prev == (0, "SECTION"):
            in_entities = value == "ENTITIES"
        if code == 0:
            flush()
            cur = {"layer": None, "xs": [], "ys": []} if in_entities and value == "LWPOLYLINE" else None
        elif cur is not None:
            if code == 8:
                cur["layer"] = value
            elif code == 10:
                cur["xs"].append(float(value))
            elif code == 20:
                cur["ys"].append(float(value))
        prev = (code, value)
    flush()
    return out


def same_ring(a: list[tuple[float, float]], b: list[tuple[float, float]], tol: float = 1.0) -> bool:
    if len(a) > 1 and math.dist(a[0], a[-1]) <= tol:
        a = a[:-1]
    if len(a) != len(b):
        return False
    n = len(b)
    for ring in (a, a[::-1]):
        for s in range(n):
            if all(math.dist(ring[(s + i) % n], b[i]) <= tol for i in range(n)):
                return True
    return False


class PlanView:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        root.title(TITLE)
        root.geometry("1024x768+0+0")
        root.attributes("-fullscreen", True)  # no window decorations: stable coordinates
        root.configure(bg="#dfe3e8")
        root.resizable(False, False)

        bar = tk.Label(root, text="PlanView  |  Unit 4B  |  survey 2024-03-18  |  units: mm",
                       font=FONT_B, bg="#2b3440", fg="white", anchor="w", padx=10)
        bar.place(x=0, y=0, width=1024, height=30)

        self.canvas = tk.Canvas(root, bg="white", highlightthickness=0)
        self.canvas.place(x=0, y=30, width=640, height=738)

        panel = tk.Frame(root, bg="#dfe3e8")
        panel.place(x=640, y=30, width=384, height=738)
        tk.Label(panel, text="Elements", font=FONT_B, bg="#dfe3e8").place(x=12, y=8)
        # one fixed-position toggle button per element (row i at y = 34 + 24 * i in the panel)
        self.choice = tk.StringVar(value="")
        for i, name in enumerate(ELEMENTS):
            tk.Radiobutton(panel, text=name, value=name, variable=self.choice, font=FONT,
                           indicatoron=False, anchor="w", padx=8, relief="flat",
                           bg="white", activebackground="#dbe6f3", selectcolor="#a9c8ec",
                           fg="black", command=self.on_select, highlightthickness=0,
                           borderwidth=0).place(x=12, y=34 + 24 * i, width=360, height=23)
        self.sel_label = tk.Label(panel, text="Selected: (none)", font=FONT_B, bg="#dfe3e8")
        self.sel_label.place(x=12, y=204)
        tk.Label(panel, text="Vertices (mm, x,y; origin = SW corner)", font=FONT_S,
                 bg="#dfe3e8").place(x=12, y=230)
        self.readout_var = tk.StringVar(value="")
        self.readout = tk.Entry(panel, textvariable=self.readout_var, font=MONO,
                                state="readonly", readonlybackground="white",
                                selectbackground="#ffd75e", selectforeground="black")
        self.readout.place(x=12, y=250, width=360, height=26)
        self.table = tk.Text(panel, font=MONO, height=8, bg="#f7f8fa", relief="flat")
        self.table.place(x=12, y=284, width=360, height=140)
        self.table.configure(state="disabled")

        self.overlay_btn = tk.Button(panel, text="Overlay out/plan.dxf", font=FONT,
                                     command=self.overlay)
        self.overlay_btn.place(x=12, y=440, width=200, height=32)
        self.clear_btn = tk.Button(panel, text="Clear overlay", font=FONT,
                                   command=self.clear_overlay)
        self.clear_btn.place(x=222, y=440, width=150, height=32)
        self.detail = tk.Label(panel, text="", font=FONT_S, bg="#dfe3e8", justify="left",
                               anchor="nw", wraplength=360)
        self.detail.place(x=12, y=484, width=360, height=150)

        self.status = tk.Label(root, text="No overlay loaded", font=FONT_B, bg=IDLE_BG,
                               fg="white", anchor="w", padx=10)
        self.status.place(x=640, y=718, width=384, height=50)

        self.draw_plan()

    # ------------------------------------------------------------------ drawing
    def draw_plan(self) -> None:
        c = self.canvas
        c.delete("all")
        for name, pts in ELEMENTS.items():
            flat = [v for p in pts for v in to_canvas(*p)]
            width = 1 if name == "ISLAND" else 3
            c.create_polygon(*flat, fill=FILL[name], outline="#222222", width=width,
                             tags=("plan", name))
            lx, ly = to_canvas(*LABEL_AT[name])
            c.create_text(lx, ly, text=name, font=FONT_B if name != "ISLAND" else FONT_S,
                          fill="#333333", tags=("label",))
        # overall dimensions (chain along the south and west sides)
        x0, y0 = to_canvas(0, 0)
        x1, _ = to_canvas(EXTENT_X, 0)
        _, y1 = to_canvas(0, EXTENT_Y)
        c.create_line(x0, y0 + 18, x1, y0 + 18, arrow="both", fill="#555555")
        c.create_text((x0 + x1) / 2, y0 + 30, text=f"{EXTENT_X}", font=FONT_S, fill="#555555")
        c.create_line(x0 - 18, y0, x0 - 18, y1, arrow="both", fill="#555555")
        c.create_text(x0 - 28, (y0 + y1) / 2, text=f"{EXTENT_Y}", font=FONT_S, fill="#555555",
                      angle=90)
        c.create_text(12, 720, text="N ^", font=FONT_S, anchor="w", fill="#555555")
        c.create_text(600, 720, text="1 px = 18 mm", font=FONT_S, anchor="e", fill="#555555")

    def on_select(self, _event: object = None) -> None:
        name = self.choice.get()
        if name not in ELEMENTS:
            return
        pts = ELEMENTS[name]
        self.sel_label.configure(text=f"Selected: {name}")
        self.readout_var.set(" ".join(f"{x},{y}" for x, y in pts))
        self.readout.selection_clear()
        self.table.configure(state="normal")
        self.table.delete("1.0", "end")
        for i, (x, y) in enumerate(pts, 1):
            self.table.insert("end", f"P{i}  x={x:>6}  y={y:>6}\n")
        self.table.configure(state="disabled")
        self.canvas.itemconfigure("plan", width=3)
        self.canvas.itemconfigure("ISLAND", width=1)
        self.canvas.itemconfigure(name, width=5)
        self.canvas.tag_raise(name)
        self.canvas.tag_raise("label")
        self.canvas.tag_raise("overlay")

    # ------------------------------------------------------------------ overlay
    def clear_overlay(self) -> None:
        self.canvas.delete("overlay")
        self.detail.configure(text="")
        self.status.configure(text="No overlay loaded", bg=IDLE_BG)

    def overlay(self) -> None:
        self.canvas.delete("overlay")
        path = os.path.join(WORKSPACE, DXF_REL)
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                shapes = parse_dxf(fh.read())
        except FileNotFoundError:
            self.detail.configure(text=f"{DXF_REL} not found in the workspace.")
            self.status.configure(text="OVERLAY FAILED - no out/plan.dxf", bg=BAD_BG)
            return
        except (OSError, ValueError) as exc:
            self.detail.configure(text=f"Cannot read {DXF_REL}: {exc}")
            self.status.configure(text="OVERLAY FAILED - unreadable DXF", bg=BAD_BG)
            return
        for pts in shapes.values():
            if len(pts) >= 2:
                flat = [v for p in pts for v in to_canvas(*p)]
                self.canvas.create_polygon(*flat, fill="", outline="#d400d4", width=2,
                                           dash=(6, 4), tags=("overlay",))
        ok, notes = 0, []
        for name, ref in ELEMENTS.items():
            got = shapes.get(name)
            if got is None:
                notes.append(f"{name}: missing layer")
            elif same_ring(got, ref):
                ok += 1
            else:
                notes.append(f"{name}: outline differs from survey")
        extra = sorted(set(shapes) - set(ELEMENTS))
        if extra:
            notes.append("extra layers: " + ", ".join(extra))
        total = len(ELEMENTS)
        lines = [f"{len(shapes)} LWPOLYLINE layer(s) read from {DXF_REL}",
                 f"{ok}/{total} outlines match the survey (tolerance 1 mm)"] + notes[:6]
        self.detail.configure(text="\n".join(lines))
        if ok == total and not extra:
            self.status.configure(text=f"OVERLAY OK - {ok}/{total} outlines match", bg=OK_BG)
        else:
            self.status.configure(text=f"OVERLAY MISMATCH - {ok}/{total} match", bg=BAD_BG)


def main() -> None:
    root = tk.Tk()
    PlanView(root)
    root.mainloop()


if __name__ == "__main__":
    main()
