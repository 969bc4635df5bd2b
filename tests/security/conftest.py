"""Fixtures of the security tests: one shared sweep that runs into the per-run limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security.limits_helpers import LimitsSweep, run_limits_sweep


@pytest.fixture(scope="session")
def limits_sweep(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> LimitsSweep:
    """A fork bomb, a disk filler and the reference solution, side by side in one sweep."""
    return run_limits_sweep(tmp_path_factory.mktemp("limits-sweep"), cache_dir)
