"""Run pages (``report/runs/<run_key>.html``) and row pages (``report/rows/<figure>-<n>.html``).

A run page shows one run as the warehouse has it: its spec and system, scores and the judges'
verdicts, a channel timeline (GUI or CLI per tool call, inline SVG), every ledger event in
order (model calls, messages, tool calls with arguments and output, screenshots inline where
they were taken, interventions, snapshots, grading), tests per round with failure messages,
and every judgement with its dimensions, deliverables, clauses (their evidence links to the
ledger events it cites) and cheat flags. Every value is escaped (jinja2 autoescape): agent
output is text, never markup. Pages are static HTML with inline CSS: no script, nothing
fetched. A row page lists the runs behind one table row of ``index.html``.

Re-writing is cheap: ``report/runs/.pages.json`` keeps, per page, the run's ``ingest_digest``
and the page format; a page whose run is unchanged is not rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import jinja2

from analysis.run_record import RunRecord, page_digests, read_records
from analysis.run_trajectory import Step, copy_screenshots, trajectory
from realcli.util.safe_fs import write_bytes_under

__all__ = [
    "PagesWritten",
    "environment",
    "render_run_page",
    "row_page_runs",
    "write_row_page",
    "write_run_pages",
]

PAGE_FORMAT = 1
"""Bump when a page's content changes for the same run (forces every page to be rebuilt)."""
MANIFEST = ".pages.json"
_SAFE_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_LONG_CHARS, _LONG_LINES = 600, 12


@dataclass(frozen=True)
class PagesWritten:
    written: int
    unchanged: int
    screenshots: int
    refused: tuple[str, ...] = ()  # run keys that cannot name a file


def _long(text: object) -> bool:
    s = str(text)
    return len(s) > _LONG_CHARS or s.count("\n") >= _LONG_LINES


def _first_line(text: object, width: int = 100) -> str:
    line = str(text).strip().split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"


def _pretty(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, default=str, sort_keys=False)


