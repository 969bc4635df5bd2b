"""Everything the warehouse holds about a run, gathered for its page (:mod:`analysis.run_page`).

One :class:`RunRecord` per run: its ``runs`` row, every ledger event (``events.payload`` parsed),
its rounds and test results, the judges' judgements with their dimensions, deliverables,
clauses and cheat flags, and the LongCLI interventions and snapshots. Records are read in
batches (one query per table for many runs), so writing pages for a large report costs a few
queries per batch, not per run. Tables that a newer migration adds (``run_deliverables``,
``run_clauses``, ``screenshot_provenance``) are read when the warehouse has them and shown as
they are.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb

__all__ = ["OPTIONAL_TABLES", "RunRecord", "page_digests", "read_records"]

Row = dict[str, Any]

_TABLES: dict[str, str] = {  # table -> order of its rows on the page
    "events": "seq",
    "rounds": "round",
    "test_results": "round, test_set, outcome = 'passed', nodeid",
    "judgements": "judge",
    "judge_dimensions": "judge, dimension",
    "artifact_checks": "judge, deliverable",
    "clause_results": "judge, deliverable, clause_id",
    "hack_flags": "judge, seq nulls last, pattern",
    "interventions": "seq",
    "snapshots": "seq",
}
OPTIONAL_TABLES = ("run_deliverables", "run_clauses", "screenshot_provenance")
"""Tables read when present (migration 009 and later), rendered column by column."""


@dataclass
class RunRecord:
    """One run as its page shows it; every list is in page order."""

    run: Row
    events: list[Row] = field(default_factory=list)
    rounds: list[Row] = field(default_factory=list)
    test_results: list[Row] = field(default_factory=list)
    judgements: list[Row] = field(default_factory=list)
    judge_dimensions: list[Row] = field(default_factory=list)
    artifact_checks: list[Row] = field(default_factory=list)
    clause_results: list[Row] = field(default_factory=list)
    hack_flags: list[Row] = field(default_factory=list)
    interventions: list[Row] = field(default_factory=list)
    snapshots: list[Row] = field(default_factory=list)
    extra: dict[str, list[Row]] = field(default_factory=dict)

    @property
    def run_key(self) -> str:
        return str(self.run["run_key"])


def _rows(cur: duckdb.DuckDBPyConnection) -> Iterator[Row]:
    names = [str(d[0]) for d in cur.description or []]
    for values in cur.fetchall():
        yield dict(zip(names, values, strict=True))


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {
        str(r[0])
        for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'main'"
        ).fetchall()
    }


def _by_run(
    con: duckdb.DuckDBPyConnection, table: str, keys: list[str], order: str
) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    cur = con.execute(
        f"select * from {table} where run_key in (select unnest(?::varchar[]))"
        f" order by run_key, {order}",
        [keys],
    )
    for row in _rows(cur):
        out[str(row["run_key"])].append(row)
    return out


def _parse_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def read_records(
    con: duckdb.DuckDBPyConnection, run_keys: Iterable[str], *, batch: int = 200
) -> Iterator[RunRecord]:
    """The records of ``run_keys`` that the warehouse has, in the order given, ``batch`` runs
    per round of queries. A key with no ``runs`` row is skipped."""
    present = _tables(con)
    extra_tables = [t for t in OPTIONAL_TABLES if t in present]
    keys = list(dict.fromkeys(run_keys))
    for start in range(0, len(keys), batch):
        chunk = keys[start : start + batch]
        runs = {
            str(r["run_key"]): r
            for r in _rows(
                con.execute(
                    "select * from runs where run_key in (select unnest(?::varchar[]))", [chunk]
                )
            )
        }
        tables = {t: _by_run(con, t, chunk, order) for t, order in _TABLES.items()}
        extras = {t: _by_run(con, t, chunk, "1") for t in extra_tables}
        for key in chunk:
            if key not in runs:
                continue
            run = runs[key]
            run["spec_json"] = _parse_json(run.get("spec_json"))
            record = RunRecord(run=run)
            for table, rows in tables.items():
                setattr(record, table, rows.get(key, []))
            for event in record.events:
                event["payload"] = _parse_json(event["payload"])
            for row in (*record.clause_results, *record.hack_flags, *record.judge_dimensions):
                for column in ("evidence", "evidence_json", "features"):
                    if column in row:
                        row[column] = _parse_json(row[column])
            record.extra = {t: rows[key] for t, rows in extras.items() if rows.get(key)}
            yield record


def page_digests(con: duckdb.DuckDBPyConnection, run_keys: Sequence[str] | None) -> dict[str, str]:
    """``run_key -> ingest_digest`` of ``run_keys`` (None: every run in the warehouse)."""
    if run_keys is None:
        cur = con.execute("select run_key, ingest_digest from runs")
    else:
        cur = con.execute(
            "select run_key, ingest_digest from runs where run_key in"
            " (select unnest(?::varchar[]))",
            [list(run_keys)],
        )
    return {str(k): str(d) for k, d in cur.fetchall()}
