"""Fixtures for analysis tests: an in-memory warehouse with the shipped migrations and views,
and the session's real run store with its report (``report_store``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from report_store import ReportStore, build_report_store

from realcli.warehouse import connect


@pytest.fixture
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = connect(":memory:")
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def report_store(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path, lightsout_replay: Path
) -> ReportStore:
    """Three real runs (hybrid replay, smoke replay, smoke noop), judged, ingested, reported
    (tests/analysis/report_store.py); read-only for the tests."""
    return build_report_store(tmp_path_factory.mktemp("report-store"), cache_dir, lightsout_replay)
