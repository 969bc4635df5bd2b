#!/usr/bin/env python3
"""DocView: a document viewer showing the signed PDF of PRS-SPEC-004 (WeaveBench DOC task).

The signed revision table and the reviewer comments exist only here (they are not in the
agent's workspace). "Compare with source" reads the agent's workspace read-only
(``/run/realcli/workspace``: docs/spec.md, review/comments.csv, out/review_report.md) and
shows whether the Markdown source, the review tracker and the report match the signed copy.

Usage: docview.py [WORKSPACE]   (default /run/realcli/workspace)
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
import time
import tkinter as tk
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = json.loads((HERE / "viewer_data.json").read_text(encoding="utf-8"))
WORKSPACE = Path(sys.argv[1] if len(sys.argv) > 1 else "/run/realcli/workspace")

UI = ("DejaVu Sans", 10)
UI_BOLD = ("DejaVu Sans", 10, "bold")
HEAD = ("DejaVu Sans", 13, "bold")
PAGE = ("DejaVu Sans Mono", 9)
PAGE_BOLD = ("DejaVu Sans Mono", 9, "bold")
LIST = ("DejaVu Sans Mono", 10)
RED, GREEN, GREY = "#c62828", "#2e7d32", "#757575"
W, H = 1024, 768


# ------------------------------------------------------------------ source comparison
def _front_matter(text: str) -> dict[str, str]:
    lines = text.splitlines()
    meta: dict[str, str] = {}
    if not lines or lines[0].strip() != "---":
        return meta
    for line in lines[1:]:
        if line.strip() == "---":
            break
        key, sep, value = line.partition(":")
        if sep:
            meta[key.strip()] = value.strip()
    return meta


def _revision_rows(text: str) -> list[list[str]]:
    rows: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Revision history"
            continue
        if inside and line.strip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells and cells[0] != "Rev" and not set("".join(cells)) <= set("-: "):
                rows.append(cells)
    return rows


def compare(ws: Path) -> list[tuple[bool, str]]:
    """Checklist (ok, text): does the workspace match the signed copy shown here?"""
    items: list[tuple[bool, str]] = []
    try:
        spec_b = (ws / "docs/spec.md").read_bytes()
        spec = spec_b.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return [(False, "docs/spec.md cannot be read")]
    meta = _front_matter(spec)
    items.append(
        (
            meta.get("version") == DATA["version"] and meta.get("status") == "approved",
            f"front matter: version {DATA['version']}, status approved",
        )
    )
    want = [list(r) for r in DATA["revisions"]]
    items.append(
        (_revision_rows(spec) == want, f"revision history = signed table ({len(want)} rows)")
    )
    try:
        csv_b = (ws / "review/comments.csv").read_bytes()
        rows = list(csv.reader(io.StringIO(csv_b.decode("utf-8"))))
    except (OSError, UnicodeDecodeError, csv.Error):
        csv_b, rows = b"", []
    got = sorted([c.strip() for c in r] for r in rows[1:] if r)
    wanted = sorted(list(c) for c in DATA["comments"])
    tracked = sum(1 for c in wanted if c in got)
    ok = bool(rows) and rows[0] == ["id", "section", "reviewer", "status", "comment"]
    items.append(
        (
            ok and got == wanted,
            f"comments.csv tracks all {len(wanted)} comments ({tracked} match)",
        )
    )
    digest = hashlib.sha256(spec_b + b"\0" + csv_b).hexdigest()[:16]
    try:
        report = (ws / "out/review_report.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        report = ""
    items.append(
        (
            f"- Source digest: {digest}" in report,
            "out/review_report.md is current" if report else "out/review_report.md missing",
        )
    )
    return items


# ------------------------------------------------------------------ rendering
def _table(rows: list[list[str]], widths: list[int]) -> list[str]:
    def line(left: str, mid: str, right: str) -> str:
        return left + mid.join("─" * (w + 2) for w in widths) + right

    def cells(row: list[str]) -> str:
        return "│" + "│".join(f" {c:<{w}} " for c, w in zip(row, widths, strict=True)) + "│"

    out = [line("┌", "┬", "┐"), cells(["Rev", "Date", "Author", "Approved by", "Change"])]
    out.append(line("├", "┼", "┤"))
    out += [cells(r) for r in rows]
    out.append(line("└", "┴", "┘"))
    return out


class Viewer:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        root.title(f"DocView - {DATA['file']}")
        root.geometry(f"{W}x{H}+0+0")
        root.attributes("-fullscreen", True)
        root.configure(bg="#cfd8dc")
        self.show_resolved = tk.BooleanVar(value=False)

        bar = tk.Frame(root, bg="#37474f")
        bar.place(x=0, y=0, width=W, height=44)
        tk.Label(bar, text="DocView", font=HEAD, fg="white", bg="#37474f").place(x=12, y=9)
        tk.Label(
            bar,
            text=f"{DATA['file']}  ·  read-only  ·  page 1 of 1",
            font=UI,
            fg="#eceff1",
            bg="#37474f",
        ).place(x=120, y=13)

        self.page = tk.Text(
            root,
            font=PAGE,
            wrap="none",
            bg="white",
            relief="solid",
            bd=1,
            padx=14,
            pady=12,
            cursor="xterm",
            exportselection=True,
        )
        self.page.place(x=8, y=52, width=726, height=418)
        self.page.tag_configure("b", font=PAGE_BOLD)
        self._fill_page()

        side = tk.Frame(root, bg="#eceff1", relief="solid", bd=1)
        side.place(x=742, y=52, width=274, height=418)
        tk.Label(side, text="Source sync", font=UI_BOLD, bg="#eceff1").place(x=10, y=8)
        tk.Label(
            side,
            text="Compare this signed copy with the\nMarkdown source workspace.",
            font=UI,
            bg="#eceff1",
            justify="left",
        ).place(x=10, y=30)
        tk.Button(side, text="Compare with source", font=UI_BOLD, command=self.run_compare).place(
            x=10, y=74, width=250, height=32
        )
        self.banner = tk.Label(
            side, text="NOT COMPARED", font=("DejaVu Sans", 13, "bold"), fg="white", bg=GREY
        )
        self.banner.place(x=10, y=116, width=250, height=50)
        self.items = tk.Label(
            side,
            text="",
            font=("DejaVu Sans", 9),
            bg="#eceff1",
            justify="left",
            anchor="nw",
            wraplength=250,
        )
        self.items.place(x=10, y=176, width=254, height=200)
        self.when = tk.Label(side, text="", font=("DejaVu Sans", 9), fg=GREY, bg="#eceff1")
        self.when.place(x=10, y=384)

        head = tk.Frame(root, bg="#cfd8dc")
        head.place(x=8, y=476, width=1008, height=30)
        self.count = tk.Label(head, text="", font=UI_BOLD, bg="#cfd8dc")
        self.count.place(x=0, y=4)
        tk.Checkbutton(
            head,
            text="Show resolved",
            font=UI,
            variable=self.show_resolved,
            command=self._fill_comments,
            bg="#cfd8dc",
            activebackground="#cfd8dc",
        ).place(x=860, y=2)
        self.comments = tk.Text(
            root,
            font=LIST,
            wrap="none",
            bg="#fffde7",
            relief="solid",
            bd=1,
            padx=10,
            pady=8,
            cursor="xterm",
            exportselection=True,
            spacing1=3,
            spacing3=3,
        )
        self.comments.place(x=8, y=508, width=1008, height=252)
        self._fill_comments()

    # -- content ------------------------------------------------------------------
    def _fill_page(self) -> None:
        t = self.page
        t.configure(state="normal")
        t.delete("1.0", "end")
        t.insert("end", f"{DATA['doc_id']}", "b")
        t.insert("end", f"{'Version ' + DATA['version'] + ' · APPROVED':>76}\n", "b")
        t.insert("end", f"{DATA['title']}\n\n", "b")
        t.insert("end", "Revision history\n", "b")
        rows = [list(r) for r in DATA["revisions"]]
        widths = [
            max(len(h), *(len(r[i]) for r in rows))
            for i, h in enumerate(["Rev", "Date", "Author", "Approved by", "Change"])
        ]
        for line in _table(rows, widths):
            t.insert("end", line + "\n")
        t.insert("end", f"{DATA['signed']}\n\n")
        for line in DATA["body"]:
            t.insert("end", line + "\n", "b" if line[:1].isdigit() else ())
        t.configure(state="disabled")

    def _fill_comments(self) -> None:
        all_c = DATA["comments"]
        n_res = sum(c[3] == "resolved" for c in all_c)
        shown = [c for c in all_c if self.show_resolved.get() or c[3] != "resolved"]
        hidden = "" if self.show_resolved.get() else " (hidden)"
        self.count.configure(
            text=f"Reviewer comments: {len(all_c) - n_res} open, {n_res} resolved{hidden}"
        )
        t = self.comments
        t.configure(state="normal")
        t.delete("1.0", "end")
        for cid, sec, who, status, text in shown:
            t.insert("end", f"{cid} │ §{sec:<4}│ {who:<13}│ {status:<9}│ {text}\n")
        t.configure(state="disabled")

    def run_compare(self) -> None:
        items = compare(WORKSPACE)
        ok = all(good for good, _ in items)
        self.banner.configure(
            text="SOURCE IN SYNC" if ok else "OUT OF SYNC", bg=GREEN if ok else RED
        )
        self.items.configure(
            text="\n".join(f"{'✔' if good else '✘'} {text}" for good, text in items)
        )
        self.when.configure(text=f"Compared {time.strftime('%H:%M:%S')}")


def main() -> None:
    root = tk.Tk()
    Viewer(root)
    root.mainloop()


if __name__ == "__main__":
    main()
