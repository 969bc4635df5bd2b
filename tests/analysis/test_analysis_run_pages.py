"""Run pages and row pages from constructed warehouse rows: what a page shows, what it refuses
(agent markup, planted links), when it is rebuilt, and how index.html links rows to runs."""

from __future__ import annotations

import json
import os
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from warehouse_rows import add_runs, run

from analysis.figures import longcli_main_table
from analysis.report import build_report
from analysis.run_page import write_run_pages
from realcli.schema.report import ReportSpec
from realcli.warehouse import connect, insert_rows
from tests.judge.run_builder import png

_TS = datetime(2026, 12, 1, tzinfo=UTC)


def add_events(con: duckdb.DuckDBPyConnection, run_key: str, *events: dict[str, Any]) -> None:
    insert_rows(
        con,
        "events",
        [
            {
                "run_key": run_key,
                "seq": seq,
                "kind": e["kind"],
                "ts": _TS,
                "payload": json.dumps({k: v for k, v in e.items() if k != "kind"}),
            }
            for seq, e in enumerate(events)
        ],
    )


def call(call_id: str, channel: str = "cli", **args: Any) -> dict[str, Any]:
    return {
        "kind": "tool_call",
        "call_id": call_id,
        "name": "shell" if channel == "cli" else "gui_screenshot",
        "raw_name": "shell",
        "channel": channel,
        "atomic_op": "exec: shell",
        "args": args,
    }


def result(call_id: str, output: str, ok: bool = True) -> dict[str, Any]:
    return {
        "kind": "tool_result",
        "call_id": call_id,
        "ok": ok,
        "exit_code": 0 if ok else 1,
        "duration_ms": 3.0,
        "output_digest": "0" * 64,
        "output_excerpt": output,
        "touched_files": [],
    }


def shot(path: str, call_id: str | None, sha256: str = "") -> dict[str, Any]:
    return {
        "kind": "screenshot",
        "sha256": sha256,
        "width": 64,
        "height": 48,
        "bytes": 100,
        "path": path,
        "source": "gui.screenshot",
        "call_id": call_id,
    }


def page(out: Path, key: str) -> str:
    return (out / "runs" / f"{key}.html").read_text()


