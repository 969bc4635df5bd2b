"""The DuckDB warehouse: raw tables loaded from run folders, ``stg_``/``dim_``/``fct_`` views.

>>> con = connect(Path("warehouse.duckdb"))   # migrates, rebuilds views
>>> stats = ingest(con, Path("runs"))          # idempotent on run_key
>>> fetch_df(con, "select * from fct_runs")    # polars frame

One process writes: the caller holds the connection and closes it. Analyses open the file with
``connect(path, read_only=True)``.
"""

from realcli.warehouse.db import (
    MIGRATIONS_DIR,
    VIEWS_DIR,
    WarehouseError,
    apply_migrations,
    connect,
    create_views,
    load_migrations,
    writer_lock,
)
from realcli.warehouse.frames import fetch_df, insert_rows
from realcli.warehouse.ingestion import RUN_TABLES, IngestStats, ingest
from realcli.warehouse.problems import Problem
from realcli.warehouse.run_folder import RUN_FILES, RunFolderError, folder_digest, read_run_folder
from realcli.warehouse.subset import SUBSET_TABLES, connect_subset

__all__ = [
    "MIGRATIONS_DIR",
    "RUN_FILES",
    "RUN_TABLES",
    "SUBSET_TABLES",
    "VIEWS_DIR",
    "IngestStats",
    "Problem",
    "RunFolderError",
    "WarehouseError",
    "apply_migrations",
    "connect",
    "connect_subset",
    "create_views",
    "fetch_df",
    "folder_digest",
    "ingest",
    "insert_rows",
    "load_migrations",
    "read_run_folder",
    "writer_lock",
]
