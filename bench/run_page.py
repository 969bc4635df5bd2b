"""How big a run page is and how long headless Chromium takes to load it, for a long run.

    python bench/run_page.py --source RUNS/<exp>/<run_key> [--calls 500] [--work DIR]

``--source`` is a finished run folder (e.g. a replay of weave-gam-lightsout, which has GUI and
CLI calls and screenshots). Its agent loop — the events between the first ``round_start`` and
``round_end`` — is repeated until the ledger has ``--calls`` tool calls (and as many model
calls), with fresh seqs and call ids; the copy is ingested into a fresh warehouse, its page is
written by :func:`analysis.run_page.write_run_pages`, and Debian's ``chromium`` opens it over the
DevTools pipe (tests/chromium.py). Prints the page's size, the build time, the load time
(navigation to the load event, median of 3) and the time until every screenshot decoded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.run_page import write_run_pages  # noqa: E402
from realcli.util.safe_fs import copy_tree  # noqa: E402
from realcli.warehouse import connect, ingest  # noqa: E402
from tests.chromium import Chromium  # noqa: E402

_LOOP_KINDS = {"model_call", "message", "tool_call", "tool_result", "screenshot", "snapshot"}


def stretch_ledger(src: Path, dest: Path, calls: int) -> int:
    """Write ``dest`` with ``src``'s agent loop repeated up to ``calls`` tool calls; returns
    the number of events written."""
    events = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
    start = next(i for i, e in enumerate(events) if e["kind"] == "round_start") + 1
    end = next(i for i, e in enumerate(events) if e["kind"] == "round_end")
    loop = [e for e in events[start:end] if e["kind"] in _LOOP_KINDS]
    out = events[:start]
    made = 0
    lap = 0
    while made < calls:
        for event in loop:
            if event["kind"] == "tool_call":
                if made == calls:
                    break
                made += 1
            copy = dict(event)
            if copy.get("call_id"):
                copy["call_id"] = f"{copy['call_id']}-{lap}"
            if copy["kind"] == "model_call" and copy.get("tool_call_ids"):
                copy["tool_call_ids"] = [f"{c}-{lap}" for c in copy["tool_call_ids"]]
            out.append(copy)
        lap += 1
    out.extend(events[end:])
    with dest.open("w") as fh:
        for seq, event in enumerate(out):
            event["seq"] = seq
            fh.write(json.dumps(event) + "\n")
    return len(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="a finished run folder")
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--work", type=Path, help="keep the files here (default: a temp dir)")
    args = parser.parse_args()
    work = (args.work or Path(tempfile.mkdtemp(prefix="rc-runpage-"))).resolve()
    runs = work / "runs" / "bench"
    runs.mkdir(parents=True, exist_ok=True)
    run_dir = runs / args.source.name
    if not run_dir.exists():
        copy_tree(args.source, run_dir)
    n_events = stretch_ledger(args.source / "ledger.jsonl", run_dir / "ledger.jsonl", args.calls)
    with connect(work / "warehouse.duckdb") as con:
        ingest(con, work / "runs")
        t0 = time.monotonic()
        written = write_run_pages(con, work / "report", force=True)
        build_s = time.monotonic() - t0
    page = work / "report" / "runs" / f"{args.source.name}.html"
    loads, decoded = [], []
    with Chromium() as browser:
        for _ in range(3):
            loads.append(browser.open(page.as_uri()))
            t1 = time.monotonic()
            n_images = browser.evaluate(
                "Promise.all([...document.images].map(i => { i.loading = 'eager';"
                " return i.decode().then(() => i.naturalWidth > 0) })).then(v => v.length)"
            )
            decoded.append(time.monotonic() - t1)
    print(
        f"{args.calls} tool calls, {n_events} events: page {page.stat().st_size / 1e6:.2f} MB"
        f" (+{written.screenshots} screenshot files), built in {build_s:.2f} s; Chromium load"
        f" {statistics.median(loads):.2f} s (median of 3: {', '.join(f'{x:.2f}' for x in loads)}),"
        f" all {n_images} screenshots decoded {statistics.median(decoded):.2f} s later"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
