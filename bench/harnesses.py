"""Per harness: time from sandbox ready to the first model call, and the gateway's cost per call.

Two measurements, side by side in one run (``make bench`` runs it; results replace the
generated section of ``docs/benchmarks.md``):

1. **Gateway added latency per call**, per wire format, streamed and not: the median round trip
   of a minimal request through the real gateway on its Unix socket (as agents reach it,
   minus the in-sandbox forwarder) with the ``noop`` backend, next to the median time of the
   backend call alone (``backend.respond`` on the parsed request, in process) and of a bare
   HTTP server on a Unix socket answering a fixed body (the floor of any HTTP hop). Added
   latency = gateway round trip - backend call.
2. **Sandbox ready to first model call**, per harness: real runs (``model=noop``, one smoke
   task, one seed per repetition) through the runner; from the ledger, the ``session`` event
   (written just before the agent is spawned in its sandbox) to the first ``model_call``'s
   arrival (its timestamp minus its latency). Also the agent session's whole wall time.

    python bench/harnesses.py --out docs/benchmarks.md [--harnesses builtin,codex,...]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from realcli.gateway import Gateway, NoopBackend  # noqa: E402
from realcli.gateway.codecs import CODECS  # noqa: E402
from realcli.harness.install import InstallError, agents_dir, find_install  # noqa: E402
from realcli.ledger import read_ledger  # noqa: E402

BEGIN = "<!-- bench/harnesses.py:begin (generated: edit bench/harnesses.py, not this part) -->"
END = "<!-- bench/harnesses.py:end -->"
HARNESSES = ("builtin", "codex", "claude_code", "openclaw", "hermes", "openhands")
TASK = "smoke-bugfix-intervals"
BODIES: dict[str, tuple[str, dict[str, Any]]] = {
    "openai_chat": (
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
    ),
    "openai_responses": (
        "/v1/responses",
        {
            "model": "m",
            "input": [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
        },
    ),
    "anthropic_messages": (
        "/v1/messages",
        {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]},
    ),
}


class _UnixConn(http.client.HTTPConnection):
    def __init__(self, path: str) -> None:
        super().__init__("localhost", timeout=30)
        self.path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(self.path)
        self.sock = sock


def _post(conn: http.client.HTTPConnection, route: str, body: bytes) -> None:
    conn.request("POST", route, body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    resp.read()
    if resp.status != 200:
        raise RuntimeError(f"{route}: HTTP {resp.status}")


def _median_ms(fn: Callable[[], None], n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


class _Fixed(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        data = b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def gateway_latency(n: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-gw-") as tmp:
        bare_path = f"{tmp}/bare.sock"
        bare = _UnixServer(bare_path, _Fixed)
        threading.Thread(target=bare.serve_forever, daemon=True).start()
        backend = NoopBackend()
        with Gateway(backend, lambda e: None, model_id="m") as gw:
            gw.start(Path(tmp) / "gw.sock")
            for codec in CODECS:
                if codec.name not in BODIES:
                    continue
                route, body = BODIES[codec.name]
                request = codec.parse(body)
                direct = _median_ms(lambda r=request: backend.respond(r), n)  # type: ignore[misc]
                for stream in (False, True):
                    data = json.dumps({**body, "stream": stream}).encode()
                    conn = _UnixConn(str(Path(tmp) / "gw.sock"))
                    for _ in range(5):  # warm-up
                        _post(conn, route, data)
                    via = _median_ms(lambda c=conn, d=data, r=route: _post(c, r, d), n)  # type: ignore[misc]
                    conn.close()
                    forwarded = _via_forwarder(Path(tmp) / "gw.sock", route, data, n)
                    bconn = _UnixConn(bare_path)
                    floor = _median_ms(lambda c=bconn, d=data, r=route: _post(c, r, d), n)  # type: ignore[misc]
                    bconn.close()
                    rows.append(
                        {
                            "wire": codec.name,
                            "stream": stream,
                            "gateway_ms": via,
                            "backend_ms": direct,
                            "added_ms": via - direct,
                            "forwarder_ms": forwarded,
                            "bare_http_ms": floor,
                        }
                    )
        bare.shutdown()
        bare.server_close()
    return rows


_CLIENT = """
import http.client, json, statistics, sys, time
port, route, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
data = sys.stdin.buffer.read()
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
times = []
for i in range(n + 5):
    t = time.perf_counter()
    conn.request("POST", route, body=data, headers={"Content-Type": "application/json"})
    r = conn.getresponse(); r.read()
    assert r.status == 200, r.status
    times.append(time.perf_counter() - t)
print(json.dumps(statistics.median(times[5:]) * 1000))
"""


def _via_forwarder(sock: Path, route: str, data: bytes, n: int) -> float:
    """The round trip as an agent in the sandbox makes it: TCP to the forwarder
    (``realcli/sandbox/inside.py``) that relays to the gateway's socket."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    inside = ROOT / "realcli" / "sandbox" / "inside.py"
    argv = [sys.executable, "-I", str(inside), "--socket", str(sock), "--port", str(port), "--"]
    argv += [sys.executable, "-I", "-c", _CLIENT, str(port), route, str(n)]
    out = subprocess.run(argv, input=data, capture_output=True, check=True, timeout=300)
    return float(json.loads(out.stdout))


