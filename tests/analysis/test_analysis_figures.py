"""Every registered figure keeps the figure contract (STYLE.md §8)."""

from __future__ import annotations

import duckdb
import pytest
from deliverable_rows import add_deliverables_sample
from warehouse_rows import add_progress, add_rounds, add_runs, goal, run
from weave_rows import add_weave_sample

from analysis.figures import Figure, all_figures, by_name
from analysis.systems import SYSTEM_AXES


@pytest.mark.parametrize("figure", all_figures(), ids=lambda f: f.NAME)
def test_figure_contract(figure: Figure, con: duckdb.DuckDBPyConnection) -> None:
    assert figure.NAME and figure.TITLE and figure.CAPTION
    # which runs it counts, stated under the caption: nothing filtered silently (issue 12)
    assert isinstance(figure.POPULATION, str) and figure.POPULATION.strip(), figure.NAME
    empty = figure.data(con)
    assert empty.columns == list(figure.COLUMN_LABELS)
    add_runs(
        con,
        run(passed=True),
        run(seed=2, f2p_step=0.4, n_interventions=0),
        run(model="m2", f2p_step=0.7),
        run(run_key="hybrid", mode="hybrid", channels="cli,gui"),
        run(
            run_key="sc",
            protocol="self_correct",
            n_rounds=2,
            passed=True,
            n_interventions=1,
            has_progress=True,
        ),
    )
    add_rounds(con, "sc", (False, 0.5, True), (True, 1.0, True))
    add_progress(
        con,
        "sc",
        [
            goal("s1", order=1, first=3),
            goal("s2", order=2, first=5),
            goal("p2p::t", kind="p2p", first=0),
        ],
    )
    add_weave_sample(con)
    add_deliverables_sample(con)
    df = figure.data(con)
    assert df.columns == empty.columns
    assert df.columns[: len(SYSTEM_AXES)] == list(SYSTEM_AXES)
    assert df.height > 0
    spec = figure.chart(df).to_dict()  # validates against the Vega-Lite schema
    assert spec["title"] == figure.TITLE


def test_figure_names_are_unique_and_found_by_name() -> None:
    names = [f.NAME for f in all_figures()]
    assert len(set(names)) == len(names)
    assert by_name("step_distribution").NAME == "step_distribution"
    with pytest.raises(KeyError, match="known: "):
        by_name("nope")
