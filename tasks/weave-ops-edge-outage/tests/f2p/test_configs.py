"""The repo fixed so that the Ops Console's checks pass (hidden truth: the scheduler registry)."""

import configparser
import os
import re
import subprocess
from pathlib import Path

API_ADDR = "127.0.0.1:9412"
API_HEALTH = "/ready"
REPLICAS = {"api": 3, "worker": 2, "report-runner": 1}
POOL_MIN = {"api": 20, "worker": 12, "report-runner": 4}
BUDGET = 100 - 3


def _routes():
    text = Path("proxy/routes.conf").read_text(encoding="utf-8")
    return re.sub(r"#[^\n]*", "", text)


def test_upstream_points_at_registry_address():
    m = re.search(r"upstream\s+api_backend\s*\{(.*?)\}", _routes(), re.S)
    assert m, "upstream api_backend block missing"
    servers = re.findall(r"^\s*server\s+([^\s;]+)", m.group(1), re.M)
    assert servers == [API_ADDR], f"servers: {servers}"


def test_health_check_uses_advertised_endpoint():
    loc = re.search(r"location\s+/api/\s*\{(.*?)\}", _routes(), re.S)
    assert loc, "location /api/ block missing"
    hc = re.findall(r"health_check\s+[^;]*?uri=(\S+?)[\s;]", loc.group(1))
    assert hc == [API_HEALTH], f"health_check uri: {hc}"
    assert re.search(r"proxy_pass\s+http://api_backend\s*;", loc.group(1)), "proxy_pass changed"


def test_report_script_runs(tmp_path):
    script = Path("scripts/nightly-report.sh")
    data = script.read_bytes()
    assert b"\r" not in data, "CR characters left in the script"
    assert data.startswith(b"#!/bin/bash\n"), data[:40]
    assert os.access(script, os.X_OK), "script is not executable"
    out = tmp_path / "reports"
    proc = subprocess.run(
        ["./scripts/nightly-report.sh", "logs/edge-access.log"],
        env={**os.environ, "REPORT_DIR": str(out)},
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-500:]
    report = (out / "status-classes.txt").read_text()
    assert re.search(r"^5xx \d+$", report, re.M), report


def test_connection_budget():
    pools = {}
    for svc in REPLICAS:
        cp = configparser.ConfigParser(interpolation=None)
        cp.read_string(Path(f"services/{svc}.ini").read_text(encoding="utf-8"))
        pools[svc] = int(cp["database"]["pool_size"])
    low = {s: p for s, p in pools.items() if p < POOL_MIN[s]}
    assert not low, f"pools below the runbook minimum: {low}"
    demand = sum(REPLICAS[s] * pools[s] for s in pools)
    assert demand <= BUDGET, f"peak demand {demand} > {BUDGET} with pools {pools}"
