"""Where a test run's wall time went, from the ``REALCLI_TEST_TIMELINE`` file
(``tests/conftest.py``): per worker, busy time, idle gaps and the last finish; the slowest
test files by summed phase time.

    REALCLI_TEST_TIMELINE=/tmp/timeline.jsonl make test
    python tests/timeline.py /tmp/timeline.jsonl [--top 30]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("timeline", type=Path)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.timeline.read_text().splitlines() if line]
    if not rows:
        print(f"{args.timeline}: no test phases recorded")
        return 1
    t0 = min(r["start"] for r in rows)
    end = max(r["stop"] for r in rows)
    print(f"{len(rows)} phases, {end - t0:.0f}s from the first start to the last stop")
    by_worker: dict[str, list[dict[str, float]]] = defaultdict(list)
    for r in rows:
        by_worker[r["worker"]].append(r)
    for worker, phases in sorted(by_worker.items()):
        phases.sort(key=lambda r: r["start"])
        busy = sum(r["stop"] - r["start"] for r in phases)
        last = phases[-1]["stop"] - t0
        print(f"{worker}: busy {busy:.0f}s, last stop at {last:.0f}s, idle {last - busy:.0f}s")
    per_file: dict[str, float] = defaultdict(float)
    for r in rows:
        per_file[r["test"].split("::")[0]] += r["stop"] - r["start"]
    for name, seconds in sorted(per_file.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{seconds:8.0f}s  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
