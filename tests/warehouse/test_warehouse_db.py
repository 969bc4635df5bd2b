"""connect(): numbered migrations applied once and in order; .sql views rebuilt every time."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from run_folders import raw_run

from realcli.warehouse import (
    MIGRATIONS_DIR,
    VIEWS_DIR,
    WarehouseError,
    connect,
    fetch_df,
    insert_rows,
    load_migrations,
)
from realcli.warehouse.db import view_files


def _views(con: duckdb.DuckDBPyConnection) -> set[str]:
    rows = con.execute("select view_name from duckdb_views() where not internal").fetchall()
    return {r[0] for r in rows}


def _write(directory: Path, files: dict[str, str]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


def test_connect_applies_shipped_migrations_once(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with connect(path) as con:
        first = con.execute("select version, name, applied_at from schema_migrations").fetchall()
    with connect(path) as con:
        again = con.execute("select version, name, applied_at from schema_migrations").fetchall()
    assert [(v, n) for v, n, _ in first] == [(m.version, m.name) for m in load_migrations()]
    assert again == first


def test_every_view_file_becomes_a_view(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        assert _views(con) == {p.stem for p in VIEWS_DIR.glob("*.sql")}
        assert {"stg_runs", "stg_tests", "stg_substeps", "fct_runs", "fct_substeps"} <= _views(con)


def test_view_files_are_plain_queries_ending_in_final(tmp_path: Path) -> None:
    """Each file runs as it is (as in the duckdb CLI) against a migrated warehouse."""
    with connect(tmp_path / "w.duckdb") as con:
        for path in view_files():
            sql = path.read_text()
            assert sql.rstrip().rstrip(";").endswith("select * from final"), path.name
            con.execute(sql).fetchall()


def test_views_are_ordered_by_layer() -> None:
    names = [p.stem for p in view_files()]
    layers = [n.split("_")[0] for n in names]
    assert layers == sorted(layers, key=["stg", "int", "dim", "fct"].index)


def test_new_migrations_apply_in_order_and_only_once(tmp_path: Path) -> None:
    migrations = _write(
        tmp_path / "m",
        {
            "002_add_b.sql": "alter table a add column b integer;",
            "001_create_a.sql": "create table a (x integer);\ninsert into a values (1);",
        },
    )
    views = _write(tmp_path / "v", {})
    path = tmp_path / "w.duckdb"
    with connect(path, migrations_dir=migrations, views_dir=views) as con:
        assert con.execute("select x, b from a").fetchall() == [(1, None)]
    _write(migrations, {"003_more.sql": "insert into a values (3, 3);"})
    with connect(path, migrations_dir=migrations, views_dir=views) as con:
        assert con.execute("select x, b from a order by x").fetchall() == [(1, None), (3, 3)]
        versions = con.execute("select version from schema_migrations order by 1").fetchall()
        assert versions == [(1,), (2,), (3,)]


def test_an_edited_applied_migration_is_refused(tmp_path: Path) -> None:
    migrations = _write(tmp_path / "m", {"001_a.sql": "create table a (x integer);"})
    views = _write(tmp_path / "v", {})
    connect(tmp_path / "w.duckdb", migrations_dir=migrations, views_dir=views).close()
    _write(migrations, {"001_a.sql": "create table a (x varchar);"})
    with pytest.raises(WarehouseError, match="changed after it was applied"):
        connect(tmp_path / "w.duckdb", migrations_dir=migrations, views_dir=views)


def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    migrations = _write(
        tmp_path / "m",
        {
            "001_ok.sql": "create table a (x integer);",
            "002_bad.sql": "create table b (y integer);\nselect * from no_such_table;",
        },
    )
    views = _write(tmp_path / "v", {})
    with pytest.raises(WarehouseError, match=r"002_bad\.sql: migration failed"):
        connect(tmp_path / "w.duckdb", migrations_dir=migrations, views_dir=views)
    with duckdb.connect(str(tmp_path / "w.duckdb")) as con:
        assert con.execute("select version from schema_migrations").fetchall() == [(1,)]
        tables = {r[0] for r in con.execute("select table_name from duckdb_tables()").fetchall()}
        assert "b" not in tables


@pytest.mark.parametrize("name", ["1_short.sql", "001-dash.sql", "abc.sql"])
def test_badly_named_migration_is_an_error(tmp_path: Path, name: str) -> None:
    migrations = _write(tmp_path / "m", {name: "select 1;"})
    with pytest.raises(WarehouseError, match=r"not NNN_name\.sql"):
        load_migrations(migrations)


def test_views_read_lower_layers_and_same_layer_views_in_any_order(tmp_path: Path) -> None:
    migrations = _write(tmp_path / "m", {"001_a.sql": "create table a (x integer);"})
    views = _write(
        tmp_path / "v",
        {
            "fct_a_first.sql": "with final as (select x * 10 as y from fct_b_second)\n"
            "select * from final",
            "fct_b_second.sql": "with final as (select x + 1 as x from stg_a) select * from final",
            "stg_a.sql": "with final as (select x from a) select * from final",
        },
    )
    with connect(tmp_path / "w.duckdb", migrations_dir=migrations, views_dir=views) as con:
        con.execute("insert into a values (1)")
        assert con.execute("select y from fct_a_first").fetchall() == [(20,)]


def test_a_view_whose_file_is_gone_is_dropped(tmp_path: Path) -> None:
    migrations = _write(tmp_path / "m", {"001_a.sql": "create table a (x integer);"})
    views = _write(tmp_path / "v", {"stg_old.sql": "select * from a"})
    connect(tmp_path / "w.duckdb", migrations_dir=migrations, views_dir=views).close()
    (views / "stg_old.sql").unlink()
    with connect(tmp_path / "w.duckdb", migrations_dir=migrations, views_dir=views) as con:
        assert _views(con) == set()


def test_a_view_that_does_not_bind_names_its_file(tmp_path: Path) -> None:
    views = _write(tmp_path / "v", {"fct_broken.sql": "select * from nowhere"})
    with pytest.raises(WarehouseError, match=r"fct_broken\.sql: view does not bind"):
        connect(tmp_path / "w.duckdb", views_dir=views)


def test_read_only_connection_sees_current_views_without_writing(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    connect(path).close()
    with connect(path, read_only=True) as con:
        assert fetch_df(con, "select * from fct_runs").is_empty()
        with pytest.raises(duckdb.Error):
            con.execute("create table x (a integer)")


def test_read_only_refuses_missing_or_unmigrated_files(tmp_path: Path) -> None:
    with pytest.raises(WarehouseError, match="no warehouse file"):
        connect(tmp_path / "absent.duckdb", read_only=True)
    duckdb.connect(str(tmp_path / "bare.duckdb")).close()
    with pytest.raises(WarehouseError, match="not applied"):
        connect(tmp_path / "bare.duckdb", read_only=True)


def test_shipped_migrations_are_numbered_from_one_without_gaps() -> None:
    versions = [m.version for m in load_migrations(MIGRATIONS_DIR)]
    assert versions == list(range(1, len(versions) + 1))


def test_insert_rows_keeps_a_column_that_only_later_rows_have(
    fresh_db: duckdb.DuckDBPyConnection,
) -> None:
    """Guards a bug: columns were taken from the first dict only, so later rows' extra
    columns were silently dropped."""
    insert_rows(fresh_db, "runs", [raw_run("a"), raw_run("b", has_progress=True, n_snapshots=3)])
    got = fresh_db.execute("select run_key, has_progress, n_snapshots from runs order by 1")
    assert got.fetchall() == [("a", None, None), ("b", True, 3)]