def _fmt(value: object, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


@cache
def environment() -> jinja2.Environment:
    """The templates of ``analysis/templates`` with autoescape on for every file."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("analysis", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(pretty=_pretty, fmt=_fmt, first_line=_first_line)
    env.tests["long"] = _long
    return env


@cache
def _format_digest() -> str:
    """The page format: PAGE_FORMAT and the templates' bytes."""
    h = hashlib.sha256(str(PAGE_FORMAT).encode())
    folder = resources.files("analysis").joinpath("templates")
    for name in ("run.html", "base.html", "macros.html"):
        h.update(folder.joinpath(name).read_bytes())
    return h.hexdigest()[:16]


def _timeline(steps: list[Step]) -> dict[str, Any]:
    calls = [s for s in steps if s.kind == "tool_call"]
    rects: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    last_round = None
    for i, s in enumerate(calls):
        channel = str(s.payload.get("channel", "cli"))
        rects.append(
            {
                "x": i,
                "seq": s.seq,
                "channel": channel if channel in ("gui", "cli") else "other",
                "title": f"step {s.step}: {s.payload.get('name', '?')} ({channel})",
                "failed": s.result is not None and s.result.get("ok") is False,
            }
        )
        if s.round != last_round and i > 0:
            rounds.append({"x": i, "round": s.round})
        last_round = s.round
    counts: dict[str, int] = {}
    for r in rects:
        counts[str(r["channel"])] = counts.get(str(r["channel"]), 0) + 1
    return {"rects": rects, "rounds": rounds, "width": max(len(rects), 1), "counts": counts}


def _tests_by_round(record: RunRecord) -> list[dict[str, Any]]:
    out = []
    for rnd in record.rounds or [
        {"round": r} for r in sorted({t["round"] for t in record.test_results})
    ]:
        tests = [t for t in record.test_results if t["round"] == rnd["round"]]
        out.append(
            {
                "round": rnd,
                "failed": [t for t in tests if t["outcome"] != "passed"],
                "passed": [t for t in tests if t["outcome"] == "passed"],
            }
        )
    return out


def _judgements(record: RunRecord) -> list[dict[str, Any]]:
    out = []
    for j in record.judgements:
        judge = j["judge"]
        checks = []
        for check in (c for c in record.artifact_checks if c["judge"] == judge):
            clauses = [
                c
                for c in record.clause_results
                if c["judge"] == judge and c["deliverable"] == check["deliverable"]
            ]
            checks.append({"check": check, "clauses": clauses})
        known = {c["deliverable"] for c in record.artifact_checks if c["judge"] == judge}
        loose = [
            c
            for c in record.clause_results
            if c["judge"] == judge and c["deliverable"] not in known
        ]
        out.append(
            {
                "j": j,
                "dimensions": [d for d in record.judge_dimensions if d["judge"] == judge],
                "checks": checks,
                "loose_clauses": loose,
                "flags": [f for f in record.hack_flags if f["judge"] == judge],
            }
        )
    return out


def render_run_page(record: RunRecord, steps: list[Step], *, index_href: str) -> str:
    """The HTML of ``record``'s page (screenshots already copied: ``steps`` carry src)."""
    run = record.run
    spec = run.get("spec_json")
    return (
        environment()
        .get_template("run.html")
        .render(
            run=run,
            spec_text=_pretty(spec) if spec is not None else "",
            steps=steps,
            timeline=_timeline(steps),
            tests=_tests_by_round(record),
            judgements=_judgements(record),
            interventions=record.interventions,
            snapshots=record.snapshots,
            extra=record.extra,
            index_href=index_href,
            seqs={int(e["seq"]) for e in record.events},
        )
    )


def _read_manifest(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def write_run_pages(
    con: duckdb.DuckDBPyConnection,
    out_dir: Path,
    run_keys: Sequence[str] | None = None,
    *,
    force: bool = False,
) -> PagesWritten:
    """Write ``out_dir/runs/<run_key>.html`` (and its screenshots in ``out_dir/runs/<run_key>/``)
    for ``run_keys`` (None: every run in the warehouse). A page whose run has the same
    ``ingest_digest`` and page format as when it was written is left as it is (``force``
    rewrites it); the page of a run written before and no longer asked for is removed."""
    runs_dir = out_dir / "runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = runs_dir / MANIFEST
    built = {} if force else _read_manifest(manifest_path)
    fmt = _format_digest()
    wanted = {k: f"{d}:{fmt}" for k, d in page_digests(con, run_keys).items()}
    refused = tuple(sorted(k for k in wanted if not _SAFE_KEY.match(k)))
    todo = [
        k
        for k, stamp in wanted.items()
        if k not in refused and (built.get(k) != stamp or not (runs_dir / f"{k}.html").is_file())
    ]
    shots = 0
    written = 0
    for record in read_records(con, todo):
        key = record.run_key
        steps = trajectory(record.events)
        shots += copy_screenshots(steps, Path(str(record.run["run_dir"])), runs_dir / key, key)
        page = render_run_page(record, steps, index_href="../index.html")
        write_bytes_under(runs_dir, f"{key}.html", page.encode("utf-8"))
        built[key] = wanted[key]
        written += 1
    for gone in (k for k in built if k not in wanted and _SAFE_KEY.match(k)):
        (runs_dir / f"{gone}.html").unlink(missing_ok=True)  # a run no longer in the report
        shutil.rmtree(runs_dir / gone, ignore_errors=True)
    kept = {k: v for k, v in built.items() if k in wanted}
    write_bytes_under(out_dir, f"runs/{MANIFEST}", json.dumps(kept, indent=0).encode())
    return PagesWritten(written, len(wanted) - written - len(refused), shots, refused)


def row_page_runs(
    con: duckdb.DuckDBPyConnection,
    rows: Sequence[Sequence[str]],
    primary_judge: str,
    limit: int,
) -> tuple[list[list[dict[str, Any]]], set[str]]:
    """What the row pages of one figure show: per row of ``rows`` (the run keys behind each
    table row), the first ``limit`` of its runs in page order (task, model, harness, mode,
    protocol, seed, key) with their status, scores and the primary judge's score; and the keys
    no longer in the warehouse. One query for every row page of a figure, not one per row,
    and its result is bounded by ``limit`` per row however many runs a row stands for."""
    row_ns: list[int] = []
    keys: list[str] = []
    for n, row_keys in enumerate(rows):
        for key in dict.fromkeys(row_keys):
            row_ns.append(n)
            keys.append(key)
    if not keys:
        return [[] for _ in rows], set()
    con.execute(
        "create or replace temp table row_page_keys as"
        " select unnest(?::integer[]) as row_n, unnest(?::varchar[]) as run_key",
        [row_ns, keys],
    )
    cur = con.execute(
        "select w.row_n, r.run_key, r.task_id, r.task_kind, r.model, r.harness, r.mode,"
        " r.protocol, r.seed, r.status, r.passed, r.f2p_step, j.final_score,"
        " j.passed as judged_pass from row_page_keys w join runs r on r.run_key = w.run_key"
        " left join judgements j on j.run_key = r.run_key and j.judge = ?"
        " qualify row_number() over (partition by w.row_n order by r.task_id, r.model,"
        " r.harness, r.mode, r.protocol, r.seed, r.run_key) <= ?"
        " order by w.row_n, r.task_id, r.model, r.harness, r.mode, r.protocol, r.seed,"
        " r.run_key",
        [primary_judge, limit],
    )
    names = [str(d[0]) for d in cur.description or []][1:]
    shown: list[list[dict[str, Any]]] = [[] for _ in rows]
    for r in cur.fetchall():
        shown[int(r[0])].append(dict(zip(names, r[1:], strict=True)))
    missing = con.execute(
        "select distinct w.run_key from row_page_keys w anti join runs r on r.run_key = w.run_key"
    ).fetchall()
    con.execute("drop table row_page_keys")
    return shown, {str(m[0]) for m in missing}


def write_row_page(
    out_dir: Path,
    name: str,
    run_keys: Sequence[str],
    runs: Sequence[dict[str, Any]],
    missing: set[str],
    *,
    title: str,
    row: str,
    primary_judge: str,
    csv_name: str,
    link_runs: bool = True,
) -> str:
    """Write ``out_dir/rows/<name>.html`` listing ``runs`` (the row's first runs of
    :func:`row_page_runs`, in its order: task, model, harness, mode, protocol, seed), each
    linked to its run page; a row with more runs than shown says how many and that the
    figure's CSV (``csv_name``) lists every run key. Returns its href from index.html."""
    unique = list(dict.fromkeys(run_keys))
    page = (
        environment()
        .get_template("rows.html")
        .render(
            title=title,
            row=row,
            runs=runs,
            total=len(unique) - len(missing.intersection(unique)),
            missing=[k for k in unique if k in missing],
            primary_judge=primary_judge,
            link_runs=link_runs,
            csv_href=f"../{csv_name}",
            csv_name=csv_name,
            index_href="../index.html",
        )
    )
    write_bytes_under(out_dir, f"rows/{name}.html", page.encode("utf-8"))
    return f"rows/{name}.html"
