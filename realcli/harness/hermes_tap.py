"""Hermes's ``state.db`` tap (:func:`tap_main`): a stdlib-only script, run with Hermes's own
Python, that starts ``hermes chat`` and streams the store's rows as JSON lines (see
:mod:`realcli.harness.hermes`)."""

from __future__ import annotations

from realcli.harness.cli_agent import script_of

__all__ = ["TAP_FILE", "tap_main", "tap_source"]

TAP_FILE = ".realcli/hermes_tap.py"
"""The tap script, relative to the per-run home."""


def tap_main() -> int:  # pragma: no cover - runs inside the sandbox (tested through runs)
    """Run Hermes and stream its ``state.db`` rows as JSON lines (see the module docstring).

    Self-contained and stdlib only: its source is written to the per-run home and run with
    Hermes's Python. ``tap.py --db STATE_DB --query-file FILE [--poll S] -- HERMES ARGS...``
    (``--query=<file contents>`` is appended to the Hermes command line).
    """
    import argparse
    import contextlib
    import json
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import threading
    import time

    parser = argparse.ArgumentParser(prog="hermes_tap")
    parser.add_argument("--db", required=True)
    parser.add_argument("--query-file", required=True)
    parser.add_argument("--poll", type=float, default=0.1)
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    with open(args.query_file, encoding="utf-8") as f:
        query = f.read()
    lock = threading.Lock()

    def emit(record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False, default=str)
        with lock:
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):
                pass

    proc = subprocess.Popen(
        [*cmd, f"--query={query}"],  # "=": an instruction may start with "-"
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        errors="replace",
    )
    emit({"type": "tap_start", "pid": proc.pid, "db": args.db})

    def forward(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            proc.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            emit({"type": "stdout", "text": line.rstrip("\n")})

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    state: dict = {"last": 0, "totals": None}
    seen: set = set()
    keys = ("api_call_count", "input_tokens", "output_tokens", "tool_call_count", "ended_at")

    def rows(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> list:
        cur = conn.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [
            {k: v for k, v in zip(names, r, strict=True) if v is not None} for r in cur.fetchall()
        ]

    def poll() -> list:
        if not os.path.exists(args.db):
            return []
        try:
            conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True, timeout=2.0)
        except sqlite3.Error:
            return []
        try:
            sessions = rows(conn, "SELECT * FROM sessions ORDER BY started_at")
            for row in sessions:
                if row.get("id") not in seen:
                    seen.add(row.get("id"))
                    emit({"type": "session", "row": row})
            new = rows(conn, "SELECT * FROM messages WHERE id > ? ORDER BY id", (state["last"],))
            for row in new:
                state["last"] = row["id"]
                emit({"type": "message", "row": row})
            brief = [{k: v for k, v in r.items() if k != "system_prompt"} for r in sessions]
            totals = [[r.get(k) for k in keys] for r in brief]
            if brief and totals != state["totals"]:
                state["totals"] = totals
                emit({"type": "totals", "sessions": brief})
            return brief
        except sqlite3.Error:
            return []  # not created yet, or busy: the next poll reads it
        finally:
            conn.close()

    while proc.poll() is None:
        poll()
        time.sleep(args.poll)
    reader.join(timeout=5.0)
    sessions = poll()
    for _ in range(20):  # a read can fail while Hermes's last write settles
        if sessions or not os.path.exists(args.db):
            break
        time.sleep(0.1)
        sessions = poll()
    code = proc.returncode
    emit({"type": "tap_end", "exit_code": code, "sessions": sessions})
    return code if code >= 0 else 128 - code


def tap_source() -> str:
    """The tap as a script (its source plus the call)."""
    return script_of(tap_main)
