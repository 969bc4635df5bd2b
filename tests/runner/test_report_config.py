"""``realcli report``: the ``report`` config group composed by Hydra, validated into a
ReportSpec (a bad key or value: one line naming it and the fix, exit 2), handed to ``python -m
analysis report --spec`` and stored as ``report/report_spec.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realcli.cli import main
from realcli.runner.reporting import compose_report
from realcli.schema.report import ReportSpec
from realcli.util.errors import ConfigError
from realcli.warehouse import connect
from tests.analysis.warehouse_rows import add_runs, run


def test_defaults_are_the_reportspec_defaults() -> None:
    assert compose_report() == ReportSpec()


def test_overrides_and_option_sugar_change_the_spec() -> None:
    spec = compose_report(
        ["report.bootstrap.resamples=500", "report.published=false", "report.filters.modes=[x]"],
        filters={"experiments": ["one", "two"], "kinds": ["weave"], "tasks": []},
        figures=["longcli_main_table"],
    )
    assert (spec.bootstrap.resamples, spec.bootstrap.seed, spec.published) == (500, 0, False)
    assert spec.filters.experiments == ("one", "two") and spec.filters.kinds == ("weave",)
    assert spec.filters.modes == ("x",)  # an option left empty keeps the config's list
    assert spec.figures == ("longcli_main_table",)


def test_report_option_from_a_config_dir(tmp_path: Path) -> None:
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "paper.yaml").write_text(
        "defaults:\n  - default\n  - _self_\nbootstrap:\n  resamples: 10000\n"
    )
    spec = compose_report(["report=paper"], config_dirs=[str(tmp_path)])
    assert spec.bootstrap.resamples == 10000 and spec.primary_judge == "trajectory"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["report.bootstrap.sed=3"],
            "realcli: error: command line: report.bootstrap.sed: unknown key (fix: did you mean"
            " 'seed'? allowed keys: report.bootstrap.level, report.bootstrap.resamples,"
            " report.bootstrap.seed)",
        ),
        (
            ["report.bootstrap.resamples=5"],
            "realcli: error: command line: report.bootstrap.resamples: Input should be greater"
            " than or equal to 100",
        ),
        (
            ["--kind", "hybrid"],
            "realcli: error: command line: report.filters.kinds.0: bad value 'hybrid' (fix: use"
            " one of 'longcli' or 'weave')",
        ),
        (
            ["report=paper"],
            "realcli: error: command line: report=paper: no option 'paper' in config group"
            " 'report' (fix: use one of default, or add conf/report/paper.yaml)",
        ),
        (
            ["seed=2"],
            "realcli: error: command line: seed=2: realcli report takes report overrides only",
        ),
    ],
)
def test_a_bad_key_or_value_is_one_line_and_exit_2(
    args: list[str], line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warehouse = tmp_path / "w.duckdb"
    assert main(["report", "--warehouse", str(warehouse), "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("\n") == 1, err
    assert not (tmp_path / "report_spec.json").exists()


def test_compose_raises_config_error() -> None:
    with pytest.raises(ConfigError, match=r"report\.figures"):
        compose_report(["+report.figures=3"])


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report-cli") / "warehouse.duckdb"
    with connect(path) as con:
        add_runs(
            con,
            *(run(experiment="one", seed=s, passed=s == 1) for s in (1, 2, 3)),
            *(run(experiment="two", seed=s, model="m2") for s in (1, 2)),
        )
    return path


def test_report_with_filters_writes_the_spec_and_shows_the_filters(
    warehouse: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    args = ["--experiment", "one", "report.bootstrap.resamples=500", "--figure"]
    argv = ["report", "--warehouse", str(warehouse), "--out", str(out), *args]
    assert main([*argv, "longcli_main_table"]) == 0  # an override may come between options
    spec = ReportSpec.model_validate_json((out / "report_spec.json").read_text())
    assert spec.filters.experiments == ("one",) and spec.bootstrap.resamples == 500
    assert json.loads((out / "report_spec.json").read_text())["figures"] == ["longcli_main_table"]
    html = (out / "index.html").read_text()
    assert "filters: experiment = one" in html and "3 runs in 1 experiment(s)" in html
    assert sorted(p.name for p in out.glob("*.csv")) == ["longcli_main_table.csv"]
    rows = (out / "longcli_main_table.csv").read_text().splitlines()[1:]
    ours = [r for r in rows if ",realcli," in r]  # source column; the others quote the paper
    assert len(ours) == 1 and ours[0].startswith("m1,")  # one system: m1 (of 'one'), not m2


def test_an_experiment_not_in_the_warehouse_lists_the_known_ones(
    warehouse: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", "--warehouse", str(warehouse), "--out", str(tmp_path), "--experiment", "x"]
    assert main(argv) == 2
    assert list(tmp_path.iterdir()) == []  # no report_spec.json of a report never built
    assert (
        f"{warehouse}: report.filters.experiments: no run has experiment 'x'"
        " (fix: use one of: one, two)" in capfd.readouterr().err
    )
