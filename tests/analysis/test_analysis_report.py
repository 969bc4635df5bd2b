"""build_report / python -m analysis: offline HTML, PNG, SVG and CSV per figure; empty is fine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest
from deliverable_rows import add_deliverables_sample
from warehouse_rows import add_progress, add_rounds, add_runs, goal, run
from weave_rows import add_weave_sample

from analysis.figures import all_figures
from analysis.report import build_report, render_table
from realcli.warehouse import connect


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("wh") / "warehouse.duckdb"
    with connect(path) as con:
        add_runs(
            con,
            *(
                run(
                    model=m,
                    task_id=t,
                    seed=s,
                    passed=(s == 1 and m == "m1"),
                    f2p_step=0.2 * s if s < 5 else 1.0,
                )
                for m in ("m1", "m2")
                for t in ("t1", "t2")
                for s in (1, 2, 3)
            ),
            run(status="incomplete", seed=9),
            run(run_key="sc", protocol="self_correct", n_rounds=3, has_progress=True),
            run(run_key="hybrid", mode="hybrid", channels="cli,gui"),
        )
        add_rounds(con, "sc", (False, 0.25, True), (False, 0.5, False), (True, 1.0, True))
        add_progress(
            con,
            "sc",
            [
                goal("s1", order=1, first=4),
                goal("s2", order=2, first=2),
                goal("p2p::t", kind="p2p", first=0, broke_at=[3], restored_at=[5]),
            ],
        )
        add_weave_sample(con)
        add_deliverables_sample(con)
    return path


@pytest.fixture(scope="module")
def report(warehouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_report(warehouse, tmp_path_factory.mktemp("report"))


def test_report_writes_index_and_each_figure_as_png_svg_csv(report: Path) -> None:
    assert report.name == "index.html"
    for figure in all_figures():
        png = report.parent / f"{figure.NAME}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert "<svg" in (report.parent / f"{figure.NAME}.svg").read_text()[:500]
        csv = pl.read_csv(report.parent / f"{figure.NAME}.csv")
        assert csv.columns == list(figure.COLUMN_LABELS)
        assert csv.height > 0
    html = report.read_text()
    assert "LongCLI-Bench main table" in html
    assert "<table>" in html and "Pass@k (%)" in html
    assert "21 runs in 1 experiment(s)" in html
    assert "Incomplete (not rated)" in html  # the per-kind x status population table


def test_report_is_offline(report: Path) -> None:
    html = report.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html, re.IGNORECASE)
    assert "http://" not in html and "https://" not in html
    assert "<script" not in html.lower()
    assert html.count('src="data:image/png;base64,') == len(all_figures())


def test_missing_warehouse_gives_a_no_runs_report(tmp_path: Path) -> None:
    index = build_report(tmp_path / "absent.duckdb", tmp_path / "out")
    html = index.read_text()
    assert "No runs in the warehouse" in html
    assert "<img" not in html
    for figure in all_figures():
        assert pl.read_csv(tmp_path / "out" / f"{figure.NAME}.csv").is_empty()
    assert not (tmp_path / "absent.duckdb").exists()


def test_empty_warehouse_file_gives_a_no_runs_report(tmp_path: Path) -> None:
    connect(tmp_path / "w.duckdb").close()
    assert "No runs in the warehouse" in build_report(tmp_path / "w.duckdb", tmp_path).read_text()


def test_only_incomplete_runs_says_no_finished_runs(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        add_runs(con, run(status="incomplete"))
    html = build_report(tmp_path / "w.duckdb", tmp_path / "out").read_text()
    assert "No finished runs for this figure" in html  # step distribution has no rows
    assert "1 runs in 1 experiment(s)" in html


def test_cli_prints_the_index_path(warehouse: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "report",
            "--warehouse",
            str(warehouse),
            "--out",
            str(tmp_path / "r"),
            "--figure",
            "step_distribution",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == str(tmp_path / "r" / "index.html")
    assert (tmp_path / "r" / "step_distribution.png").exists()
    assert not (tmp_path / "r" / "longcli_main_table.png").exists()


def test_cli_reports_an_unusable_warehouse_as_an_error(tmp_path: Path) -> None:
    duckdb.connect(str(tmp_path / "bare.duckdb")).close()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "report",
            "--warehouse",
            str(tmp_path / "bare.duckdb"),
            "--out",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "not applied" in done.stderr and "fix:" in done.stderr


def test_render_table_formats_and_escapes() -> None:
    df = pl.DataFrame({"name": ["<a>", None], "value": [1 / 3, None]})
    html = render_table(df, {"value": "Value (%)"})
    assert "&lt;a&gt;" in html and "0.3" in html and "—" in html and "Value (%)" in html


def test_a_figure_with_nothing_to_show_says_why(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        add_runs(con, run(passed=True))  # one round, no progress replay
    html = build_report(tmp_path / "w.duckdb", tmp_path / "out").read_text()
    assert "No finished runs with two or more rounds." in html
    assert "No finished runs with a progress replay (progress.json)." in html
    assert (tmp_path / "out" / "collaboration.png").exists()


def test_a_failing_figure_costs_only_its_own_section(
    warehouse: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug in one figure's data or chart never loses the report the other figures."""

    class Broken:
        NAME = "broken_figure"
        TITLE = "Broken figure"
        CAPTION = POPULATION = "a figure whose data step raises"
        COLUMN_LABELS: dict[str, str] = {}

        def data(self, con: duckdb.DuckDBPyConnection, *, spec: object = None) -> pl.DataFrame:
            raise ValueError("column 'nope' not found")

        def chart(self, df: pl.DataFrame) -> None:
            raise AssertionError("never reached")

    main_table = next(f for f in all_figures() if f.NAME == "longcli_main_table")
    index = build_report(warehouse, tmp_path / "r", figures=[Broken(), main_table])  # type: ignore[list-item]
    html = index.read_text()
    assert "This figure could not be built: ValueError: column &#x27;nope&#x27; not found" in html
    assert (tmp_path / "r" / "longcli_main_table.png").is_file()
    assert "warning: figure broken_figure failed (ValueError" in capsys.readouterr().err
