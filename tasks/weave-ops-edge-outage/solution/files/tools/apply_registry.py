#!/usr/bin/env python3
"""Apply the scheduler registry (rows copied from the Ops Console into .ops/registry-*.txt)
to the repo: the edge upstream and health check of the api, and pool sizes that fit the
database connection budget (docs/runbook.md section 3).

usage: apply_registry.py [--health]   (--health also updates the health_check uri)
"""

import configparser
import re
import sys
from pathlib import Path

MIN = {"api": 20, "worker": 12, "report-runner": 4}

reg = {}
for f in sorted(Path(".ops").glob("registry-*.txt")):
    fields = f.read_text().split()
    if len(fields) < 5:
        sys.exit(f"{f}: not a registry row: {fields!r}")
    svc, addr, health, replicas = fields[0], fields[1], fields[2], int(fields[3])
    reg[svc] = {"addr": addr, "health": health, "replicas": replicas}
print("registry:", reg)
if set(reg) != set(MIN):
    sys.exit(f"need registry rows for {sorted(MIN)}, have {sorted(reg)}")

# 1. edge upstream (and, with --health, the health check uri)
conf = Path("proxy/routes.conf")
text = conf.read_text()
text, n = re.subn(r"(upstream\s+api_backend\s*\{\s*server\s+)[^\s;]+", rf"\g<1>{reg['api']['addr']}", text)
assert n == 1, "upstream api_backend server line not found"
if "--health" in sys.argv:
    text, n = re.subn(r"(health_check\s+uri=)\S+?(\s)", rf"\g<1>{reg['api']['health']}\g<2>", text)
    assert n == 1, "health_check line not found"
conf.write_text(text)

# 2. connection budget
pg = dict(re.findall(r"^\s*(\w+)\s*=\s*(\S+)", Path("db/postgres.conf").read_text(), re.M))
budget = int(pg["max_connections"]) - int(pg["superuser_reserved_connections"])
pools = {}
for svc in MIN:
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(f"services/{svc}.ini")
    pools[svc] = int(cp["database"]["pool_size"])


def demand():
    return sum(reg[s]["replicas"] * pools[s] for s in pools)


print(f"budget {budget}, demand before {demand()} with {pools}")
while demand() > budget:
    # shrink the largest consumer that is still above its minimum
    cands = [s for s in pools if pools[s] > MIN[s]]
    if not cands:
        sys.exit("cannot fit the budget at the minimum pool sizes")
    s = max(cands, key=lambda s: reg[s]["replicas"] * pools[s])
    pools[s] -= 1
print(f"demand after {demand()} with {pools}")
for svc, size in pools.items():
    p = Path(f"services/{svc}.ini")
    t, n = re.subn(r"(?m)^(pool_size\s*=\s*)\d+", rf"\g<1>{size}", p.read_text())
    assert n == 1, p
    p.write_text(t)
