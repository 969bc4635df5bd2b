#!/usr/bin/env python3
"""Brand Inspector: the Fernway 2025 brand palette, and a live preview of the website folder.

The palette (the brand team's source of truth) exists only here: clicking a colour shows its
hex value in a read-only, selectable readout. The right half renders the project's
``site/`` folder (read-only mount of the workspace): tokens.css custom properties,
components.css rules and logo.svg, and audits them against the palette.
"""

from __future__ import annotations

import os
import re
import sys
import tkinter as tk
import xml.etree.ElementTree as ET

TITLE = "Brand Inspector - Fernway 2025"
WORKSPACE = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "BRAND_WORKSPACE", "/run/realcli/workspace"
)

# name, token, hex: the 2025 brand palette
PALETTE = [
    ("Primary", "--color-primary", "#0A6E5C"),
    ("Primary dark", "--color-primary-dark", "#064A3E"),
    ("Accent", "--color-accent", "#F2B53A"),
    ("Surface", "--color-surface", "#FBF7EF"),
    ("Ink", "--color-ink", "#1E2430"),
    ("Muted", "--color-muted", "#8A8F98"),
    ("White", "(no token)", "#FFFFFF"),
]
BRAND_HEX = {h for _, _, h in PALETTE}
TOKENS = {tok: h for _, tok, h in PALETTE if tok.startswith("--")}

OK_BG, BAD_BG = "#1b873f", "#c62828"
FONT = ("DejaVu Sans", 11)
FONT_B = ("DejaVu Sans", 11, "bold")
FONT_S = ("DejaVu Sans", 9)
FONT_H = ("DejaVu Sans", 18, "bold")
MONO = ("DejaVu Sans Mono", 13)

HEX_RE = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
FALLBACK = "#9e9e9e"

ROW_Y0, ROW_H = 80, 58


def norm_hex(value: str) -> str | None:
    value = value.strip()
    m = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", value)
    if not m:
        named = {"white": "#FFFFFF", "black": "#000000"}
        return named.get(value.lower())
    h = m.group(1)
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return "#" + h.upper()


def strip_comments(css: str) -> str:
    """Drop /* ... */ comments, keeping their newlines (so line numbers stay right)."""
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), css, flags=re.S)


def parse_rules(css: str) -> dict[str, dict[str, str]]:
    rules: dict[str, dict[str, str]] = {}
    for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", strip_comments(css)):
        decls = rules.setdefault(" ".join(sel.split()), {})
        for decl in body.split(";"):
            if ":" in decl:
                prop, val = decl.split(":", 1)
                decls[prop.strip()] = val.strip()
    return rules


