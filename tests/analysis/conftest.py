"""Fixtures for analysis tests: an in-memory warehouse with the shipped migrations and views."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest

from realcli.warehouse import connect


@pytest.fixture
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = connect(":memory:")
    yield connection
    connection.close()
