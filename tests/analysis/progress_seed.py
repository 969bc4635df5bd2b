"""A shared progress-replay seed for the early-retention and Kaplan–Meier golden tests."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_progress, add_runs, goal, run

__all__ = ["seed_progress"]


def seed_progress(con: duckdb.DuckDBPyConnection) -> None:
    """Runs a, b (10 steps) and c (0 steps) of m1 · h1 with a replay; d of m2 without one."""
    add_runs(
        con,
        run(run_key="a", has_progress=True),
        run(run_key="b", has_progress=True, seed=2),
        run(run_key="c", has_progress=True, seed=3),
        run(run_key="d", model="m2"),
        run(run_key="gone", has_progress=True, status="incomplete", seed=4),
    )
    add_progress(
        con,
        "a",
        [
            goal("s1", order=1, first=0),  # held initially, never broken: censored at 10
            goal("s2", order=2, first=3, broke_at=[5]),  # broken 2 steps after it held
            goal("s3", order=3, first=9),  # censored after 1 step
            goal("s4", order=4),  # never held: not a goal yet
            goal("p2p::x", kind="p2p", first=0, broke_at=[4], restored_at=[6]),  # broken at 4
        ],
    )
    add_progress(
        con,
        "b",
        [
            goal("s1", order=1, first=1, broke_at=[3]),  # broken after 2 steps
            goal("s2", order=2, first=10),  # held at the last step: censored at 0
        ],
    )
    add_progress(con, "c", [goal("s1", order=1, first=0)], last_step=0)
    add_progress(con, "gone", [goal("s1", order=1, first=1, broke_at=[2])])