def read(rel: str) -> str:
    try:
        with open(os.path.join(WORKSPACE, rel), encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""


class Design:
    """What the preview shows: resolved colours of the site, and the audit."""

    def __init__(self) -> None:
        tokens_css = read("site/tokens.css")
        comp_css = read("site/components.css")
        svg = read("site/logo.svg")
        self.vars: dict[str, str] = {}
        for decls in parse_rules(tokens_css).values():
            for k, v in decls.items():
                if k.startswith("--"):
                    self.vars[k] = v
        self.rules = parse_rules(comp_css)
        self.issues: list[str] = []
        self.token_ok = 0
        for tok, brand in TOKENS.items():
            got = self.resolve(self.vars.get(tok, ""))
            if got == brand:
                self.token_ok += 1
            else:
                self.issues.append(f"tokens.css {tok}: {self.vars.get(tok, 'missing')}")
        self.off_brand = 0
        for rel, text in (("tokens.css", tokens_css), ("components.css", comp_css),
                          ("logo.svg", svg)):
            for lineno, line in enumerate(strip_comments(text).splitlines(), 1):
                for m in HEX_RE.finditer(line):
                    if norm_hex(m.group(0)) not in BRAND_HEX:
                        self.off_brand += 1
                        self.issues.append(f"{rel}:{lineno}: off-brand colour {m.group(0)}")
        self.shapes: list[tuple[str, dict[str, str], str]] = []
        try:
            root = ET.fromstring(svg) if svg else None
        except ET.ParseError as exc:
            root = None
            self.issues.append(f"logo.svg: not well-formed ({exc})")
        if root is not None:
            for el in root.iter():
                tag = el.tag.split("}")[-1]
                if tag not in ("circle", "rect"):
                    continue
                fill = el.get("fill", "")
                m = re.search(r"fill\s*:\s*([^;]+)", el.get("style", ""))
                if m:
                    fill = m.group(1)
                colour = norm_hex(fill)
                if colour is None:
                    self.issues.append(f"logo.svg #{el.get('id', tag)}: fill {fill!r} is not a colour literal")
                    self.off_brand += 1
                self.shapes.append((tag, dict(el.attrib), colour or FALLBACK))
        self.ok = self.token_ok == len(TOKENS) and self.off_brand == 0

    def resolve(self, value: str, depth: int = 0) -> str | None:
        value = value.strip()
        m = re.fullmatch(r"var\(\s*(--[\w-]+)\s*(?:,\s*(.+))?\)", value)
        if m and depth < 8:
            if m.group(1) in self.vars:
                return self.resolve(self.vars[m.group(1)], depth + 1)
            return self.resolve(m.group(2) or "", depth + 1)
        return norm_hex(value)

    def colour(self, selector: str, prop: str, default: str = FALLBACK) -> str:
        decls = self.rules.get(selector, {})
        value = decls.get(prop)
        if value is None and prop == "border-color":
            value = decls.get("border", "").split()[-1] if decls.get("border") else None
        if value is None and prop == "border-top-color":
            value = decls.get("border-top", "").split()[-1] if decls.get("border-top") else None
        got = self.resolve(value) if value else None
        return got or default


class Inspector:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        root.title(TITLE)
        root.geometry("1024x768+0+0")
        root.attributes("-fullscreen", True)  # no window decorations: stable coordinates
        root.configure(bg="#eceff3")
        root.resizable(False, False)
        self.reloads = 0

        tk.Label(root, text="Brand Inspector  |  Fernway brand guidelines 2025", font=FONT_B,
                 bg="#263238", fg="white", anchor="w", padx=10).place(x=0, y=0, width=1024,
                                                                         height=30)
        # ---------------------------------------------------------------- palette
        self.pal = tk.Canvas(root, bg="#eceff3", highlightthickness=0)
        self.pal.place(x=0, y=30, width=330, height=738)
        self.pal.create_text(16, 24, text="Brand palette", font=FONT_H, anchor="w")
        for i, (name, token, hexv) in enumerate(PALETTE):
            y = ROW_Y0 + ROW_H * i - 30
            tag = f"row{i}"
            self.pal.create_rectangle(8, y, 322, y + ROW_H - 4, fill="#f8f9fb", outline="#d5dae1",
                                      tags=(tag, "rowbg"))
            self.pal.create_rectangle(16, y + 6, 62, y + 48, fill=hexv, outline="#90a4ae",
                                      tags=(tag,))
            self.pal.create_text(76, y + 16, text=name, font=FONT_B, anchor="w", tags=(tag,))
            self.pal.create_text(76, y + 38, text=token, font=FONT_S, anchor="w",
                                 fill="#546e7a", tags=(tag,))
            self.pal.tag_bind(tag, "<Button-1>", lambda _e, k=i: self.select(k))
        self.sel_label = tk.Label(root, text="Selected: (click a colour)", font=FONT_B,
                                  bg="#eceff3", anchor="w")
        self.sel_label.place(x=16, y=500, width=300)
        tk.Label(root, text="Hex (sRGB)", font=FONT_S, bg="#eceff3").place(x=16, y=526)
        self.readout_var = tk.StringVar(value="")
        self.readout = tk.Entry(root, textvariable=self.readout_var, font=MONO, state="readonly",
                                readonlybackground="white", selectbackground="#ffd75e",
                                selectforeground="black")
        self.readout.place(x=16, y=546, width=200, height=32)
        self.big = tk.Canvas(root, width=80, height=80, bg="#eceff3", highlightthickness=0)
        self.big.place(x=232, y=500)
        tk.Label(root, text="Click a colour to inspect it.\nThe readout text can be selected.",
                 font=FONT_S, bg="#eceff3", justify="left").place(x=16, y=592)

        # ---------------------------------------------------------------- preview
        tk.Label(root, text="Live preview: site/index.html (workspace)", font=FONT_B,
                 bg="#eceff3").place(x=346, y=40)
        self.reload_btn = tk.Button(root, text="Reload preview", font=FONT, command=self.reload)
        self.reload_btn.place(x=860, y=36, width=150, height=30)
        self.view = tk.Canvas(root, bg="white", highlightthickness=1,
                              highlightbackground="#b0bec5")
        self.view.place(x=340, y=74, width=674, height=634)
        self.status = tk.Label(root, text="", font=FONT_B, fg="white", anchor="w", padx=10)
        self.status.place(x=330, y=718, width=694, height=50)
        self.reload()

    def select(self, i: int) -> None:
        name, _token, hexv = PALETTE[i]
        self.pal.itemconfigure("rowbg", fill="#f8f9fb", outline="#d5dae1")
        for item in self.pal.find_withtag(f"row{i}"):
            if "rowbg" in self.pal.gettags(item):
                self.pal.itemconfigure(item, fill="#dbe9ff", outline="#3465a4")
        self.sel_label.configure(text=f"Selected: {name}")
        self.readout_var.set(hexv)
        self.readout.selection_clear()
        self.big.delete("all")
        self.big.create_rectangle(2, 2, 78, 78, fill=hexv, outline="#90a4ae")

    # ------------------------------------------------------------------ preview
    def reload(self) -> None:
        self.reloads += 1
        d = Design()
        c = self.view
        c.delete("all")
        W = 674
        body_bg = d.colour("body", "background")
        ink = d.colour("body", "color", "#000000")
        c.create_rectangle(0, 0, W, 440, fill=body_bg, outline="")
        # header
        c.create_rectangle(0, 0, W, 86, fill=d.colour(".site-header", "background"), outline="")
        c.create_rectangle(10, 7, 82, 79, fill="#FFFFFF", outline="")
        self.draw_logo(c, d, 14, 11, 64)
        on_primary = d.colour(".site-header", "color", "#000000")
        hover = d.colour(".site-header a:hover", "background")
        c.create_rectangle(200, 28, 282, 58, fill=hover, outline="")
        for x, label in ((120, "Trips"), (210, "Guides"), (300, "About")):
            c.create_text(x, 43, text=label, font=FONT_B, fill=on_primary, anchor="w")
        # card
        card_bg = d.colour(".card", "background", "#FFFFFF")
        c.create_rectangle(36, 116, W - 36, 410, fill=card_bg, outline="#dddddd")
        c.create_rectangle(36, 116, W - 36, 124, fill=d.colour(".card", "border-top-color"),
                           outline="")
        c.create_text(60, 160, text="Walk the fern coast", font=("DejaVu Sans", 20, "bold"),
                      fill=ink, anchor="w")
        c.create_text(60, 200, text="Seven days, 92 km, small groups.", font=FONT,
                      fill=d.colour(".caption", "color"), anchor="w")
        c.create_text(60, 236, text="Read the itinerary", font=("DejaVu Sans", 11, "underline"),
                      fill=d.colour(".link", "color"), anchor="w")
        c.create_rectangle(60, 280, 250, 336, fill=d.colour(".btn-primary", "border-color"),
                           outline="")
        c.create_rectangle(63, 283, 247, 333, fill=d.colour(".btn-primary", "background"),
                           outline="")
        c.create_text(155, 308, text="Book now", font=("DejaVu Sans", 14, "bold"),
                      fill=d.colour(".btn-primary", "color", "#000000"))
        # audit details
        c.create_text(16, 458, text=f"Audit (reload #{self.reloads}): tokens "
                      f"{d.token_ok}/{len(TOKENS)} match the palette, "
                      f"{d.off_brand} off-brand colour(s)", font=FONT_B, anchor="w")
        for k, issue in enumerate(d.issues[:8]):
            c.create_text(16, 484 + 18 * k, text=issue, font=FONT_S, anchor="w", fill="#333333")
        if len(d.issues) > 8:
            c.create_text(16, 484 + 18 * 8, text=f"... and {len(d.issues) - 8} more",
                          font=FONT_S, anchor="w", fill="#333333")
        if d.ok:
            self.status.configure(text=f"BRAND AUDIT OK - {d.token_ok}/{len(TOKENS)} tokens, "
                                  "0 off-brand colours", bg=OK_BG)
        else:
            self.status.configure(text=f"BRAND AUDIT FAILED - {d.token_ok}/{len(TOKENS)} tokens,"
                                  f" {d.off_brand} off-brand colour(s)", bg=BAD_BG)

    @staticmethod
    def draw_logo(c: tk.Canvas, d: Design, x0: float, y0: float, size: float) -> None:
        k = size / 120.0

        def num(attrs: dict[str, str], key: str) -> float:
            try:
                return float(attrs.get(key, "0"))
            except ValueError:
                return 0.0

        for tag, a, colour in d.shapes:
            if tag == "circle":
                cx, cy, r = num(a, "cx"), num(a, "cy"), num(a, "r")
                c.create_oval(x0 + (cx - r) * k, y0 + (cy - r) * k, x0 + (cx + r) * k,
                              y0 + (cy + r) * k, fill=colour, outline="")
            else:
                x, y, w, h = num(a, "x"), num(a, "y"), num(a, "width"), num(a, "height")
                c.create_rectangle(x0 + x * k, y0 + y * k, x0 + (x + w) * k, y0 + (y + h) * k,
                                   fill=colour, outline="")


def main() -> None:
    root = tk.Tk()
    Inspector(root)
    root.mainloop()


if __name__ == "__main__":
    main()
