#!/usr/bin/env python3
"""Ops Console for payments-prod: health checks over the workspace's configs (mounted
read-only), the scheduler's live registry and the open incident. Hidden state: state.json.

The checks read the agent's workspace each time "Run checks" (or "Resolve incident") is
pressed, so the console reflects fixes made on the command line.
"""

import configparser
import json
import os
import re
import sys
import time
import tkinter as tk
from pathlib import Path

HERE = Path(__file__).resolve().parent
WS = Path(sys.argv[1] if len(sys.argv) > 1 else "/run/realcli/workspace")

W, H = 1024, 768
RED, GREEN, DARKGREEN, GREY, AMBER = "#c62828", "#2e7d32", "#1b5e20", "#9e9e9e", "#ef6c00"
F = ("DejaVu Sans", 11)
FB = ("DejaVu Sans", 11, "bold")
FT = ("DejaVu Sans", 14, "bold")
FM = ("DejaVu Sans Mono", 11)
BG = "#f5f5f5"


def _read(rel: str) -> bytes:
    return (WS / rel).read_bytes()


class Checks:
    def __init__(self, state: dict) -> None:
        self.s = state
        self.reg = {r["service"]: r for r in state["registry"]}

    def run(self) -> list[tuple[str, str, str]]:
        out = []
        upstream_ok = False
        # 1. edge-proxy -> api upstream
        try:
            conf = _read("proxy/routes.conf").decode("utf-8", "replace")
            conf_nc = re.sub(r"#[^\n]*", "", conf)
            m = re.search(r"upstream\s+api_backend\s*\{(.*?)\}", conf_nc, re.S)
            servers = re.findall(r"^\s*server\s+([^\s;]+)", m.group(1), re.M) if m else []
            want = self.reg["api"]["addr"]
            if not servers:
                out.append(("edge-proxy → api", "FAIL",
                            "proxy/routes.conf: no 'server' in upstream api_backend"))
            elif servers != [want]:
                bad = [s for s in servers if s != want] or servers
                out.append(("edge-proxy → api", "FAIL",
                            f"502 Bad Gateway: connect() failed (111: Connection refused) while "
                            f"connecting to upstream {bad[0]}"))
            else:
                upstream_ok = True
                out.append(("edge-proxy → api", "OK", f"upstream {want} accepting connections"))
        except OSError as e:
            conf_nc = ""
            out.append(("edge-proxy → api", "FAIL", f"cannot read proxy/routes.conf: {e}"))
        # 2. api health probe (only meaningful once the upstream answers)
        if not upstream_ok:
            out.append(("api health probe", "PENDING", "waiting for the upstream to accept connections"))
        else:
            loc = re.search(r"location\s+/api/\s*\{(.*?)\}", conf_nc, re.S)
            hc = re.search(r"health_check\s+[^;]*?uri=(\S+?)[\s;]", loc.group(1)) if loc else None
            want = self.reg["api"]["health"]
            if hc is None:
                out.append(("api health probe", "FAIL",
                            "no health_check in location /api/: upstream never marked healthy"))
            elif hc.group(1) != want:
                out.append(("api health probe", "FAIL",
                            f"GET {hc.group(1)} → 404 Not Found; api marked unhealthy, "
                            f"traffic drained"))
            else:
                out.append(("api health probe", "OK", f"GET {want} → 200 OK (2/2 passes)"))
        # 3. cron: nightly report script
        try:
            p = WS / "scripts/nightly-report.sh"
            data = p.read_bytes()
            first = data.split(b"\n", 1)[0]
            if b"\r" in data:
                msg = ("/bin/bash^M: bad interpreter: No such file or directory (exit 126)"
                       if first.endswith(b"\r") else "syntax error near unexpected token $'\\r' (exit 2)")
                out.append(("cron nightly-report", "FAIL", msg))
            elif not os.access(p, os.X_OK):
                out.append(("cron nightly-report", "FAIL", "Permission denied (exit 126)"))
            elif not first.startswith(b"#!/"):
                out.append(("cron nightly-report", "FAIL", "Exec format error (exit 126)"))
            elif b"status-classes.txt" not in data or data.count(b"\n") < 8:
                out.append(("cron nightly-report", "FAIL",
                            "script no longer writes reports/status-classes.txt"))
            else:
                out.append(("cron nightly-report", "OK", "last run exit 0 (dry-run)"))
        except OSError as e:
            out.append(("cron nightly-report", "FAIL", f"cannot read the script: {e}"))
        # 4. postgres connection budget
        out.append(("postgres connections", *self._db()))
        return out

    def _db(self) -> tuple[str, str]:
        try:
            pg = _read("db/postgres.conf").decode("utf-8", "replace")
            vals = dict(re.findall(r"^\s*(\w+)\s*=\s*(\S+)", pg, re.M))
            maxc = int(vals.get("max_connections", "-1"))
            res = int(vals.get("superuser_reserved_connections", "-1"))
        except (OSError, ValueError) as e:
            return "FAIL", f"cannot read db/postgres.conf: {e}"
        if maxc != self.s["max_connections"] or res != self.s["superuser_reserved_connections"]:
            return ("FAIL", f"db/postgres.conf does not match the managed plan (max_connections="
                    f"{self.s['max_connections']}, superuser_reserved_connections="
                    f"{self.s['superuser_reserved_connections']} are fixed)")
        demand = 0
        for svc, r in self.reg.items():
            cp = configparser.ConfigParser(interpolation=None)
            try:
                cp.read_string(_read(f"services/{svc}.ini").decode("utf-8", "replace"))
                pool = int(cp["database"]["pool_size"])
            except (OSError, KeyError, ValueError, configparser.Error) as e:
                return "FAIL", f"services/{svc}.ini: cannot read [database] pool_size ({e})"
            if pool < self.s["pool_min"][svc]:
                return "FAIL", (f"{svc}: pool exhausted, requests waiting on connections "
                                f"(pool_size={pool})")
            demand += r["replicas"] * pool
        if demand > maxc - res:
            return "FAIL", "FATAL: sorry, too many clients already"
        return "OK", f"peak {demand} of {maxc - res} connections"


