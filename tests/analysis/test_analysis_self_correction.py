"""Golden test of the self-correction figure: per-round means and paired deltas per system."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_rounds, add_runs, assert_rows, run

from analysis.figures import self_correction

F, T = False, True


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="a1", protocol="self_correct", n_rounds=3),
        run(run_key="a2", protocol="self_correct", n_rounds=3, seed=2),
        run(run_key="a3", protocol="self_correct", n_rounds=2, task_id="t2"),  # stopped after T2
        run(run_key="c1", protocol="self_correct", n_rounds=3, model="m2"),
        run(run_key="auto", protocol="autonomous", n_rounds=1),  # one round: not shown
        run(run_key="killed", protocol="self_correct", status="incomplete"),  # not finished
        run(run_key="weave", protocol="self_correct", task_kind="weave"),  # not LongCLI
    )
    add_rounds(con, "a1", (F, 0.25, T), (F, 0.5, F), (T, 1.0, T))
    add_rounds(con, "a2", (F, 0.5, T), (T, 1.0, T), (T, 1.0, T))
    add_rounds(con, "a3", (F, 0.0, T), (F, 0.25, T))
    add_rounds(con, "c1", (F, 0.5, T), (F, 0.5, T), (F, 0.75, F))
    add_rounds(con, "auto", (T, 1.0, T))
    add_rounds(con, "killed", (T, 1.0, T), (T, 1.0, T))
    add_rounds(con, "weave", (T, 1.0, T), (T, 1.0, T))


def _rows(
    model: str, values: list[tuple[str, int | None, int, int, float, float, float, str]]
) -> list[dict[str, object]]:
    return [
        {
            "model": model,
            "harness": "h1",
            "mode": "cli_only",
            "protocol": "self_correct",
            "system": f"{model} · h1",
            "row": row,
            "from_round": from_round,
            "to_round": to_round,
            "n_runs": n,
            "pass_pct": pass_pct,
            "f2p_step_pct": f2p,
            "p2p_pass_pct": p2p,
            "run_keys": keys.split(),
        }
        for row, from_round, to_round, n, pass_pct, f2p, p2p, keys in values
    ]


def test_self_correction_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = self_correction.data(con)
    assert got.columns == list(self_correction.COLUMN_LABELS)
    expected = _rows(
        "m1",
        [
            ("T1", None, 1, 3, 0.0, 25.0, 100.0, "a1 a2 a3"),  # (25 + 50 + 0) / 3
            ("T2", None, 2, 3, 100 / 3, 175 / 3, 200 / 3, "a1 a2 a3"),
            ("T3", None, 3, 2, 100.0, 100.0, 100.0, "a1 a2"),  # a3 has no T3
            # per-run changes: pass (0, 1, 0), F2P step (25, 50, 25), P2P (-1, 0, 0)
            ("Δ T1→T2", 1, 2, 3, 100 / 3, 100 / 3, -100 / 3, "a1 a2 a3"),
            ("Δ T2→T3", 2, 3, 2, 50.0, 25.0, 50.0, "a1 a2"),  # a1, a2 only
            ("Δ T1→T3", 1, 3, 2, 100.0, 62.5, 0.0, "a1 a2"),
        ],
    ) + _rows(
        "m2",
        [
            ("T1", None, 1, 1, 0.0, 50.0, 100.0, "c1"),
            ("T2", None, 2, 1, 0.0, 50.0, 100.0, "c1"),
            ("T3", None, 3, 1, 0.0, 75.0, 0.0, "c1"),
            ("Δ T1→T2", 1, 2, 1, 0.0, 0.0, 0.0, "c1"),
            ("Δ T2→T3", 2, 3, 1, 0.0, 25.0, -100.0, "c1"),
            ("Δ T1→T3", 1, 3, 1, 0.0, 25.0, -100.0, "c1"),
        ],
    )
    assert_rows(got, expected)


def test_two_rounds_give_one_delta_row(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(run_key="r", protocol="self_correct", n_rounds=2))
    add_rounds(con, "r", (F, 0.5, T), (T, 1.0, T))
    assert self_correction.data(con)["row"].to_list() == ["T1", "T2", "Δ T1→T2"]


def test_chart_draws_one_line_per_system_and_metric(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    spec = self_correction.chart(self_correction.data(con)).to_dict()
    values = next(iter(spec["datasets"].values()))
    assert {v["metric"] for v in values} == {"Pass", "F2P step", "P2P pass"}
    assert {v["row"] for v in values} == {"T1", "T2", "T3"}  # deltas are in the table only
    assert len(values) == 2 * 3 * 3  # systems x rounds x metrics
    assert spec["title"] == self_correction.TITLE


def test_no_multi_round_runs_gives_an_empty_table(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(run_key="auto", n_rounds=1))
    add_rounds(con, "auto", (T, 1.0, T))
    assert self_correction.data(con).is_empty()
