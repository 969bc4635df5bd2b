"""ReportSpec.filters: the report of a filtered population is the report of a warehouse that
only ever held those runs; the warehouse file is never written; an unknown value is an error
listing the known ones.

The warehouse is ingested from real run folders (spec.json, ledger, verdict, progress.json,
judgements/*.json), so every raw table keyed by run_key has rows to filter.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from analysis.__main__ import main as analysis_main
from analysis.figures import Figure, all_figures
from analysis.filtering import describe_filters, matching_runs, open_population
from analysis.report import build_report
from realcli.judge.store import write_judgement
from realcli.schema.report import ReportFilters, ReportSpec
from realcli.util.errors import RealcliError
from realcli.warehouse import SUBSET_TABLES, connect, ingest
from tests.warehouse.judgement_records import make_judgement
from tests.warehouse.run_folders import deliverable, goal, shot, write_progress, write_run

NO_ROWS_HERE = {"sessions", "tool_pools", "fidelity", "interventions", "ingest_problems"}
NO_ROWS_HERE |= {"artifact_checks", "clause_results", "hack_flags", "model_calls"}
NO_ROWS_HERE |= {"run_task_atoms", "run_p1_atoms", "run_gui_apps", "screenshot_provenance"}
"""Tables these run folders give no rows (the test checks the others are filtered non-empty)."""
GOALS = (goal("s1", order=1, first=2), goal("s2", order=2, depends_on=["s1"], first=1))


def _experiment(runs: Path, name: str, model: str) -> None:
    write_run(runs, experiment=name, model=model, task_id="task-a", seed=1)
    write_run(runs, experiment=name, model=model, task_id="task-a", seed=2, passed=False)
    write_run(runs, experiment=name, model=model, task_id="task-b", passed=False, f2p_step=0.3)
    write_run(runs, experiment=name, model=model, task_id="task-b", seed=3, verdict=False)
    write_run(
        runs,
        experiment=name,
        model=model,
        protocol="self_correct",
        round_scores=[(False, 0.4, True), (True, 1.0, True)],
    )
    progress = write_run(runs, experiment=name, model=model, task_id="task-c", snapshots=True)
    write_progress(progress, GOALS, last_step=2)
    for judge in ("trajectory", "outcome_only"):
        write_judgement(progress, make_judgement(progress.name, judge, task_id="task-c"))
    for mode, seed, passes in (("hybrid", 1, True), ("hybrid", 2, False), ("cli_only", 1, False)):
        weave = write_run(
            runs,
            experiment=name,
            model=model,
            task_id="weave-a",
            mode=mode,
            seed=seed,
            deliverables=(deliverable("out/shot.png", evidence="genuine"),),
            screenshots=(shot(hashlib.sha256(f"{name}{mode}{seed}".encode()).hexdigest()),),
        )
        _make_weave(weave)
        for judge in ("trajectory", "outcome_only"):
            judged = make_judgement(weave.name, judge, task_id="weave-a", passed=passes)
            write_judgement(weave, judged)


def _make_weave(run_dir: Path) -> None:
    """A hybrid WeaveBench task: spec.json's task kind (what the warehouse reads it from)."""
    doc = json.loads((run_dir / "spec.json").read_text())
    doc["task"]["kind"] = "weave"
    (run_dir / "spec.json").write_text(json.dumps(doc, indent=1))