def installed(harness: str) -> bool:
    if harness == "builtin":
        return True
    try:
        find_install(harness, agents_dir())
    except InstallError:
        return False
    return True


def harness_startup(harnesses: Sequence[str], repeat: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-harness-") as tmp:
        for harness in harnesses:
            if not installed(harness):
                rows.append({"harness": harness, "skipped": "not installed"})
                continue
            seeds = ",".join(str(s) for s in range(1, repeat + 1))
            argv = [sys.executable, "-m", "realcli.cli", "run", "--multirun"]
            argv += [f"harness={harness}", "model=noop", f"task={TASK}", f"seed={seeds}"]
            argv += [f"paths.runs_dir={tmp}/runs", f"experiment_name=b-{harness}"]
            proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
            if proc.returncode != 0:
                rows.append({"harness": harness, "skipped": proc.stderr.strip()[-300:]})
                continue
            firsts, sessions = [], []
            for ledger_path in Path(tmp, "runs", f"b-{harness}").glob("*/ledger.jsonl"):
                events = read_ledger(ledger_path).events
                session = next((e for e in events if e.kind == "session"), None)
                start = session.ts if session is not None else None
                if start is None:  # the builtin harness writes the instruction first
                    start = next(e.ts for e in events if e.kind == "message")
                call = next(e for e in events if e.kind == "model_call")
                arrived = call.ts.timestamp() - call.latency_ms / 1000  # type: ignore[attr-defined]
                firsts.append(arrived - start.timestamp())
                budget = next(e for e in events if e.kind == "budget")
                sessions.append(budget.wall_clock_s)  # type: ignore[attr-defined]
            rows.append(
                {
                    "harness": harness,
                    "n": len(firsts),
                    "first_call_s": statistics.median(firsts),
                    "first_call_min_s": min(firsts),
                    "first_call_max_s": max(firsts),
                    "session_s": statistics.median(sessions),
                }
            )
    return rows


def markdown(info: dict[str, Any], gw: list[dict[str, Any]], hs: list[dict[str, Any]]) -> str:
    out = [
        BEGIN,
        "",
        "## Harnesses and the gateway",
        "",
        f"- Machine: {info['nproc']} CPUs, Python {info['python']}, {info['platform']}",
        f"- Date: {info['date']}; git {info['git_sha']}; load average at start "
        f"{info['load'][0]:.2f}",
        f"- Command: `{info['command']}`",
        "",
        "### Gateway: added latency per call (median)",
        "",
        f"{info['n']} calls each over the gateway's Unix socket (one keep-alive connection), the "
        "`noop` backend; *added* = gateway round trip - the backend's own call; *via the "
        "sandbox forwarder* = the same call over TCP to the relay an agent in the sandbox "
        "talks to (`realcli/sandbox/inside.py`); *bare HTTP* = the same request to a server "
        "that answers a fixed body on a Unix socket (any HTTP hop costs this).",
        "",
        "| wire | stream | gateway round trip (ms) | backend call (ms) | added (ms) "
        "| via the sandbox forwarder (ms) | bare HTTP (ms) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in gw:
        out.append(
            f"| {r['wire']} | {'yes' if r['stream'] else 'no'} | {r['gateway_ms']:.2f} | "
            f"{r['backend_ms']:.3f} | {r['added_ms']:.2f} | {r['forwarder_ms']:.2f} | "
            f"{r['bare_http_ms']:.2f} |"
        )
    out += [
        "",
        "### Harnesses: sandbox ready to first model call (median)",
        "",
        f"`model=noop`, task `{TASK}`, {info['repeat']} runs per harness (one seed each), "
        "through `realcli run`. *First call*: from the `session` event (just before the agent "
        "is spawned in its sandbox) to the first model call's arrival at the gateway. "
        "*Session*: the whole agent session (to its `budget` event).",
        "",
        "| harness | runs | first call (s) | min–max (s) | session (s) |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in hs:
        if "skipped" in r:
            out.append(f"| {r['harness']} | 0 | — | — | — ({r['skipped']}) |")
            continue
        out.append(
            f"| {r['harness']} | {r['n']} | {r['first_call_s']:.2f} | "
            f"{r['first_call_min_s']:.2f}–{r['first_call_max_s']:.2f} | {r['session_s']:.2f} |"
        )
    out += ["", END]
    return "\n".join(out)


def replace_section(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + section + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, help="Markdown file whose generated section to replace")
    p.add_argument("--harnesses", default=",".join(HARNESSES))
    p.add_argument("--repeat", type=int, default=3, help="runs per harness (default 3)")
    p.add_argument("-n", type=int, default=300, help="gateway calls per measurement")
    args = p.parse_args(argv)
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    info = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "git_sha": git.stdout.decode().strip(),
        "load": os.getloadavg(),
        "command": "python bench/harnesses.py " + " ".join(argv or sys.argv[1:]),
        "n": args.n,
        "repeat": args.repeat,
    }
    gw = gateway_latency(args.n)
    hs = harness_startup([h for h in args.harnesses.split(",") if h], args.repeat)
    section = markdown(info, gw, hs)
    raw = ROOT / "bench" / "out" / "harnesses.json"
    raw.parent.mkdir(exist_ok=True)
    raw.write_text(
        json.dumps({"info": info, "gateway": gw, "harnesses": hs}, indent=2, default=str)
    )
    if args.out:
        replace_section(args.out, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
