"""Ingest run folders into the warehouse: idempotent on ``run_key``, one writer, bulk inserts.

``RUNS_DIR/<experiment>/<run_key>/`` folders are read; one whose files (``RUN_FILES``: spec,
ledger, verdict and the optional progress.json, plus every judgements/*.json) are byte-identical
to what was loaded before is skipped; a new or changed one is replaced (its rows deleted and
inserted anew) inside a transaction. Each folder is isolated: anything that goes wrong while
reading or writing one folder (a damaged file, a link, an exception realcli did not foresee)
becomes a :class:`~realcli.warehouse.problems.Problem`, printed by ``realcli ingest`` and stored in
``ingest_problems``, and the other folders still load.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from realcli.warehouse.db import WarehouseError
from realcli.warehouse.frames import insert_rows
from realcli.warehouse.problems import SKIPPED, Problem
from realcli.warehouse.run_folder import (
    RunFolderError,
    RunRows,
    folder_digest,
    read_run_folder,
)

__all__ = ["PARALLEL_FROM", "RUN_TABLES", "IngestStats", "ingest"]

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
    "judgements",
    "artifact_checks",
    "clause_results",
    "judge_dimensions",
    "hack_flags",
    "run_deliverables",
    "run_clauses",
    "screenshots",
    "screenshot_provenance",
    "tool_call_ops",
    "run_task_atoms",
    "run_p1_atoms",
    "run_gui_apps",
)
"""Every raw table keyed by ``run_key``: a run's rows in all of them are replaced together."""

_FIX_BUG = "report this as a realcli bug with the folder; meanwhile move the folder away"


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
    skipped: int = 0
    """Run folders that could not be loaded at all (each has a problem)."""
    problems: list[str] = field(default_factory=list)
    """One line per folder skipped or loaded with a defect: the file, the field and the fix."""
    problem_rows: list[tuple[Path, str | None, Problem]] = field(default_factory=list)
    """The same problems with their run folder and run key (``ingest_problems`` rows)."""

    def add(self, run_dir: Path, run_key: str | None, problem: Problem) -> None:
        self.problems.append(str(problem))
        self.problem_rows.append((run_dir, run_key, problem))
        if problem.skipped:
            self.skipped += 1


