#!/usr/bin/env python3
"""Sync Control Panel: the desktop side of a Syncthing-style pairing (WeaveBench DSK task).

Shows this desktop's device ID and folder IDs (only here: they are not in the agent's
workspace) and, on the "Server Check" tab, reads the agent's workspace read-only
(``/run/realcli/workspace/server/config.xml``) to tell whether nas01's configuration now
pairs with this desktop; when it does, it shows a pairing confirmation code.

Usage: panel.py [WORKSPACE]   (default /run/realcli/workspace)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import sys
import time
import tkinter as tk
import xml.etree.ElementTree as ET
from pathlib import Path
from tkinter import ttk

HERE = Path(__file__).resolve().parent
DATA = json.loads((HERE / "panel_data.json").read_text(encoding="utf-8"))
WORKSPACE = Path(sys.argv[1] if len(sys.argv) > 1 else "/run/realcli/workspace")

FONT = ("DejaVu Sans", 11)
BOLD = ("DejaVu Sans", 11, "bold")
TITLE = ("DejaVu Sans", 15, "bold")
MONO = ("DejaVu Sans Mono", 11)
BIG = ("DejaVu Sans", 16, "bold")
RED, GREEN, GREY = "#c62828", "#2e7d32", "#757575"

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
FOLDER_ID = re.compile(r"^[a-z0-9]{5}-[a-z0-9]{5}$")
CANONICAL = re.compile(r"^[A-Z2-7]{7}(-[A-Z2-7]{7}){7}$")


# ------------------------------------------------------------------ config checks
def _luhn32(data: str) -> str:
    factor, total = 1, 0
    for ch in data:
        addend = factor * ALPHABET.index(ch)
        factor = 1 if factor == 2 else 2
        total += addend // 32 + addend % 32
    return ALPHABET[(32 - total % 32) % 32]


def _id_ok(device_id: str) -> bool:
    if not CANONICAL.match(device_id):
        return False
    flat = device_id.replace("-", "")
    return all(_luhn32(flat[i * 14 : i * 14 + 13]) == flat[i * 14 + 13] for i in range(4))


def _errors(root: ET.Element) -> list[str]:
    errors: list[str] = []
    devices: set[str] = set()
    names: set[str] = set()
    for dev in root.findall("device"):
        did, name = dev.get("id", ""), dev.get("name", "")
        if not _id_ok(did):
            errors.append(f"device {name or '?'}: malformed device ID")
        if not name or name in names:
            errors.append(f"device {did[:7]}...: missing or duplicate name")
        if did in devices:
            errors.append(f"device {name}: listed twice")
        names.add(name)
        devices.add(did)
    fids: set[str] = set()
    paths: set[str] = set()
    for folder in root.findall("folder"):
        fid, path = folder.get("id", ""), folder.get("path", "")
        label = folder.get("label", "") or fid
        if not FOLDER_ID.match(fid) or fid in fids:
            errors.append(f"folder {label}: bad or duplicate folder ID")
        fids.add(fid)
        if not path.startswith("/") or path in paths:
            errors.append(f"folder {label}: bad or duplicate path")
        paths.add(path)
        members = [d.get("id", "") for d in folder.findall("device")]
        if len(set(members)) != len(members):
            errors.append(f"folder {label}: a device is listed twice")
        for member in members:
            if member not in devices:
                errors.append(f"folder {label}: shared with an unknown device")
    return errors


def check_server(workspace: Path) -> tuple[list[tuple[bool, str]], list[str]]:
    """Checklist items (ok, text) and error details for nas01's config in the workspace."""
    me = DATA["device_id"]
    folders = {f["label"]: f for f in DATA["folders"]}
    path = workspace / DATA["server"]["config"]
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        return [(False, f"{DATA['server']['config']} not found in the workspace")], []
    except (OSError, ET.ParseError) as exc:
        return [(False, f"{DATA['server']['config']} is not well-formed XML")], [str(exc)]
    errors = _errors(root) if root.tag == "configuration" else ["root is not <configuration>"]
    items = [(not errors, "nas01 config.xml passes validation")]
    mine = [d for d in root.findall("device") if d.get("id") == me]
    items.append(
        (
            len(mine) == 1 and mine[0].get("name") == DATA["device_name"],
            f"nas01 knows this device as '{DATA['device_name']}' (device ID matches)",
        )
    )
    by_id = {f.get("id"): f for f in root.findall("folder")}
    for label in ("Documents", "Photos"):
        info = folders[label]
        node = by_id.get(info["id"])
        ok = node is not None and any(d.get("id") == me for d in node.findall("device"))
        if label == "Photos":
            ok = ok and node is not None and node.get("path") == DATA["server"]["photos_path"]
        items.append((ok, f"folder '{label}' ({info['id']}) is shared with this device"))
    music = folders["Music"]
    items.append((music["id"] not in by_id, "folder 'Music' stays off nas01 (not backed up)"))
    return items, errors