class Console:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        self.s = json.loads((HERE / "state.json").read_text())
        self.checks = Checks(self.s)
        self.resolved = False
        self.results: list[tuple[str, str, str]] = []
        root.title("Ops Console")
        root.geometry(f"{W}x{H}+0+0")
        root.configure(bg=BG)
        try:
            root.attributes("-fullscreen", True)
        except tk.TclError:
            pass
        head = tk.Frame(root, bg="#263238", height=50)
        head.pack(side="top", fill="x")
        head.pack_propagate(False)
        tk.Label(head, text="Ops Console — payments-prod", font=FT, fg="white",
                 bg="#263238").place(x=14, y=12)
        self.tabs: dict[str, tk.Button] = {}
        for i, name in enumerate(("Health", "Registry", "Incident")):
            b = tk.Button(head, text=name, font=F, width=9, command=lambda n=name: self.show(n))
            b.place(x=520 + i * 120, y=9)
            self.tabs[name] = b
        self.banner = tk.Label(root, text="", font=FT, fg="white", bg=GREY, height=2)
        self.banner.pack(side="top", fill="x")
        self.body = tk.Frame(root, bg=BG)
        self.body.pack(side="top", fill="both", expand=True)
        self.frames = {"Health": self._health(), "Registry": self._registry(),
                       "Incident": self._incident()}
        self.run_checks()
        self.show("Health")

    # ------------------------------------------------------------------ views
    def show(self, name: str) -> None:
        for n, f in self.frames.items():
            f.place_forget()
            self.tabs[n].configure(relief="raised", bg="#eceff1")
        self.frames[name].place(x=0, y=0, width=W, height=H - 100)
        self.tabs[name].configure(relief="sunken", bg="#b0bec5")

    def _health(self) -> tk.Frame:
        f = tk.Frame(self.body, bg=BG)
        tk.Button(f, text="Run checks", font=FB, command=self.run_checks).place(x=24, y=18)
        self.last = tk.Label(f, text="", font=F, bg=BG, fg="#555555")
        self.last.place(x=160, y=24)
        self.rows = []
        for i in range(4):
            y = 80 + i * 110
            dot = tk.Label(f, text="", width=2, height=1, bg=GREY)
            dot.place(x=24, y=y + 2)
            name = tk.Label(f, text="", font=FB, bg=BG, anchor="w")
            name.place(x=60, y=y)
            status = tk.Label(f, text="", font=FB, bg=BG, anchor="w")
            status.place(x=280, y=y)
            msg = tk.Label(f, text="", font=F, bg=BG, anchor="nw", justify="left",
                           wraplength=640)
            msg.place(x=370, y=y)
            self.rows.append((dot, name, status, msg))
        return f

    def _ro_entry(self, parent: tk.Misc, text: str, width: int, font=FM) -> tk.Entry:
        e = tk.Entry(parent, font=font, width=width, relief="sunken", readonlybackground="white")
        e.insert(0, text)
        e.configure(state="readonly")
        return e

    def _registry(self) -> tk.Frame:
        f = tk.Frame(self.body, bg=BG)
        tk.Label(f, text="Scheduler registry (live, read-only). Ports are assigned dynamically "
                 "on every deploy.", font=F, bg=BG).place(x=24, y=20)
        tk.Label(f, text="service        address            health    replicas  version",
                 font=FM, bg=BG).place(x=28, y=64)
        for i, r in enumerate(self.s["registry"]):
            line = (f"{r['service']:<14} {r['addr']:<18} {r['health']:<9} "
                    f"{r['replicas']:<9} {r['version']}")
            self._ro_entry(f, line, 74).place(x=24, y=94 + i * 44)
        return f

    def _incident(self) -> tk.Frame:
        f = tk.Frame(self.body, bg=BG)
        s = self.s
        tk.Label(f, text="Incident", font=FB, bg=BG).place(x=24, y=24)
        self._ro_entry(f, s["incident"], 14).place(x=440, y=22)
        tk.Label(f, text=s["title"], font=F, bg=BG).place(x=600, y=24)
        tk.Label(f, text="Impact window (UTC, start incl., end excl.)", font=FB,
                 bg=BG).place(x=24, y=74)
        self._ro_entry(f, s["window"], 44).place(x=440, y=72)
        tk.Label(f, text="Failed requests in window (5xx at the edge)", font=FB,
                 bg=BG).place(x=24, y=124)
        self.impact = tk.Entry(f, font=FM, width=12)
        self.impact.place(x=440, y=122)
        tk.Button(f, text="Resolve incident", font=FB, command=self.resolve).place(x=24, y=170)
        tk.Label(f, text="Resolution code", font=FB, bg=BG).place(x=24, y=234)
        self.code = self._ro_entry(f, "", 20)
        self.code.place(x=440, y=232)
        self.note = tk.Label(f, text="", font=F, bg=BG, fg=RED, anchor="w", justify="left",
                             wraplength=900)
        self.note.place(x=24, y=284)
        return f

    # ------------------------------------------------------------------ actions
    def run_checks(self) -> None:
        self.results = self.checks.run()
        colours = {"OK": GREEN, "FAIL": RED, "PENDING": AMBER}
        for (dot, name, status, msg), (n, st, m) in zip(self.rows, self.results):
            dot.configure(bg=colours[st])
            name.configure(text=n)
            status.configure(text=st, fg=colours[st])
            msg.configure(text=m)
        self.last.configure(text="last run " + time.strftime("%H:%M:%S"))
        self._banner()

    def _banner(self) -> None:
        inc = self.s["incident"]
        bad = sum(1 for r in self.results if r[1] != "OK")
        if self.resolved and not bad:
            self.banner.configure(text=f"{inc} RESOLVED — all checks passing", bg=DARKGREEN)
        elif bad:
            self.banner.configure(text=f"INCIDENT {inc} OPEN — {bad} of 4 checks not passing",
                                  bg=RED)
        else:
            self.banner.configure(text=f"All checks passing — {inc} can be resolved", bg=GREEN)

    def resolve(self) -> None:
        self.run_checks()
        bad = [r[0] for r in self.results if r[1] != "OK"]
        if bad:
            self.note.configure(fg=RED, text="Cannot resolve: checks not passing: " + ", ".join(bad))
            return
        raw = self.impact.get().strip().replace(",", "")
        if not raw.isdigit() or int(raw) != self.s["impact"]:
            self.note.configure(fg=RED, text=f"Impact {raw or '(empty)'} does not match the "
                                "monitoring count for the window: check the log query.")
            return
        self.resolved = True
        self.code.configure(state="normal")
        self.code.delete(0, "end")
        self.code.insert(0, self.s["resolution_code"])
        self.code.configure(state="readonly")
        self.note.configure(fg=DARKGREEN, text=f"{self.s['incident']} resolved. Put the resolution "
                            "code in the postmortem.")
        self._banner()


def main() -> None:
    root = tk.Tk()
    Console(root)
    root.mainloop()


if __name__ == "__main__":
    main()