def _warehouse(path: Path, runs: Path) -> Path:
    with connect(path) as con:
        stats = ingest(con, runs)
    assert stats.problems == [] and stats.loaded == len(list(runs.glob("*/*")))
    return path


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(both experiments, only experiment 'one' — the same run folders, copied)."""
    root = tmp_path_factory.mktemp("filtering")
    _experiment(root / "runs", "one", "m1")
    _experiment(root / "runs", "two", "m2")
    shutil.copytree(root / "runs" / "one", root / "only-one" / "one")
    return (
        _warehouse(root / "both.duckdb", root / "runs"),
        _warehouse(root / "one.duckdb", root / "only-one"),
    )


@pytest.fixture(scope="module")
def filtered_and_alone(
    warehouses: tuple[Path, Path],
) -> Iterator[tuple[duckdb.DuckDBPyConnection, duckdb.DuckDBPyConnection]]:
    """(experiment 'one' filtered out of both, the warehouse of 'one' alone)."""
    both, one = warehouses
    sub = open_population(both, ReportFilters(experiments=("one",)))
    alone = connect(one, read_only=True)
    yield sub, alone
    sub.close()
    alone.close()


def _counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    out = {}
    for table in SUBSET_TABLES:
        row = con.execute(f"select count(*) from {table}").fetchone()
        out[table] = int(row[0]) if row else 0
    return out


def test_filtered_copy_holds_exactly_the_runs_rows_of_every_table(
    filtered_and_alone: tuple[duckdb.DuckDBPyConnection, duckdb.DuckDBPyConnection],
) -> None:
    sub, alone = filtered_and_alone
    assert _counts(sub) == _counts(alone)
    assert {k for k, v in _counts(alone).items() if v == 0} <= NO_ROWS_HERE
    assert sub.execute("select distinct experiment from fct_runs").fetchall() == [("one",)]


@pytest.mark.parametrize("figure", all_figures(), ids=lambda f: f.NAME)
def test_every_figure_sees_only_the_filtered_runs(
    figure: Figure,
    warehouses: tuple[Path, Path],
    filtered_and_alone: tuple[duckdb.DuckDBPyConnection, duckdb.DuckDBPyConnection],
) -> None:
    both, _ = warehouses
    sub, alone = filtered_and_alone
    got, expected = figure.data(sub), figure.data(alone)
    assert not expected.is_empty(), figure.NAME  # the fixture gives every figure rows
    assert got.equals(expected), figure.NAME
    if "run_keys" in got.columns:
        with connect(both, read_only=True) as con:
            keys = set(matching_runs(con, ReportFilters(experiments=("one",))))
        assert set(got["run_keys"].explode().drop_nulls()) <= keys


def test_filters_combine_and_judges_drop_other_judges_judgements(
    warehouses: tuple[Path, Path],
) -> None:
    both, _ = warehouses
    filters = ReportFilters(models=("m1", "m2"), tasks=("task-c",), judges=("trajectory",))
    with open_population(both, filters) as sub:
        assert sub.execute("select count(*) from runs").fetchone() == (2,)
        assert sub.execute("select distinct judge from judgements").fetchall() == [("trajectory",)]
        assert sub.execute("select count(*) from judge_dimensions").fetchone() == (16,)
    with connect(both, read_only=True) as con:
        kinds = matching_runs(con, ReportFilters(kinds=("longcli",)))
        assert len(kinds) == 12  # 6 weave runs (spec.json says so) left out
        assert len(matching_runs(con, ReportFilters(kinds=("weave",), modes=("hybrid",)))) == 4
    assert describe_filters(filters) == "task = task-c · model = m1, m2 · judge = trajectory"


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        (
            ReportFilters(experiments=("one", "three")),
            "report.filters.experiments: no run has experiment 'three' (fix: use one of: one, two)",
        ),
        (
            ReportFilters(tasks=("task-a", "nope")),
            "no run has task 'nope' (fix: use one of: task-a, task-b, task-c, weave-a)",
        ),
        (
            ReportFilters(judges=("agent",)),
            "no run has judge 'agent' (fix: use one of: outcome_only, trajectory)",
        ),
    ],
)
def test_an_unknown_filter_value_is_an_error_listing_the_known_ones(
    warehouses: tuple[Path, Path], filters: ReportFilters, message: str
) -> None:
    both, _ = warehouses
    with pytest.raises(RealcliError, match="^" + str(both).replace(".", r"\.")) as err:
        open_population(both, filters)
    assert message in str(err.value)


def test_filtered_report_leaves_the_warehouse_file_untouched(
    warehouses: tuple[Path, Path], tmp_path: Path
) -> None:
    both, _ = warehouses
    before = hashlib.sha256(both.read_bytes()).hexdigest()
    spec = ReportSpec(filters=ReportFilters(experiments=("two",)))
    index = build_report(both, tmp_path, figures=(), spec=spec)
    assert hashlib.sha256(both.read_bytes()).hexdigest() == before
    html = index.read_text()
    assert "filters: experiment = two" in html
    assert "9 runs in 1 experiment(s)" in html
    assert ReportSpec.model_validate_json((tmp_path / "report_spec.json").read_text()) == spec


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (
            '{"bootstrap": {"resamples": 5}}',
            "report.bootstrap.resamples: Input should be greater than or equal to 100",
        ),
        ('{"figures": ["nope"]}', "report.figures: no figure 'nope' (fix: use one of: "),
        ("{not json", "not valid JSON (key must be a string at line 1 column 2) (fix: write it"),
    ],
)
def test_analysis_cli_rejects_a_bad_spec_file_naming_it(
    tmp_path: Path, doc: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(doc)
    argv = ["report", "--warehouse", str(tmp_path / "w.duckdb"), "--out", str(tmp_path / "out")]
    assert analysis_main([*argv, "--spec", str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {spec}: ") and message in err, err
    assert not (tmp_path / "out").exists()
