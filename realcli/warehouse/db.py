"""Open the warehouse: numbered migrations applied once, ``.sql`` views rebuilt every time.

Migrations are ``migrations/NNN_name.sql`` (DDL, applied in order, each in a transaction and
recorded in ``schema_migrations`` with a checksum). Views are ``views/<name>.sql``: one query per
file (a CTE chain ending in ``select * from final``), created as view ``<name>`` in layer order
``stg_`` → ``int_`` → ``dim_`` → ``fct_`` → others, so a view may read any view of a lower layer.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb

from realcli.util.errors import RealcliError
from realcli.util.hashing import sha256_bytes

__all__ = [
    "MIGRATIONS_DIR",
    "VIEWS_DIR",
    "Migration",
    "WarehouseError",
    "apply_migrations",
    "connect",
    "create_views",
    "load_migrations",
    "view_files",
    "writer_lock",
]

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
VIEWS_DIR = Path(__file__).parent / "views"
_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
_VIEW_NAME = re.compile(r"^[a-z][a-z0-9_]*\.sql$")
_LAYERS = ("stg_", "int_", "dim_", "fct_")


class WarehouseError(RealcliError):
    """A warehouse file or SQL file that cannot be used as it is."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path
    sql: str

    @property
    def checksum(self) -> str:
        return sha256_bytes(self.sql.encode())