def test_agent_output_is_escaped_never_rendered_as_markup(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    """Guards against an agent injecting markup or script into the report via its output."""
    add_runs(con, run(run_key="inj", run_dir=str(tmp_path)))
    add_events(
        con,
        "inj",
        {"kind": "round_start", "round": 1},
        {"kind": "message", "role": "assistant", "text": '<iframe src="http://x.example">'},
        call("c1", cmd="echo '<script>alert(1)</script>'"),
        result("c1", '</pre><img src=x onerror="alert(2)"><a href="javascript:alert(3)">'),
    )
    out = tmp_path / "report"
    write_run_pages(con, out)
    html = page(out, "inj")
    assert "<script" not in html.lower()
    assert "<iframe" not in html and "<img src=x" not in html
    assert 'href="javascript:' not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;/pre&gt;&lt;img src=x onerror=" in html
    assert "http://" not in html.replace("http://x.example", "")  # only the escaped text


def test_screenshots_planted_as_links_are_refused_and_real_ones_copied(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    """Guards against an agent planting links in the run folder to make the report copy a host
    file (the screenshot copy follows no link, reads no FIFO, takes only PNGs)."""
    run_dir = tmp_path / "run"
    (run_dir / "screenshots").mkdir(parents=True)
    secret = tmp_path / "secret.png"
    secret.write_bytes(png((1, 2, 3)))  # a PNG outside the run folder
    real = png((200, 10, 10))
    (run_dir / "screenshots" / "real.png").write_bytes(real)
    os.symlink(secret, run_dir / "screenshots" / "link.png")
    os.symlink(tmp_path, run_dir / "screenshots" / "dir")
    (run_dir / "screenshots" / "fake.png").write_text("not a png")
    os.mkfifo(run_dir / "screenshots" / "fifo.png")
    add_runs(con, run(run_key="shots", run_dir=str(run_dir)))
    add_events(
        con,
        "shots",
        call("c1", "gui"),
        shot("screenshots/real.png", "c1"),
        result("c1", "screenshot 64x48"),
        shot("screenshots/link.png", None),
        shot("screenshots/dir/secret.png", None),
        shot("screenshots/../../secret.png", None),
        shot("/etc/passwd", None),
        shot("screenshots/fake.png", None),
        shot("screenshots/fifo.png", None),
        shot("screenshots/gone.png", None),
    )
    out = tmp_path / "report"
    written = write_run_pages(con, out)
    copies = sorted((out / "runs" / "shots").iterdir())
    assert [p.read_bytes() for p in copies] == [real]
    assert written.screenshots == 1
    html = page(out, "shots")
    assert html.count("<img ") == 1
    assert f'src="shots/{copies[0].name}"' in html
    assert "refused: screenshots/link.png (symlink)" in html
    assert "refused: screenshots/dir (symlink)" in html
    assert html.count("is not a file under screenshots/") == 2
    assert "screenshots/fake.png is not a PNG file" in html
    assert "refused: screenshots/fifo.png (fifo)" in html
    assert "missing: screenshots/gone.png" in html


def test_a_screenshot_changed_since_the_ledger_is_flagged(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    (tmp_path / "screenshots").mkdir()
    (tmp_path / "screenshots" / "a.png").write_bytes(png((9, 9, 9)))
    add_runs(con, run(run_key="edited", run_dir=str(tmp_path)))
    add_events(con, "edited", shot("screenshots/a.png", None, sha256="ab" * 32))
    write_run_pages(con, tmp_path / "report")
    assert "changed since the ledger recorded it" in page(tmp_path / "report", "edited")


def test_timeline_steps_and_long_output(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    long = "\n".join(f"line {i}" for i in range(40))
    add_runs(con, run(run_key="t", run_dir=str(tmp_path)))
    add_events(
        con,
        "t",
        {"kind": "round_start", "round": 1},
        call("a"),
        result("a", long),
        call("b", "gui"),
        result("b", "clicked", ok=False),
        {"kind": "round_end", "round": 1, "reason": "done"},
        {"kind": "round_start", "round": 2},
        call("c"),
        {"kind": "intervention", "round": 2, "type": "feedback", "trigger": "round_end",
         "source": "tests", "delivery": "prompt", "text": "2 tests fail"},
    )  # fmt: skip
    write_run_pages(con, tmp_path / "report")
    html = page(tmp_path / "report", "t")
    assert html.count('<rect class="cli') == 2 and html.count('<rect class="gui failed"') == 1
    assert html.count('<line class="round"') == 1  # round 2 starts at step 3
    assert "step 3" in html and "No tool result in the ledger." in html
    assert "<details><summary>output: line 0 (40 lines" in html
    assert "2 tests fail" in html and "intervention" in html


def test_pages_are_rebuilt_only_when_the_run_changed(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    add_runs(con, run(run_key="a"), run(run_key="b"), run(run_key="../evil"))
    out = tmp_path / "report"
    first = write_run_pages(con, out)
    assert (first.written, first.unchanged, first.refused) == (2, 0, ("../evil",))
    assert not (tmp_path / "evil.html").exists()
    assert write_run_pages(con, out).written == 0
    con.execute("update runs set ingest_digest = 'new' where run_key = 'b'")
    again = write_run_pages(con, out)
    assert (again.written, again.unchanged) == (1, 1)
    assert write_run_pages(con, out, force=True).written == 2
    assert write_run_pages(con, out, ["a"]).unchanged == 1  # a report of run a only
    assert sorted(p.name for p in (out / "runs").glob("*.html")) == ["a.html"]


@pytest.fixture
def two_systems(tmp_path: Path) -> Path:
    path = tmp_path / "warehouse.duckdb"
    with connect(path) as con:
        add_runs(
            con,
            run(run_key="k1", task_id="t1", passed=True),
            run(run_key="k2", task_id="t2"),
            run(run_key="solo", model="m2"),
        )
    return path


def test_index_rows_link_to_their_runs(two_systems: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    index = build_report(two_systems, out, figures=[longcli_main_table])
    html = index.read_text()
    assert '<a href="rows/longcli_main_table-1.html">2 runs</a>' in html
    assert '<a href="runs/solo.html">solo</a>' in html
    rows = (out / "rows" / "longcli_main_table-1.html").read_text()
    assert '<a href="../runs/k1.html">k1</a>' in rows and '<a href="../runs/k2.html">k2</a>' in rows
    assert "solo" not in rows
    for key in ("k1", "k2", "solo"):
        assert (out / "runs" / f"{key}.html").is_file()
    csv = pl.read_csv(out / "longcli_main_table.csv").filter(pl.col("source") == "realcli")
    assert csv["run_keys"].to_list() == ["k1 k2", "solo"]  # the paper's rows (published) have none


def test_run_pages_off_writes_none_and_links_none(two_systems: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    spec = ReportSpec(run_pages=False)
    html = build_report(two_systems, out, figures=[longcli_main_table], spec=spec).read_text()
    assert not (out / "runs").exists()
    assert 'href="runs/' not in html
    rows = (out / "rows" / "longcli_main_table-1.html").read_text()
    assert "k1" in rows and "../runs/" not in rows


def test_each_section_states_its_population(two_systems: Path, tmp_path: Path) -> None:
    figure = types.SimpleNamespace(
        **{
            n: getattr(longcli_main_table, n) for n in ("NAME", "TITLE", "CAPTION", "COLUMN_LABELS")
        },
        POPULATION="finished LongCLI runs <all statuses>",
        data=longcli_main_table.data,
        chart=longcli_main_table.chart,
    )
    html = build_report(two_systems, tmp_path / "r", figures=[figure]).read_text()  # type: ignore[list-item]
    assert "Runs counted: finished LongCLI runs &lt;all statuses&gt;" in html


def test_a_long_table_shows_its_first_rows_and_says_the_csv_has_them_all(
    two_systems: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    spec = ReportSpec(table_rows=1, published=False)
    html = build_report(two_systems, out, figures=[longcli_main_table], spec=spec).read_text()
    section = html[html.index('<section id="longcli_main_table">') :]
    assert '<a href="rows/longcli_main_table-1.html">2 runs</a>' in section
    assert "runs/solo.html" not in section  # row 2 is not shown, so not linked
    assert "The first 1 of 2 rows" in section and 'href="longcli_main_table.csv">the CSV' in section
    assert [p.name for p in (out / "rows").iterdir()] == ["longcli_main_table-1.html"]
    csv = pl.read_csv(out / "longcli_main_table.csv")
    assert csv["run_keys"].to_list() == ["k1 k2", "solo"]  # every row


def test_a_row_with_many_runs_lists_its_first_ones_and_says_the_csv_has_them_all(
    two_systems: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    spec = ReportSpec(row_page_runs=1, published=False)
    build_report(two_systems, out, figures=[longcli_main_table], spec=spec)
    rows = (out / "rows" / "longcli_main_table-1.html").read_text()
    assert "2 run(s)" in rows  # the row's count, not the number shown
    assert "The first 1 of 2 runs" in rows and 'href="../longcli_main_table.csv"' in rows
    assert '"../runs/k1.html"' in rows and '"../runs/k2.html"' not in rows  # k1 sorts first
    unlimited = tmp_path / "unlimited"
    build_report(two_systems, unlimited, figures=[longcli_main_table])
    full = (unlimited / "rows" / "longcli_main_table-1.html").read_text()
    assert '"../runs/k2.html"' in full and "The first" not in full
