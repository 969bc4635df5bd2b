"""The report over a real run store (report_store.py), opened as a user opens it: headless
Chromium loads index.html, follows a table row's link to a run page and finds the run there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from report_store import ReportStore

from analysis.figures import all_figures
from analysis.run_page import write_run_pages
from realcli.warehouse import connect
from tests.chromium import Chromium, chromium_path

needs_chromium = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    with Chromium() as b:
        yield b


@pytest.fixture
def wh(report_store: ReportStore) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect(report_store.warehouse, read_only=True)
    yield con
    con.close()


def _count(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> int:
    row = con.execute(sql, list(params)).fetchone()
    assert row is not None
    return int(row[0])


_ROW_LINKS = "[...document.querySelectorAll('td.runs a')].map(a => a.href)"


@needs_chromium
def test_chromium_follows_a_row_link_to_the_hybrid_run_page(
    report_store: ReportStore, browser: Chromium, wh: duckdb.DuckDBPyConnection
) -> None:
    browser.open((report_store.report / "index.html").as_uri())
    links = browser.evaluate(_ROW_LINKS)
    (link,) = {h for h in links if h.endswith(f"/runs/{report_store.hybrid}.html")}
    browser.open(link)
    assert browser.evaluate("document.querySelector('h1').textContent").startswith(
        f"Run {report_store.hybrid}"
    )
    key = report_store.hybrid
    tool_calls = browser.evaluate("document.querySelectorAll('.ev.tool_call').length")
    assert tool_calls == _count(wh, "select count(*) from tool_calls where run_key = ?", key) > 0
    gui = browser.evaluate("document.querySelectorAll('svg.timeline rect.gui').length")
    assert gui == _count(
        wh, "select count(*) from tool_calls where run_key = ? and channel = 'gui'", key
    )
    assert browser.evaluate("document.querySelector('.ev.tool_call pre').textContent")
    # every screenshot is on the page and decodes; the agent's sit inside the tool call that
    # took them (the runner's final capture has no call: it stands on its own)
    widths = browser.evaluate(
        "Promise.all([...document.querySelectorAll('figure.shot img')].map(i => {"
        " i.loading = 'eager'; return i.decode().then(() => i.naturalWidth, () => 0) }))"
    )
    n_shots = _count(
        wh, "select count(*) from events where run_key = ? and kind = 'screenshot'", key
    )
    assert len(widths) == n_shots > 0
    assert all(w == 1024 for w in widths), widths
    in_calls = browser.evaluate("document.querySelectorAll('.ev.tool_call figure.shot').length")
    assert in_calls == n_shots - _count(
        wh,
        "select count(*) from events where run_key = ? and kind = 'screenshot'"
        " and payload->>'call_id' is null",
        key,
    )
    assert in_calls > 0
    heading = browser.evaluate(
        "[...document.querySelectorAll('h3')].map(h => h.textContent)"
        ".find(t => t.startsWith('Round 1'))"
    )
    assert heading and "passed" in heading and "F2P 10/10" in heading
    clauses = browser.evaluate("document.querySelectorAll('table.clauses tbody tr').length")
    assert clauses == _count(wh, "select count(*) from clause_results where run_key = ?", key) > 0
    # every in-page link (timeline bars, clause evidence, flags) lands on an event of the page
    anchors = browser.evaluate(
        "[...document.querySelectorAll('a[href^=\"#seq-\"]')]"
        ".map(h => h.getAttribute('href'))"
        ".map(h => [h, !!document.getElementById(h.slice(1))])"
    )
    assert len(anchors) > tool_calls  # the timeline's bars and the evidence that cites seqs
    assert [href for href, found in anchors if not found] == []
    judges = browser.evaluate(
        "[...document.querySelectorAll('section[id^=judge-]')].map(s => s.id)"
    )
    assert sorted(judges) == ["judge-tests", "judge-trajectory"]


@needs_chromium
def test_a_failed_run_page_shows_its_failing_tests_with_messages(
    report_store: ReportStore, browser: Chromium, wh: duckdb.DuckDBPyConnection
) -> None:
    browser.open((report_store.report / "index.html").as_uri())
    links = browser.evaluate(_ROW_LINKS)
    (link,) = {h for h in links if h.endswith(f"/runs/{report_store.smoke_noop}.html")}
    browser.open(link)
    failures = browser.evaluate(
        "[...document.querySelectorAll('table.failures tbody tr')].map(r => r.textContent)"
    )
    failed = wh.execute(
        "select nodeid from test_results where run_key = ? and outcome <> 'passed'",
        [report_store.smoke_noop],
    ).fetchall()
    assert len(failures) == len(failed) > 0
    assert all(any(nodeid in row for row in failures) for (nodeid,) in failed)
    taxonomy = browser.evaluate("document.querySelector('#judge-trajectory').textContent")
    assert "E1.1" in taxonomy


def test_the_report_writes_every_figure_and_counts_add_up_per_kind(
    report_store: ReportStore, wh: duckdb.DuckDBPyConnection
) -> None:
    report = report_store.report
    per_kind = dict(wh.execute("select task_kind, count(*) from runs group by 1").fetchall())
    assert per_kind == {"weave": 1, "longcli": 2}
    for figure in all_figures():
        csv = pl.read_csv(report / f"{figure.NAME}.csv")
        assert csv.columns == list(figure.COLUMN_LABELS), figure.NAME
        for suffix in (".png", ".svg"):
            assert (report / f"{figure.NAME}{suffix}").is_file() == (csv.height > 0), figure.NAME
    main = pl.read_csv(report / "longcli_main_table.csv")
    assert main["n_runs"].sum() + main["n_incomplete"].sum() == per_kind["longcli"]
    assert set(" ".join(main["run_keys"]).split()) == {
        report_store.smoke_replay,
        report_store.smoke_noop,
    }
    audit = pl.read_csv(report / "harness_audit.csv")  # every kind: the harnesses' behaviour
    assert audit["n_runs"].sum() == sum(per_kind.values())
    audit_keys = " ".join(audit["run_keys"]).split()
    assert sorted(audit_keys) == sorted(
        [report_store.hybrid, report_store.smoke_replay, report_store.smoke_noop]
    )
    for key in audit_keys:
        assert (report / "runs" / f"{key}.html").is_file()


def test_rewriting_the_pages_skips_unchanged_runs(
    report_store: ReportStore, wh: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    first = write_run_pages(wh, out)
    assert (first.written, first.unchanged) == (3, 0)
    assert first.screenshots >= 1
    page = out / "runs" / f"{report_store.hybrid}.html"
    mtime = page.stat().st_mtime_ns
    again = write_run_pages(wh, out)
    assert (again.written, again.unchanged) == (0, 3)
    assert page.stat().st_mtime_ns == mtime
    page.unlink()  # a page that went missing is written again
    assert write_run_pages(wh, out).written == 1