def connect(
    path: Path | str,
    *,
    read_only: bool = False,
    migrations_dir: Path = MIGRATIONS_DIR,
    views_dir: Path = VIEWS_DIR,
) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) the warehouse at ``path`` (``":memory:"`` for a throwaway one).

    Writable: applies pending migrations, then (re)creates every view. Read-only: checks that
    every migration is applied and creates the views as temporary views, so analyses always see
    the views of the installed realcli without writing to the file. Only one process may hold a
    writable connection; the caller owns it and closes it.
    """
    target = str(path)
    if read_only and target != ":memory:" and not Path(target).exists():
        raise WarehouseError(target, None, "no warehouse file", "run `realcli ingest` first")
    try:
        con = duckdb.connect(target, read_only=read_only)
    except duckdb.IOException as exc:
        first = str(exc).splitlines()[0][:300]
        raise WarehouseError(
            target,
            None,
            f"cannot open the warehouse ({first})",
            "another process has it open for writing: wait for it to finish or close it",
        ) from exc
    try:
        con.execute("set TimeZone = 'UTC'")
        migrations = load_migrations(migrations_dir)
        if read_only:
            _check_applied(con, target, migrations)
        else:
            apply_migrations(con, migrations)
        create_views(con, views_dir, temporary=read_only)
    except BaseException:
        con.close()
        raise
    return con


@contextlib.contextmanager
def writer_lock(
    warehouse: Path, wait_s: float, on_wait: Callable[[str], None] | None = None
) -> Iterator[Path]:
    """Hold ``<warehouse>.lock`` (``fcntl.flock``, released on exit or process death) so that a
    second ingest waits for the first instead of failing inside DuckDB.

    Polls for up to ``wait_s`` seconds; ``on_wait`` gets one line when it has to wait. Raises
    :class:`WarehouseError` naming the holder's pid when the wait runs out.
    """
    lock = warehouse.with_name(warehouse.name + ".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise WarehouseError(
            str(lock), None, f"cannot create the ingest lock ({exc.strerror})", "check the folder"
        ) from exc
    try:
        deadline = time.monotonic() + max(wait_s, 0.0)
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _holder(fd)
                if time.monotonic() >= deadline:
                    raise WarehouseError(
                        str(warehouse),
                        None,
                        f"another ingest{holder} holds the warehouse"
                        + (f" (waited {wait_s:g} s)" if wait_s > 0 else ""),
                        "wait for it to finish, or pass --wait SECONDS to wait longer",
                    ) from None
                if not told and on_wait is not None:
                    on_wait(f"waiting up to {wait_s:g} s for another ingest{holder} ({lock})")
                    told = True
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield lock
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode().strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every ``NNN_name.sql`` under ``directory``, by version; a malformed name is an error."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            raise WarehouseError(
                str(path), "file name", "not NNN_name.sql", "rename it, e.g. 002_add_judges.sql"
            )
        found.append(Migration(int(m.group(1)), m.group(2), path, path.read_text()))
    versions = [mig.version for mig in found]
    if len(set(versions)) != len(versions):
        raise WarehouseError(
            str(directory), "version", "two migrations share a number", "renumber the newer one"
        )
    return sorted(found, key=lambda mig: mig.version)


def apply_migrations(con: duckdb.DuckDBPyConnection, migrations: list[Migration]) -> list[int]:
    """Apply the migrations not yet recorded in ``schema_migrations``; returns their versions."""
    con.execute(
        "create table if not exists schema_migrations ("
        " version integer primary key, name varchar not null, checksum varchar not null,"
        " applied_at timestamptz not null default current_timestamp)"
    )
    applied = _applied(con)
    done: list[int] = []
    for mig in migrations:
        if mig.version in applied:
            if applied[mig.version] != mig.checksum:
                raise WarehouseError(
                    str(mig.path),
                    "content",
                    f"migration {mig.version:03d} changed after it was applied",
                    "restore the file and put the change in a new numbered migration",
                )
            continue
        con.execute("begin transaction")
        try:
            con.execute(mig.sql)
            con.execute(
                "insert into schema_migrations (version, name, checksum) values (?, ?, ?)",
                [mig.version, mig.name, mig.checksum],
            )
            con.execute("commit")
        except duckdb.Error as exc:
            con.execute("rollback")
            raise WarehouseError(
                str(mig.path), None, f"migration failed: {exc}", "fix the SQL and reconnect"
            ) from exc
        done.append(mig.version)
    return done


def view_files(directory: Path = VIEWS_DIR) -> list[Path]:
    """View files in creation order: by layer prefix, then by name."""

    def layer(path: Path) -> int:
        for i, prefix in enumerate(_LAYERS):
            if path.name.startswith(prefix):
                return i
        return len(_LAYERS)

    files = sorted(directory.glob("*.sql"), key=lambda p: (layer(p), p.name))
    for path in files:
        if not _VIEW_NAME.match(path.name):
            raise WarehouseError(
                str(path), "file name", "not a lower-case SQL identifier", "rename, e.g. fct_x.sql"
            )
    return files


def create_views(
    con: duckdb.DuckDBPyConnection, directory: Path = VIEWS_DIR, *, temporary: bool = False
) -> list[str]:
    """(Re)create one view per file; drops persistent views whose file is gone.

    Within a layer a view may also read another of the same layer: a view that fails to bind
    is retried after the others, and the last binding error is raised if no order works.
    """
    pending = view_files(directory)
    names = [p.stem for p in pending]
    kind = "temp view" if temporary else "view"
    if not temporary:
        for (stale,) in con.execute(
            "select view_name from duckdb_views() where not internal and not temporary"
            " and schema_name = 'main'"
        ).fetchall():
            if stale not in names:
                con.execute(f'drop view "{stale}"')
    created: list[str] = []
    while pending:
        failed: list[tuple[Path, duckdb.Error]] = []
        for path in pending:
            sql = path.read_text().strip().rstrip(";")
            try:
                con.execute(f'create or replace {kind} "{path.stem}" as\n{sql}')
                created.append(path.stem)
            except duckdb.Error as exc:
                failed.append((path, exc))
        if len(failed) == len(pending):
            first, error = failed[0]
            raise WarehouseError(str(first), None, f"view does not bind: {error}", "fix the SQL")
        pending = [path for path, _ in failed]
    return created


def _applied(con: duckdb.DuckDBPyConnection) -> dict[int, str]:
    rows = con.execute("select version, checksum from schema_migrations").fetchall()
    return {int(v): str(c) for v, c in rows}


def _check_applied(
    con: duckdb.DuckDBPyConnection, target: str, migrations: list[Migration]
) -> None:
    has_table = con.execute(
        "select count(*) from duckdb_tables() where table_name = 'schema_migrations'"
    ).fetchone()
    applied = _applied(con) if has_table and has_table[0] else {}
    missing = [m.version for m in migrations if m.version not in applied]
    if missing:
        raise WarehouseError(
            target,
            "schema_migrations",
            f"migrations {missing} not applied",
            "run `realcli ingest` (a writable connection migrates)",
        )
