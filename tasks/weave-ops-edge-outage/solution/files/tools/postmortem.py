#!/usr/bin/env python3
"""Write postmortem.md from what was copied out of the console (.ops/) and computed here."""

from pathlib import Path


def get(name: str) -> str:
    return Path(".ops", name).read_text().strip()


reg = {}
for f in sorted(Path(".ops").glob("registry-*.txt")):
    fields = f.read_text().split()
    reg[fields[0]] = fields
api = reg["api"]
pools = {}
for svc in ("api", "worker", "report-runner"):
    for line in Path(f"services/{svc}.ini").read_text().splitlines():
        if line.startswith("pool_size"):
            pools[svc] = int(line.split("=")[1])
demand = sum(int(reg[s][3]) * pools[s] for s in pools)

text = f"""incident: {get('incident.txt')}
resolution_code: {get('resolution.txt')}
window: {get('window.txt')}
failed_requests: {get('impact.txt')}

## Summary
At 02:14 UTC the scheduler moved the payments api to a new dynamic port ({api[1]}) while
the edge proxy, rendered by hand since the consul-template sidecar was disabled (CHG-1180),
kept sending /api/ traffic to 127.0.0.1:8080: every api request got a 502 Bad Gateway until
traffic was failed over at 02:51 UTC. {get('impact.txt')} requests were answered with a 5xx
at the edge in the window (both edge nodes; edge-2 logs in local time, +0200, normalised
to UTC).

## Root causes
- Stale edge upstream: `upstream api_backend` pointed at 127.0.0.1:8080; the api now listens
  on {api[1]} (scheduler registry) -> connect() failed (111: Connection refused), 502.
- Wrong health-check endpoint: the edge probed /healthz, the api advertises {api[2]}
  (404 -> upstream marked unhealthy).
- Database connection budget exceeded: the autoscaler runs {api[3]} api replicas; with the old
  pool sizes peak demand was 140 connections > max_connections (100) - 3 reserved
  ("FATAL: sorry, too many clients already").
- scripts/nightly-report.sh had CRLF (Windows) line endings: "/bin/bash^M: bad
  interpreter", so the nightly report cron job failed.

## Changes
- proxy/routes.conf: upstream api_backend server -> {api[1]}; health_check uri -> {api[2]}.
- services/api.ini, services/worker.ini, services/report-runner.ini: pool_size
  {pools['api']}/{pools['worker']}/{pools['report-runner']} (peak demand {demand} <= 97).
- scripts/nightly-report.sh: converted CRLF line endings to LF (still executable).
- db/postgres.conf: unchanged (fixed by the managed plan).
"""
Path("postmortem.md").write_text(text)
print(text)