def ingest(
    con: duckdb.DuckDBPyConnection,
    runs_dir: Path,
    *,
    batch_size: int = 250,
    workers: int | None = None,
) -> IngestStats:
    """Load every new or changed run folder under ``runs_dir`` into the warehouse behind ``con``.

    ``con`` must be a writable connection from :func:`realcli.warehouse.connect`. Runs are
    written ``batch_size`` at a time, each batch in one transaction. Folders are read (parsed
    and validated) by ``workers`` processes while this one writes; ``None``: one per core
    when there are at least :data:`PARALLEL_FROM` folders to read, else this process alone.
    Results are used in folder order either way, so the outcome does not depend on it.
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
    loaded_keys = {key for key, _ in known.values()}
    """Run keys that already have rows: only these need deleting before an insert."""
    seen: dict[str, Path] = {}
    batch: list[RunRows] = []
    ingested_at = datetime.now(UTC)
    on_disk: set[str] = set()
    read: set[str] = set()
    to_read: list[tuple[Path, str]] = []
    for run_dir in _run_folders(runs_dir, stats):
        on_disk.add(str(run_dir))
        read_it = _needs_reading(run_dir, known, seen, stats)
        if read_it is not None:
            read.add(str(run_dir))
            if read_it:
                to_read.append((run_dir, read_it))
    for run_dir, (rows, problem) in _read_all(to_read, ingested_at, workers):
        if problem is not None:
            stats.add(run_dir, None, problem)
            continue
        assert rows is not None
        if rows.run_key in seen:
            stats.add(
                run_dir,
                None,
                Problem(
                    str(run_dir),
                    "run_key",
                    f"{rows.run_key!r} is also the run in {seen[rows.run_key]}",
                    "delete the copy",
                    SKIPPED,
                ),
            )
            continue
        seen[rows.run_key] = run_dir
        batch.append(rows)
        if len(batch) >= batch_size:
            _write(con, batch, stats, loaded_keys)
            batch = []
    _write(con, batch, stats, loaded_keys)
    gone = [
        key
        for run_dir, (key, _) in known.items()
        if Path(run_dir).is_relative_to(runs_dir) and run_dir not in on_disk and key not in seen
    ]
    if gone:
        _delete(con, gone)
        stats.removed = len(gone)
    _store_problems(con, runs_dir, read, on_disk, stats, ingested_at)
    return stats


PARALLEL_FROM = 64
"""Fewer folders to read than this are read in-process (a worker pool costs ~1 s to start)."""
_WINDOW = 256
"""Folders handed to the pool at a time: bounds the rows held in memory."""

_ReadResult = tuple[RunRows | None, Problem | None]


def _needs_reading(
    run_dir: Path, known: dict[str, tuple[str, str]], seen: dict[str, Path], stats: IngestStats
) -> str | None:
    """The folder's digest when it must be read; ``""`` when it is a problem already reported
    (a link, an unreadable folder); ``None`` when it is unchanged since the last ingest."""
    if run_dir.is_symlink():
        stats.add(run_dir, None, _linked(run_dir))
        return ""
    try:
        digest = folder_digest(run_dir)
    except RunFolderError as exc:
        stats.add(run_dir, None, Problem(exc.where, exc.field, exc.problem, exc.fix, SKIPPED))
        return ""
    except Exception as exc:  # isolate the folder: whatever broke, the others still load
        stats.add(run_dir, None, _unexpected(run_dir, "reading it", exc))
        return ""
    previous = known.get(str(run_dir))
    if previous is not None and previous[1] == digest:
        stats.unchanged += 1
        seen[previous[0]] = run_dir
        return None
    return digest


def _read_one(job: tuple[Path, str, datetime]) -> _ReadResult:
    """Read one folder; never raises (a worker's exception would lose the whole window)."""
    run_dir, digest, ingested_at = job
    try:
        return read_run_folder(run_dir, digest, ingested_at), None
    except RunFolderError as exc:
        return None, Problem(exc.where, exc.field, exc.problem, exc.fix, SKIPPED)
    except Exception as exc:  # isolate the folder: whatever broke, the others still load
        return None, _unexpected(run_dir, "reading it", exc)


def _read_all(
    folders: list[tuple[Path, str]], ingested_at: datetime, workers: int | None
) -> Iterator[tuple[Path, _ReadResult]]:
    """``(run_dir, result)`` for every folder, in order; in a process pool when it pays."""
    jobs = [(run_dir, digest, ingested_at) for run_dir, digest in folders]
    if workers is None:
        workers = (os.cpu_count() or 1) if len(jobs) >= PARALLEL_FROM else 1
    if workers <= 1 or len(jobs) < 2:
        for job in jobs:
            yield job[0], _read_one(job)
        return
    # fork: the workers inherit the imported modules (no start-up imports) and never re-run
    # the caller's __main__ (a script without a main guard). They only read files and build
    # rows; they never touch the DuckDB connection the parent holds.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        windows = [jobs[i : i + _WINDOW] for i in range(0, len(jobs), _WINDOW)]
        pending = pool.map(_read_one, windows[0], chunksize=8)
        for k, window in enumerate(windows):
            done = list(pending)
            if k + 1 < len(windows):  # the next window is read while this one is written
                pending = pool.map(_read_one, windows[k + 1], chunksize=8)
            for job, result in zip(window, done, strict=True):
                yield job[0], result


def _run_folders(runs_dir: Path, stats: IngestStats) -> Iterator[Path]:
    """``runs_dir/<experiment>/<run>/`` folders, sorted (names starting with ``.`` or ``_``
    are not experiments or runs), without following a linked experiment folder; a folder that
    can't be listed is a problem, the others are still listed. A linked run folder is yielded
    (the caller reports it)."""
    try:
        experiments = sorted(runs_dir.iterdir())
    except OSError as exc:
        raise WarehouseError(
            str(runs_dir), None, f"cannot list ({exc.strerror})", "check its permissions"
        ) from exc
    for experiment in experiments:
        if experiment.name[0] in "._":
            continue
        if experiment.is_symlink():
            if experiment.is_dir():
                stats.add(experiment, None, _linked(experiment))
            continue
        if not experiment.is_dir():
            continue
        try:
            entries = sorted(experiment.iterdir())
        except OSError as exc:
            stats.add(
                experiment,
                None,
                Problem(
                    str(experiment),
                    None,
                    f"cannot list the experiment folder ({exc.strerror})",
                    "check its permissions",
                    SKIPPED,
                ),
            )
            continue
        for run_dir in entries:
            if run_dir.name[0] not in "._" and (run_dir.is_dir() or run_dir.is_symlink()):
                yield run_dir


def _linked(path: Path) -> Problem:
    return Problem(
        str(path),
        None,
        "is a symbolic link (ingest never follows links in the runs folder)",
        "move the folder itself here instead of linking it",
        SKIPPED,
    )


def _unexpected(run_dir: Path, doing: str, exc: BaseException) -> Problem:
    what = str(exc).splitlines()[0][:200] if str(exc) else ""
    return Problem(
        str(run_dir),
        None,
        f"{type(exc).__name__} while {doing}" + (f": {what}" if what else ""),
        _FIX_BUG,
        SKIPPED,
    )


def _store_problems(
    con: duckdb.DuckDBPyConnection,
    runs_dir: Path,
    read: set[str],
    on_disk: set[str],
    stats: IngestStats,
    ingested_at: datetime,
) -> None:
    """Replace the ``ingest_problems`` rows of every folder read now; drop those of folders
    under ``runs_dir`` that are gone (a skipped folder is read again by every ingest)."""
    rows = [
        {
            "run_dir": str(run_dir),
            "run_key": key,
            "file": p.file,
            "location": p.location,
            "problem": p.problem,
            "fix": p.fix,
            "outcome": p.outcome,
            "ingested_at": ingested_at,
        }
        for run_dir, key, p in stats.problem_rows
    ]
    fresh = read | {str(run_dir) for run_dir, _, _ in stats.problem_rows}
    stale = [
        str(d)
        for (d,) in con.execute("select distinct run_dir from ingest_problems").fetchall()
        if str(d) in fresh or (Path(str(d)).is_relative_to(runs_dir) and str(d) not in on_disk)
    ]
    con.execute("begin transaction")
    try:
        con.execute(
            "delete from ingest_problems where run_dir in (select unnest(?::varchar[]))", [stale]
        )
        insert_rows(con, "ingest_problems", rows)
        con.execute("commit")
    except BaseException:
        con.execute("rollback")
        raise


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


def _write(
    con: duckdb.DuckDBPyConnection,
    batch: list[RunRows],
    stats: IngestStats,
    loaded_keys: set[str],
) -> None:
    """Replace the batch's runs in one transaction; on failure retry run by run to isolate it."""
    if not batch:
        return
    try:
        _replace(con, batch, loaded_keys)
    except Exception as exc:  # duckdb, polars (a value its column can't hold), encoding...
        if len(batch) > 1:
            for rows in batch:
                _write(con, [rows], stats, loaded_keys)
            return
        run_dir = Path(batch[0].run["run_dir"])
        what = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        stats.add(
            run_dir,
            None,
            Problem(
                str(run_dir), None, f"rows rejected by the warehouse ({what})", _FIX_BUG, SKIPPED
            ),
        )
        return
    for rows in batch:
        _count(rows, stats)


def _replace(con: duckdb.DuckDBPyConnection, batch: list[RunRows], loaded_keys: set[str]) -> None:
    # Deleting scans every table: only runs loaded before need it (a fresh ingest of n runs
    # would otherwise cost n / batch_size full scans, quadratic in the store's size).
    keys = [rows.run_key for rows in batch if rows.run_key in loaded_keys]
    con.execute("begin transaction")
    try:
        if keys:
            _delete_rows(con, keys)
        for table in RUN_TABLES:
            insert_rows(con, table, [row for rows in batch for row in rows.tables()[table]])
        con.execute("commit")
    except BaseException:
        con.execute("rollback")
        raise


def _count(rows: RunRows, stats: IngestStats) -> None:
    stats.loaded += 1
    for problem in rows.problems:
        stats.add(Path(rows.run["run_dir"]), rows.run_key, problem)
    if rows.run["status"] == "incomplete" or not rows.run["complete"]:
        stats.incomplete += 1
