"""Every notebook in ``notebooks/`` runs as a script against a small warehouse (run folders from
``tests/warehouse/run_folders.py``, ingested) and draws the charts: one PNG for each
figure with rows, none for a figure without (issue 12: notebooks draw charts, not only tables,
and run in CI)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.figures import all_figures
from realcli.warehouse import connect, ingest
from tests.warehouse.run_folders import goal, write_progress, write_run

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    """Two models × two harnesses × two seeds on two tasks, plus self-correction rounds with
    progress: enough rows for most figures. Returns the warehouse and the figures with rows."""
    runs = tmp_path_factory.mktemp("runs")
    for model, passed in (("replay", True), ("noop", False)):
        for harness in ("builtin", "codex"):
            for seed in (1, 2):
                for task in ("task-a", "task-b"):
                    write_run(
                        runs, model=model, harness=harness, seed=seed, task_id=task,
                        passed=passed, f2p_step=1.0 if passed else 0.25 * seed,
                    )  # fmt: skip
    first = write_run(
        runs,
        protocol="self_correct",
        seed=1,
        round_scores=[(False, 0.2, True), (False, 0.6, False), (True, 1.0, True)],
        snapshots=True,
    )
    write_progress(
        first,
        [goal("s1", order=1, first=3), goal("s2", order=2, depends_on=["s1"], first=1)],
        last_step=8,
    )
    path = tmp_path_factory.mktemp("wh") / "warehouse.duckdb"
    con = connect(path)
    try:
        stats = ingest(con, runs)
        assert (stats.loaded, stats.problems) == (17, [])
        with_rows = {f.NAME for f in all_figures() if not f.data(con).is_empty()}
    finally:
        con.close()
    assert len(with_rows) >= 4, with_rows  # the fixture exercises several charts
    return path, with_rows


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_draws_every_chart(
    notebook: Path, warehouse: tuple[Path, set[str]], tmp_path: Path
) -> None:
    path, with_rows = warehouse
    out = tmp_path / "charts"
    env = {**os.environ, "REALCLI_WAREHOUSE": str(path), "REALCLI_NOTEBOOK_OUT": str(out)}
    proc = subprocess.run(
        [sys.executable, str(notebook)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert {p.stem for p in out.glob("*.png")} == with_rows
    for name in with_rows:
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(PNG_MAGIC) and len(png) > 2000, name  # a drawn chart, not a stub
    assert f"charts drawn: {len(with_rows)} of {len(all_figures())} figures" in proc.stdout


def test_notebooks_call_figures_and_define_none() -> None:
    """STYLE.md §8: a figure a paper needs is a module in analysis/figures/, never a notebook's."""
    assert NOTEBOOKS
    for notebook in NOTEBOOKS:
        text = notebook.read_text()
        assert "from analysis.figures import" in text and ".chart(" in text, notebook
        assert "import altair" not in text and "alt.Chart(" not in text, notebook
