"""Warehouse at scale: ingest and the full report at 1k, 10k and 100k runs, beside DuckDB's own
``read_json`` over the same ledger files.

    python bench/warehouse.py --out docs/benchmarks.md [--sizes 1000,10000,100000]

The run stores are SYNTHETIC (``bench/synthetic_store.py``: real run folders cloned with
invented models, tasks, seeds and outcomes; labelled ``SYNTHETIC_NOT_REAL_RESULTS.md``), about
``--events-per-run`` ledger events per run (100k runs ≈ 10M events). The templates are real
runs this script makes first when ``--templates`` has none (replay and noop of two CLI tasks,
the replay of one hybrid task). Per size, side by side on the same files:

* **realcli ingest** — ``realcli.warehouse.ingest`` into a fresh warehouse: every file read
  bounded, every ledger line validated against the typed event schema, rows for every table;
* **DuckDB read_json** — ``create table … as select * from read_json(glob,
  format='newline_delimited', union_by_name=true, filename=true)``: DuckDB infers one schema
  over every event kind and loads it (no validation, no other file);
* **DuckDB read_ndjson_objects** — the ledger lines as raw JSON values (no schema at all), the
  floor of reading those bytes;
* **full report** — ``analysis.report.build_report`` over the ingested warehouse, every
  registered figure (CSV, PNG, SVG, index.html), run pages off (``run_pages`` costs are per
  run; measured separately at 1k runs).

Throughput = ledger events per second. Raw results go to ``bench/out/warehouse.json``
(gitignored); the Markdown section replaces the part of ``--out`` between the markers below.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from overhead_common import OUT_DIR, machine  # noqa: E402
from synthetic_store import generate, load_templates  # noqa: E402

from analysis.report import build_report  # noqa: E402
from realcli.schema.report import ReportSpec  # noqa: E402
from realcli.warehouse import connect, ingest  # noqa: E402

BEGIN = "<!-- bench/warehouse.py:begin (generated: edit bench/warehouse.py, not this part) -->"
END = "<!-- bench/warehouse.py:end -->"
_TEMPLATE_RUNS = (
    ["task=smoke-bugfix-intervals,lc-feature-tinydb", "model=replay,noop"],
    ["task=weave-gam-lightsout", "model=replay", "mode=hybrid"],
)


def make_templates(templates: Path) -> None:
    """Real runs to clone: skipped when ``templates`` already holds finished runs."""
    if list(templates.glob("*/*/verdict.json")):
        return
    env = os.environ | {
        "REALCLI_RUNS_DIR": str(templates),
        "REALCLI_TASKS_DIR": str(ROOT / "tasks"),
    }
    for overrides in _TEMPLATE_RUNS:
        subprocess.run(
            ["realcli", "run", "--multirun", *overrides],
            check=True,
            env=env,
            cwd=templates,
            stdout=subprocess.DEVNULL,
        )


def timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def measure(store: Path, work: Path, *, report: bool) -> dict[str, Any]:
    ledgers = f"{store}/synthetic/*/ledger.jsonl"
    warehouse = work / "warehouse.duckdb"
    warehouse.unlink(missing_ok=True)
    con = connect(warehouse)
    ingest_s, stats = timed(lambda: ingest(con, store))
    n_events = con.execute("select count(*) from events").fetchone()[0]
    n_runs = con.execute("select count(*) from runs").fetchone()[0]
    con.close()
    result: dict[str, Any] = {
        "runs": n_runs,
        "events": n_events,
        "ingest_s": ingest_s,
        "ingest_problems": len(stats.problems),
        "ledger_mb": sum(p.stat().st_size for p in store.glob("synthetic/*/ledger.jsonl")) / 1e6,
    }
    # an 8 GB memory budget, spilling to disk beyond it: unbounded, read_json's union_by_name
    # over 100k ledgers grew past 18 GB on this 24 GB machine
    duck = duckdb.connect(config={"memory_limit": "8GB", "temp_directory": str(work / "spill")})
    result["read_json_s"], _ = timed(
        lambda: duck.execute(
            "create table e as select * from read_json(?, format='newline_delimited',"
            " union_by_name=true, filename=true)",
            [ledgers],
        )
    )
    result["read_json_rows"] = duck.execute("select count(*) from e").fetchone()[0]
    result["read_objects_s"], _ = timed(
        lambda: duck.execute(
            "create table o as select * from read_ndjson_objects(?, filename=true)", [ledgers]
        )
    )
    duck.close()
    if report:
        out = work / "report"
        shutil.rmtree(out, ignore_errors=True)
        spec = ReportSpec(run_pages=False)
        result["report_s"], _ = timed(lambda: build_report(warehouse, out, spec=spec))
    return result


def markdown(results: list[dict[str, Any]], info: dict[str, Any]) -> str:
    lines = [
        BEGIN,
        "",
        "## Warehouse at scale: ingest and the full report",
        "",
        f"{info['date']} · {info['nproc']} cores · Python {info['python']} · "
        f"realcli {info['git_sha']} · load average at start "
        f"{', '.join(f'{x:.1f}' for x in info['loadavg_start'])}. Synthetic run stores "
        "(`bench/synthetic_store.py`, **not real results**), measured side by side on the "
        "same ledger files. Throughput in ledger events per second.",
        "",
        "| runs | events | ledgers (MB) | realcli ingest (s) | read_json (s) | "
        "ingest ÷ read_json throughput | read_ndjson_objects (s) | full report (s) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        ratio = r["read_json_s"] / r["ingest_s"]
        lines.append(
            f"| {r['runs']:,} | {r['events']:,} | {r['ledger_mb']:,.0f} | {r['ingest_s']:.1f} | "
            f"{r['read_json_s']:.1f} | {ratio:.2f}× | {r['read_objects_s']:.1f} | "
            f"{r.get('report_s', float('nan')):.1f} |"
        )
    by_runs = {r["runs"]: r for r in results}
    if 10_000 in by_runs and 100_000 in by_runs and "report_s" in by_runs[100_000]:
        growth = by_runs[100_000]["report_s"] / by_runs[10_000]["report_s"]
        lines += ["", f"Full report, 100k runs ÷ 10k runs: **{growth:.2f}×** (10× the runs)."]
    lines += [
        "",
        "realcli's ingest validates every ledger line against the typed event schema, reads "
        "spec, verdict, judgements and the task copy bounded (no link followed) and fills "
        "every raw table; `read_json` only infers one schema over the ledgers and loads them. "
        "`read_ndjson_objects` is the floor of reading the same bytes as untyped JSON.",
        "",
        END,
    ]
    return "\n".join(lines) + "\n"


def write_section(path: Path, section: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="docs/benchmarks.md to update")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--events-per-run", type=int, default=100)
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(os.environ.get("REALCLI_BENCH_DIR", "/var/tmp/realcli-bench")),
        help="where the stores, warehouses and reports go (reused across runs)",
    )
    args = parser.parse_args(argv)
    info = machine()
    templates = args.work / "templates"
    templates.mkdir(parents=True, exist_ok=True)
    make_templates(templates)
    loaded = load_templates(templates)
    results = []
    for size in (int(s) for s in args.sizes.split(",")):
        store = args.work / f"store-{size}"
        if not (store / "synthetic").is_dir() or len(list((store / "synthetic").iterdir())) != size:
            shutil.rmtree(store, ignore_errors=True)
            gen_s, _ = timed(
                lambda store=store, size=size: generate(
                    loaded, store, size, events_per_run=args.events_per_run
                )
            )
            print(f"generated {size} runs in {gen_s:.0f}s", file=sys.stderr)
        work = args.work / f"work-{size}"
        work.mkdir(exist_ok=True)
        result = measure(store, work, report=True)
        print(json.dumps(result), file=sys.stderr)
        results.append(result)
        # after every size, so a stopped run keeps what it measured
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        (OUT_DIR / "warehouse.json").write_text(json.dumps({"machine": info, "results": results}))
    section = markdown(results, info)
    if args.out:
        write_section(args.out, section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
