"""Golden test of the paired-flips figure: runs (and judgements) in, one row per pair out."""

from __future__ import annotations

import duckdb
from judgement_rows import add_judgements, judgement
from warehouse_rows import add_runs, assert_rows, run

from analysis.figures import paired_flips
from realcli.schema.report import ReportSpec


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        # LongCLI: m1 and m2 on t1 seeds 1-3 and t2 seed 1; m2's t2 seed 2 has no m1 partner
        run(run_key="a11", model="m1", task_id="t1", seed=1, passed=True),
        run(run_key="a12", model="m1", task_id="t1", seed=2, passed=True),
        run(run_key="a13", model="m1", task_id="t1", seed=3),
        run(run_key="a21", model="m1", task_id="t2", seed=1, status="infra_error"),
        run(run_key="b11", model="m2", task_id="t1", seed=1),
        run(run_key="b12", model="m2", task_id="t1", seed=2, passed=True),
        run(run_key="b13", model="m2", task_id="t1", seed=3),
        run(run_key="b21", model="m2", task_id="t2", seed=1, passed=True),
        run(run_key="b22", model="m2", task_id="t2", seed=2, passed=True),
        run(run_key="bx", model="m2", task_id="t1", seed=4, status="incomplete"),
        # WeaveBench: the verdict says pass but the trajectory judge does not (and vice versa)
        run(run_key="w1", model="m1", task_id="w", task_kind="weave", passed=True),
        run(run_key="w2", model="m2", task_id="w", task_kind="weave"),
        run(run_key="w3", model="m3", task_id="w", task_kind="weave", passed=True),
    )
    add_judgements(
        con,
        judgement("w1", "trajectory", passed=False, task_id="w"),
        judgement("w2", "trajectory", passed=True, task_id="w"),
        judgement("w1", "outcome_only", passed=True, task_id="w"),
        # w3 has no trajectory judgement: not paired
        judgement("w3", "outcome_only", passed=True, task_id="w"),
    )


def _pair(kind: str, outcome: str, a: str, b: str, **counts: object) -> dict[str, object]:
    return {
        "model": a,
        "harness": "h1",
        "mode": "cli_only",
        "protocol": "autonomous",
        "system": f"{a} · h1",
        "b_model": b,
        "b_harness": "h1",
        "b_mode": "cli_only",
        "b_protocol": "autonomous",
        "b_system": f"{b} · h1",
        "kind": kind,
        "outcome": outcome,
    } | counts


def test_paired_flips_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = paired_flips.data(con)
    assert got.columns == list(paired_flips.COLUMN_LABELS)
    assert_rows(
        got,
        [
            # cells (t1,1) A only, (t1,2) both, (t1,3) neither, (t2,1) B only (A's infra error)
            _pair(
                "longcli",
                "verdict pass",
                "m1",
                "m2",
                n_pairs=4,
                a_only=1,
                b_only=1,
                both=1,
                neither=1,
                mcnemar_p=1.0,
                run_keys=sorted(["a11", "a12", "a13", "a21", "b11", "b12", "b13", "b21"]),
            ),
            # judged pass, not the verdict: m2 passes, m1 fails; p = 2 * 0.5 ** 1 = 1.0
            _pair(
                "weave",
                "judged pass (trajectory)",
                "m1",
                "m2",
                n_pairs=1,
                a_only=0,
                b_only=1,
                both=0,
                neither=0,
                mcnemar_p=1.0,
                run_keys=["w1", "w2"],
            ),
        ],
    )
    paired_flips.chart(got).to_dict()


def test_primary_judge_chooses_the_weave_outcome(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = paired_flips.data(con, spec=ReportSpec(primary_judge="outcome_only"))
    weave = got.filter(got["kind"] == "weave")
    # outcome_only judged w1 (pass) and w3 (pass): m1 vs m3 both pass
    assert weave.select("system", "b_system", "outcome", "both", "a_only", "b_only").rows() == [
        ("m1 · h1", "m3 · h1", "judged pass (outcome_only)", 1, 0, 0)
    ]
    assert weave["mcnemar_p"].to_list() == [None]


def test_exact_mcnemar_on_many_discordant_cells(con: duckdb.DuckDBPyConnection) -> None:
    rows = []
    for seed in range(10):
        rows.append(run(model="m1", task_id="t", seed=seed, passed=True))
        rows.append(run(model="m2", task_id="t", seed=seed, passed=seed == 0))
    add_runs(con, *rows)
    row = paired_flips.data(con).row(0, named=True)
    assert (row["a_only"], row["b_only"], row["both"]) == (9, 0, 1)
    assert row["mcnemar_p"] == 2 * 0.5**9  # two-sided exact binomial, 9 of 9 one way


def test_empty_warehouse(con: duckdb.DuckDBPyConnection) -> None:
    got = paired_flips.data(con)
    assert got.is_empty() and got.columns == list(paired_flips.COLUMN_LABELS)
