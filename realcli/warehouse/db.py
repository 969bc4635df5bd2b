"""Open the warehouse: numbered migrations applied once, ``.sql`` views rebuilt every time.

Migrations are ``migrations/NNN_name.sql`` (DDL, applied in order, each in a transaction and
recorded in ``schema_migrations`` with a checksum). Views are ``views/<name>.sql``: one query per
file (a CTE chain ending in ``select * from final``), created as view ``<name>`` in layer order
``stg_`` → ``int_`` → ``dim_`` → ``fct_`` → others, so a view may read any view of a lower layer.
"""

from __future__ import annotations

import re
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
    con = duckdb.connect(target, read_only=read_only)
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
