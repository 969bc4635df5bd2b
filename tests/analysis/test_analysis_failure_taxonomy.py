"""Golden test of the failure taxonomy: shares per family and sub-class, overall and per
model; unlabelled failures are a row; unjudged runs are counted, not shared."""

from __future__ import annotations

import duckdb
import polars as pl
from warehouse_rows import add_runs, assert_rows
from weave_rows import add_judgements, judgement, weave_run

from analysis.figures import failure_taxonomy
from analysis.published import PAPER_WEAVE
from realcli.schema.judgement import TAXONOMY
from realcli.schema.report import ReportFilters, ReportSpec


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        *(weave_run(run_key=f"a{i}", task_id=f"t{i}") for i in range(1, 7)),
        weave_run(run_key="a7", task_id="t7", mode="cli_only"),
        weave_run(run_key="b1", model="m2", harness="codex", task_id="t1"),
        weave_run(run_key="b2", model="m2", harness="codex", task_id="t2", status="incomplete"),
    )
    add_judgements(
        con,
        judgement("a1", final=0.0, hack=True, family="E5", sub_class="E5.1", task_id="t1"),
        judgement("a2", final=0.7, family="E1", sub_class="E1.3", task_id="t2"),
        judgement("a3", final=0.65, family="E1", sub_class="E1.3", task_id="t3"),
        judgement("a4", final=0.3, task_id="t4"),  # a failure without a label
        judgement("a5", final=0.9, task_id="t5"),  # passes: not a failure
        judgement("a6", status="judge_failed", task_id="t6"),  # not in the shares
        judgement("a7", final=0.5, family="E1", sub_class="E1.1", task_id="t7"),
        judgement("b1", final=0.1, family="E4", sub_class="E4.2", task_id="t1"),
        judgement("a5", "outcome_only", final=0.2, family="E2", sub_class="E2.2", task_id="t5"),
    )


def _family_rows(df: pl.DataFrame, scope: str) -> pl.DataFrame:
    return df.filter(
        (pl.col("source") == "realcli") & (pl.col("scope") == scope) & (pl.col("level") == "family")
    ).drop("name")


def test_failure_shares_per_family_overall_and_per_model(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    df = failure_taxonomy.data(con)
    assert df.columns == list(failure_taxonomy.COLUMN_LABELS)
    overall = {
        "model": None,
        "harness": "codex, openclaw",
        "mode": "cli_only, hybrid",
        "protocol": "autonomous",
        "source": "realcli",
        "scope": "all models",
        "level": "family",
        "n_failures": 6,  # a1 a2 a3 a4 a7 b1
        "n_judged": 7,
        "n_unjudged": 1,  # a6; b2 is incomplete, not counted at all
        "note": None,
    }

    def share(label: str, n: int, keys: list[str]) -> dict[str, object]:
        return {"label": label, "n": n, "share_pct": 100 * n / 6, "run_keys": keys}

    assert_rows(
        _family_rows(df, "all models"),
        [
            overall | share("E1", 3, ["a2", "a3", "a7"]),
            overall | share("E2", 0, []),
            overall | share("E3", 0, []),
            overall | share("E4", 1, ["b1"]),
            overall | share("E5", 1, ["a1"]),
            overall | share("unlabelled", 1, ["a4"]),
        ],
    )
    m2 = _family_rows(df, "m2")
    assert m2.select("label", "n", "share_pct").rows() == [
        ("E1", 0, 0.0),
        ("E2", 0, 0.0),
        ("E3", 0, 0.0),
        ("E4", 1, 100.0),
        ("E5", 0, 0.0),
        ("unlabelled", 0, 0.0),
    ]
    assert m2.select("model", "harness", "mode", "n_failures", "n_unjudged").row(0) == (
        "m2",
        "codex",
        "hybrid",
        1,
        0,
    )
    sub = df.filter(
        (pl.col("source") == "realcli")
        & (pl.col("scope") == "m1")
        & (pl.col("level") == "sub_class")
    )
    assert sub["label"].to_list() == [*TAXONOMY, "unlabelled"]
    counts = {label: n for label, n in sub.select("label", "n").rows() if n}
    assert counts == {"E1.1": 1, "E1.3": 2, "E5.1": 1, "unlabelled": 1}
    assert sub.filter(pl.col("label") == "E1.3")["share_pct"].item() == 40.0
    assert sub.filter(pl.col("label") == "E5.1")["name"].item() == "synthesised render"
    # 3 scopes x (6 family + 14 sub-class rows), then the paper's rows
    assert df.filter(pl.col("source") == "realcli").height == 60
    paper = df.filter(pl.col("source") == PAPER_WEAVE)
    assert paper.filter(pl.col("scope") == "all models").select("label", "share_pct").rows() == [
        ("E5", 35.2),
        ("E4", 30.4),
        ("E3", 4.0),
        ("E4.2", 18.0),
        ("E5.1", 17.6),
        ("E1.3", 16.9),
    ]
    assert paper.filter(pl.col("label") == "E3")["note"].item() == "upper bound ('< 4%')"
    assert paper.filter(pl.col("scope") == "GPT-5.5").select("label", "share_pct").row(0) == (
        "E5",
        46.0,
    )


def test_failure_taxonomy_follows_the_primary_judge_and_is_empty_without_failures(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _seed(con)
    by_outcome = failure_taxonomy.data(con, spec=ReportSpec(primary_judge="outcome_only"))
    overall = _family_rows(by_outcome, "all models")
    assert overall.filter(pl.col("label") == "E2").select("n", "n_failures").row(0) == (1, 1)
    only_m3 = ReportSpec(filters=ReportFilters(models=("m3",)))
    empty = failure_taxonomy.data(con, spec=only_m3)
    assert empty.is_empty() and empty.columns == list(failure_taxonomy.COLUMN_LABELS)
    assert failure_taxonomy.EMPTY and failure_taxonomy.POPULATION
    assert failure_taxonomy.chart(empty).to_dict()["title"] == failure_taxonomy.TITLE
