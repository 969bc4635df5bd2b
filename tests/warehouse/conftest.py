"""Fixtures for warehouse tests: a runs folder, a run-folder factory and a fresh warehouse."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from run_folders import MakeRun, write_run

from realcli.warehouse import connect


@pytest.fixture
def runs_dir(tmp_path: Path) -> Path:
    path = tmp_path / "runs"
    (path / ".hydra" / "multirun").mkdir(parents=True)
    (path / "_locks").mkdir()
    return path


@pytest.fixture
def make_run(runs_dir: Path) -> MakeRun:
    def make(**kwargs: Any) -> Path:
        return write_run(runs_dir, **kwargs)

    return make


@pytest.fixture
def fresh_db(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect(tmp_path / "warehouse.duckdb")
    yield con
    con.close()
