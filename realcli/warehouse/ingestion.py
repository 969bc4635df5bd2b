"""Ingest run folders into the warehouse: idempotent on ``run_key``, one writer, bulk inserts.

``RUNS_DIR/<experiment>/<run_key>/`` folders are read; one whose files (``RUN_FILES``: spec,
ledger, verdict and the optional progress.json) are byte-identical to what was loaded before is
skipped; a new or changed one is replaced (its rows deleted and inserted anew) inside a
transaction. A folder that can't be read is reported in
``IngestStats.problems`` and skipped; the rest still load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from realcli.ledger.layout import run_folders
from realcli.warehouse.db import WarehouseError
from realcli.warehouse.frames import insert_rows
from realcli.warehouse.run_folder import (
    RunFolderError,
    RunRows,
    folder_digest,
    read_run_folder,
)

__all__ = ["RUN_TABLES", "IngestStats", "ingest"]

RUN_TABLES = (
    "runs",
    "rounds",
    "test_results",
    "substep_results",
    "events",
    "model_calls",
    "tool_calls",
    "sessions",
    "tool_pools",
    "fidelity",
    "interventions",
    "snapshots",
    "progress_goals",
    "progress_runs",
)
"""Every raw table keyed by ``run_key``: a run's rows in all of them are replaced together."""


@dataclass
class IngestStats:
    loaded: int = 0
    """Run folders inserted or replaced by this call."""
    unchanged: int = 0
    """Run folders skipped because their files are unchanged since they were loaded."""
    incomplete: int = 0
    """Of ``loaded``: runs without verdict.json, or whose ledger is truncated or has no run_end."""
    removed: int = 0
    """Runs loaded earlier from this runs folder whose folder no longer exists: deleted."""
    problems: list[str] = field(default_factory=list)
    """One line per folder skipped or loaded with a defect: the file, the field and the fix."""


def ingest(con: duckdb.DuckDBPyConnection, runs_dir: Path, *, batch_size: int = 250) -> IngestStats:
    """Load every new or changed run folder under ``runs_dir`` into the warehouse behind ``con``.

    ``con`` must be a writable connection from :func:`realcli.warehouse.connect`. Runs are
    written ``batch_size`` at a time, each batch in one transaction.
    """
    if not runs_dir.is_dir():
        raise WarehouseError(
            str(runs_dir), None, "not a directory", "pass the runs folder (paths.runs_dir)"
        )
    runs_dir = runs_dir.resolve()
    stats = IngestStats()
    known = {
        str(run_dir): (str(key), str(digest))
        for key, run_dir, digest in con.execute(
            "select run_key, run_dir, ingest_digest from runs"
        ).fetchall()
    }
    seen: dict[str, Path] = {}
    batch: list[RunRows] = []
    ingested_at = datetime.now(UTC)
    on_disk: set[str] = set()
    for run_dir in run_folders(runs_dir):
        on_disk.add(str(run_dir))
        digest = folder_digest(run_dir)
        previous = known.get(str(run_dir))
        if previous is not None and previous[1] == digest:
            stats.unchanged += 1
            seen[previous[0]] = run_dir
            continue
        try:
            rows = read_run_folder(run_dir, digest, ingested_at)
        except RunFolderError as exc:
            stats.problems.append(f"{exc}; folder skipped")
            continue
        if rows.run_key in seen:
            stats.problems.append(
                f"{run_dir}: run_key: {rows.run_key!r} is also the run in {seen[rows.run_key]};"
                " folder skipped (fix: delete the copy)"
            )
            continue
        seen[rows.run_key] = run_dir
        batch.append(rows)
        if len(batch) >= batch_size:
            _write(con, batch, stats)
            batch = []
    _write(con, batch, stats)
    gone = [
        key
        for run_dir, (key, _) in known.items()
        if Path(run_dir).is_relative_to(runs_dir) and run_dir not in on_disk and key not in seen
    ]
    if gone:
        _delete(con, gone)
        stats.removed = len(gone)
    return stats


def _delete_rows(con: duckdb.DuckDBPyConnection, keys: list[str]) -> None:
    for table in RUN_TABLES:
        con.execute(f"delete from {table} where run_key in (select unnest(?::varchar[]))", [keys])


def _delete(con: duckdb.DuckDBPyConnection, keys: list[str]) -> None:
    con.execute("begin transaction")
    try:
        _delete_rows(con, keys)
        con.execute("commit")
    except BaseException:
        con.execute("rollback")
        raise


def _write(con: duckdb.DuckDBPyConnection, batch: list[RunRows], stats: IngestStats) -> None:
    """Replace the batch's runs in one transaction; on failure retry run by run to isolate it."""
    if not batch:
        return
    try:
        _replace(con, batch)
    except duckdb.Error as exc:
        if len(batch) > 1:
            for rows in batch:
                _write(con, [rows], stats)
            return
        stats.problems.append(
            f"{batch[0].run['run_dir']}: rows rejected by the warehouse ({exc});"
            " folder skipped (fix: report this as a realcli bug)"
        )
        return
    for rows in batch:
        _count(rows, stats)


def _replace(con: duckdb.DuckDBPyConnection, batch: list[RunRows]) -> None:
    keys = [rows.run_key for rows in batch]
    con.execute("begin transaction")
    try:
        _delete_rows(con, keys)
        for table in RUN_TABLES:
            insert_rows(con, table, [row for rows in batch for row in rows.tables()[table]])
        con.execute("commit")
    except BaseException:
        con.execute("rollback")
        raise


def _count(rows: RunRows, stats: IngestStats) -> None:
    stats.loaded += 1
    stats.problems.extend(rows.problems)
    if rows.run["status"] == "incomplete" or not rows.run["complete"]:
        stats.incomplete += 1