def pairing_code() -> str:
    f = {x["label"]: x["id"] for x in DATA["folders"]}
    msg = f"{DATA['device_id']}|{f['Documents']}|{f['Photos']}".encode()
    digest = hmac.new(DATA["secret"].encode(), msg, hashlib.sha256).digest()
    code = base64.b32encode(digest).decode()[:8]
    return f"PAIR-{code[:4]}-{code[4:]}"


# ------------------------------------------------------------------ widgets
def ro_entry(parent: tk.Widget, text: str, width: int) -> tk.Entry:
    """A read-only, selectable entry (triple-click selects it into the X selection)."""
    var = tk.StringVar(value=text)
    entry = tk.Entry(
        parent,
        textvariable=var,
        width=width,
        font=MONO,
        state="readonly",
        readonlybackground="#ffffff",
        relief="solid",
        bd=1,
        exportselection=True,
    )
    entry.var = var  # type: ignore[attr-defined]
    return entry


class Panel:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        root.title(f"Sync Control Panel - {DATA['device_name']}")
        root.geometry("1024x768+0+0")
        root.attributes("-fullscreen", True)
        root.configure(bg="#eceff1")
        style = ttk.Style(root)
        style.theme_use("clam")
        style.configure("TNotebook.Tab", font=BOLD, padding=(18, 8))
        style.configure("TFrame", background="#fafafa")
        style.configure("TLabel", background="#fafafa", font=FONT)

        head = tk.Frame(root, bg="#263238", height=56)
        head.pack(fill="x")
        head.pack_propagate(False)
        tk.Label(head, text="Sync Control Panel", font=TITLE, fg="white", bg="#263238").pack(
            side="left", padx=16
        )
        tk.Label(
            head,
            text=f"{DATA['device_name']} ({DATA['hostname']})  ·  {DATA['version']}",
            font=FONT,
            fg="#cfd8dc",
            bg="#263238",
        ).pack(side="right", padx=16)

        nb = ttk.Notebook(root)
        nb.pack(fill="both", expand=True, padx=12, pady=12)
        self.nb = nb
        nb.add(self._device_tab(nb), text="This Device")
        nb.add(self._folders_tab(nb), text="Folders")
        nb.add(self._remotes_tab(nb), text="Remote Devices")
        nb.add(self._server_tab(nb), text="Server Check")

    # -- tabs ---------------------------------------------------------------------
    def _device_tab(self, nb: ttk.Notebook) -> ttk.Frame:
        f = ttk.Frame(nb, padding=24)
        ttk.Label(f, text="Identification", font=BIG).grid(row=0, column=0, sticky="w")
        ttk.Label(
            f,
            text="Give this device ID to the other devices so they can add this device.",
        ).grid(row=1, column=0, columnspan=2, sticky="w", pady=(6, 18))
        rows = [("Device name", DATA["device_name"]), ("Device ID", DATA["device_id"])]
        for i, (k, v) in enumerate(rows, start=2):
            ttk.Label(f, text=k, font=BOLD).grid(row=i, column=0, sticky="w", pady=8)
            ro_entry(f, v, 66).grid(row=i, column=1, sticky="w", padx=12, pady=8, ipady=4)
        ttk.Label(f, text="Listening on", font=BOLD).grid(row=4, column=0, sticky="w", pady=8)
        ttk.Label(f, text=DATA["listen"]).grid(row=4, column=1, sticky="w", padx=12)
        ttk.Label(f, text="Uptime", font=BOLD).grid(row=5, column=0, sticky="w", pady=8)
        ttk.Label(f, text="3d 04h 12m").grid(row=5, column=1, sticky="w", padx=12)
        return f

    def _folders_tab(self, nb: ttk.Notebook) -> ttk.Frame:
        f = ttk.Frame(nb, padding=24)
        ttk.Label(f, text="Folders", font=BIG).grid(row=0, column=0, sticky="w")
        ttk.Label(
            f,
            text="A folder syncs between two devices only when both use the same folder ID.",
        ).grid(row=1, column=0, columnspan=4, sticky="w", pady=(6, 18))
        for c, h in enumerate(("Folder", "Folder ID", "Local path", "Shared with")):
            ttk.Label(f, text=h, font=BOLD).grid(row=2, column=c, sticky="w", padx=8, pady=4)
        for r, info in enumerate(DATA["folders"], start=3):
            ttk.Label(f, text=info["label"]).grid(row=r, column=0, sticky="w", padx=8, pady=10)
            ro_entry(f, info["id"], 13).grid(row=r, column=1, sticky="w", padx=8, ipady=4)
            ttk.Label(f, text=info["path"]).grid(row=r, column=2, sticky="w", padx=8)
            ttk.Label(f, text=info["shared"]).grid(row=r, column=3, sticky="w", padx=8)
        ttk.Label(
            f,
            text="Music is not backed up to nas01 (too large); it syncs with the laptop only.",
            foreground=GREY,
        ).grid(row=3 + len(DATA["folders"]), column=0, columnspan=4, sticky="w", pady=(18, 0))
        return f

    def _remotes_tab(self, nb: ttk.Notebook) -> ttk.Frame:
        f = ttk.Frame(nb, padding=24)
        ttk.Label(f, text="Remote Devices", font=BIG).grid(row=0, column=0, sticky="w")
        r = 1
        for info in DATA["remotes"]:
            ttk.Label(f, text=info["name"], font=BOLD).grid(
                row=r, column=0, sticky="w", pady=(18, 2)
            )
            ttk.Label(f, text=info["status"]).grid(row=r, column=1, sticky="w", padx=12)
            ro_entry(f, info["id"], 66).grid(row=r + 1, column=0, columnspan=2, sticky="w", ipady=4)
            r += 2
        return f

    def _server_tab(self, nb: ttk.Notebook) -> ttk.Frame:
        f = ttk.Frame(nb, padding=24)
        ttk.Label(f, text="Server Check: nas01", font=BIG).grid(row=0, column=0, sticky="w")
        ttk.Label(
            f,
            text="Reads nas01's configuration from the admin workspace "
            f"({DATA['server']['config']}) and checks that it pairs with this device.",
        ).grid(row=1, column=0, columnspan=2, sticky="w", pady=(6, 12))
        row = ttk.Frame(f)
        row.grid(row=2, column=0, columnspan=2, sticky="w")
        tk.Button(
            row, text="Check nas01 config", font=BOLD, command=self.run_check, padx=14, pady=6
        ).pack(side="left")
        self.checked = ttk.Label(row, text="Not checked yet.", foreground=GREY)
        self.checked.pack(side="left", padx=16)
        self.banner = tk.Label(
            f,
            text="NOT CHECKED",
            font=("DejaVu Sans", 20, "bold"),
            fg="white",
            bg=GREY,
            width=40,
            height=2,
        )
        self.banner.grid(row=3, column=0, columnspan=2, sticky="w", pady=16)
        self.items = tk.Label(
            f, text="", font=FONT, justify="left", bg="#fafafa", anchor="nw", height=5
        )
        self.items.grid(row=4, column=0, columnspan=2, sticky="w")
        ttk.Label(f, text="Pairing confirmation code", font=BOLD).grid(
            row=5, column=0, sticky="w", pady=(18, 4)
        )
        self.code = ro_entry(f, "", 16)
        self.code.grid(row=6, column=0, sticky="w", ipady=4)
        self.details = tk.Label(
            f, text="", font=("DejaVu Sans Mono", 10), justify="left", fg=RED, bg="#fafafa"
        )
        self.details.grid(row=7, column=0, columnspan=2, sticky="w", pady=(12, 0))
        return f

    def run_check(self) -> None:
        items, errors = check_server(WORKSPACE)
        ok = all(good for good, _ in items)
        self.items.configure(
            text="\n".join(f"{'✔' if good else '✘'}  {text}" for good, text in items)
        )
        self.details.configure(text="\n".join(errors[:4]))
        if ok:
            self.banner.configure(text="PAIRED WITH nas01", bg=GREEN)
            self.code.var.set(pairing_code())  # type: ignore[attr-defined]
        else:
            self.banner.configure(text="NOT PAIRED", bg=RED)
            self.code.var.set("")  # type: ignore[attr-defined]
        self.checked.configure(text=f"Last checked {time.strftime('%H:%M:%S')}")


def main() -> None:
    root = tk.Tk()
    Panel(root)
    root.mainloop()


if __name__ == "__main__":
    main()
