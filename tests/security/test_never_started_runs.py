"""Runs that never started are infra errors, never graded failures (issue 10, point 8).

An agent that crashes (or exits, or hangs) before its first model call, a harness whose
program is missing, an agent CLI that is not installed, and a GUI-mode session whose requests
lack the GUI tools: each run ends ``infra_error`` with a typed reason in the ledger and the
verdict, its fidelity check is ``not_applicable`` (never ok), and the warehouse and the harness
audit keep it in the denominators, labelled, out of the fidelity and usage figures.

Every run is real: the runner, the gateway, a bubblewrap sandbox, the ``command`` harness
running a one-line script (or a missing program), grading and ingest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from analysis.figures import harness_audit
from realcli.catalog import load_task
from realcli.ledger import LedgerContents, read_ledger
from realcli.ledger.layout import LEDGER
from realcli.runner.execute import execute_run
from realcli.schema.events import ErrorType
from realcli.schema.verdict import Verdict, VerdictStatus
from realcli.warehouse import connect, fetch_df, ingest, insert_rows
from tests.conftest import TASKS, compose_spec
from tests.warehouse.run_folders import raw_run

pytestmark = pytest.mark.sandbox

SMOKE = "smoke-scratch-csvstats"
SHELL_AGENT = Path(__file__).parents[1] / "harness" / "agents" / "shell_agent.sh"
HARNESS_YAML = """\
name: {name}
kind: command
version: "1"
max_turns: 60
command:
  argv: {argv}
  env: {{INSTRUCTION_FILE: "{{instruction_file}}"}}
  files: {{agent.sh: "{agent}"}}
"""
AGENTS = {
    # exits at once, before any model call (status 3, a line on stderr)
    "crash_at_start": '[sh, -c, "echo starting up >&2; echo cannot load config >&2; exit 3"]',
    # exits 0 at once: "done" without ever asking the model is still not a run
    "exit_at_start": "[sh, -c, 'exit 0']",
    # the program does not exist in the sandbox
    "missing_binary": "[/opt/no-such-agent/bin/agent, --task, '{instruction_file}']",
    # the honest 30-line agent: a graded run beside the never-started ones
    "shell_agent": '[sh, "{files}/agent.sh", "{base_url}", "{model}", "{max_turns}"]',
}


@dataclass(frozen=True)
class Run:
    run_dir: Path
    verdict: Verdict
    ledger: LedgerContents

    def errors(self) -> list[ErrorType]:
        return [e.error_type for e in self.ledger.events if e.kind == "error"]

    def of(self, kind: str) -> list[object]:
        return [e for e in self.ledger.events if e.kind == kind]


def _config_dir(base: Path) -> Path:
    conf = base / "conf" / "harness"
    conf.mkdir(parents=True, exist_ok=True)
    for name, argv in AGENTS.items():
        text = HARNESS_YAML.format(name=name, argv=argv, agent=SHELL_AGENT)
        (conf / f"{name}.yaml").write_text(text)
    return conf.parent


def _run(base: Path, task_id: str, *overrides: str) -> Run:
    """One real run, composed from conf/ as `realcli run` composes it."""
    args = [
        f"hydra.searchpath=[file://{_config_dir(base)}]",
        f"task={task_id}",
        f"paths.tasks_dir={TASKS}",
        f"paths.runs_dir={base / 'runs'}",
        *overrides,
    ]
    spec = compose_spec(base, args)
    outcome = execute_run(spec, load_task(TASKS / task_id))
    assert outcome.state == "finished" and outcome.verdict is not None, outcome
    return Run(outcome.run_dir, outcome.verdict, read_ledger(outcome.run_dir / LEDGER))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Run]]:
    """The runs folder and one run per case, shared by the tests of this module."""
    base = tmp_path_factory.mktemp("never-started")
    empty_agents = base / "no-agents"
    empty_agents.mkdir()
    cases = {
        name: _run(base, SMOKE, f"harness={name}", "model=replay", f"experiment_name={name}")
        for name in AGENTS
    }
    cases["not_installed"] = _run(
        base,
        SMOKE,
        "harness=codex",
        "model=replay",
        f"paths.agents_dir={empty_agents}",
        "experiment_name=not_installed",
    )
    return base / "runs", cases


def _assert_never_started(run: Run, reason: ErrorType) -> None:
    v, where = run.verdict, run.run_dir
    assert v.status is VerdictStatus.infra_error, (where, v.status, v.error)
    assert v.error_type is reason, (where, v.error_type, v.error)
    assert not v.passed, where
    assert v.fidelity == "not_applicable", (where, v.fidelity)
    assert reason in run.errors(), (where, run.errors())
    (fidelity,) = run.of("fidelity")
    assert not fidelity.applicable and not fidelity.ok, fidelity  # type: ignore[attr-defined]
    assert not run.of("model_call"), where
    (end,) = run.of("run_end")
    assert end.status == "infra_error", end  # type: ignore[attr-defined]
    (round_end,) = run.of("round_end")
    assert round_end.reason == "not_started", round_end  # type: ignore[attr-defined]


@pytest.mark.parametrize("agent", ["crash_at_start", "exit_at_start"])
def test_an_agent_that_ends_before_its_first_model_call_is_an_infra_error(
    runs: tuple[Path, dict[str, Run]], agent: str
) -> None:
    run = runs[1][agent]
    _assert_never_started(run, ErrorType.agent_not_started)
    if agent == "crash_at_start":  # the agent's own crash stays on record, with its stderr
        assert ErrorType.agent_crash in run.errors()
        assert run.verdict.error is not None and "cannot load config" in run.verdict.error


def test_a_harness_whose_program_is_missing_is_a_launch_failure(
    runs: tuple[Path, dict[str, Run]],
) -> None:
    run = runs[1]["missing_binary"]
    _assert_never_started(run, ErrorType.agent_launch_failed)
    assert run.verdict.error is not None and "/opt/no-such-agent/bin/agent" in run.verdict.error


def test_an_agent_cli_that_is_not_installed_is_an_infra_error(
    runs: tuple[Path, dict[str, Run]],
) -> None:
    run = runs[1]["not_installed"]
    _assert_never_started(run, ErrorType.agent_not_installed)
    assert run.verdict.error is not None and "realcli agents install codex" in run.verdict.error


def test_the_honest_agent_beside_them_is_graded(runs: tuple[Path, dict[str, Run]]) -> None:
    run = runs[1]["shell_agent"]
    assert (run.verdict.status, run.verdict.passed) == (VerdictStatus.graded, True), run.run_dir
    assert run.verdict.error_type is None and run.of("model_call")


def test_the_warehouse_and_the_harness_audit_label_them_and_never_average_them_in(
    runs: tuple[Path, dict[str, Run]], tmp_path: Path
) -> None:
    runs_dir, cases = runs
    con = connect(tmp_path / "w.duckdb")
    try:
        stats = ingest(con, runs_dir)
        assert stats.loaded == len(cases) and not stats.problems, stats
        rows = fetch_df(
            con,
            "select harness, status, error_type, fidelity, fidelity_ok, in_denominator,"
            " is_infra_error from fct_runs",
        ).rows(named=True)
        by_harness = {r["harness"]: r for r in rows}
        for name, reason in [
            ("crash_at_start", "agent_not_started"),
            ("exit_at_start", "agent_not_started"),
            ("missing_binary", "agent_launch_failed"),
            ("codex", "agent_not_installed"),
        ]:
            row = by_harness[name]
            assert row["status"] == "infra_error" and row["error_type"] == reason, row
            assert row["fidelity"] == "not_applicable" and row["fidelity_ok"] is None, row
            assert row["in_denominator"] and row["is_infra_error"], row  # labelled, counted
        assert by_harness["shell_agent"]["error_type"] is None
        # the harness audit: every run in Runs, the infra ones labelled and out of the
        # fidelity and usage figures (before, a crashed OpenClaw run counted as fidelity ok)
        _merge_harnesses(con, "agent")
        (audit,) = harness_audit.data(con).rows(named=True)
        assert (audit["n_runs"], audit["n_infra_errors"]) == (5, 4), audit
        assert audit["pass_pct"] == pytest.approx(20.0), audit  # 1 of 5: SWE-bench style
        assert audit["fidelity_pct"] is None, audit  # nothing to average: not 0, not 100
        graded = cases["shell_agent"]
        calls = len(graded.of("model_call"))
        assert audit["mean_model_calls"] == pytest.approx(calls), audit  # the graded run's
    finally:
        con.close()


def _merge_harnesses(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Put every run under one harness name, so the audit has one row to compare."""
    con.execute("update runs set harness = ?", [name])


def test_the_harness_audit_leaves_infra_runs_out_of_fidelity_even_if_a_row_says_ok(
    tmp_path: Path,
) -> None:
    """Rows as an older ingest stored a crashed OpenClaw run (status infra_error, fidelity_ok
    true): the audit still counts it in Runs and labels it, and averages only the graded
    run's fidelity (a mismatch here: 0 %, not 50 %)."""
    con = connect(tmp_path / "w.duckdb")
    try:
        insert_rows(
            con,
            "runs",
            [
                raw_run("graded", harness="openclaw", fidelity_ok=False, n_model_calls=12),
                raw_run("crashed", harness="openclaw", status="infra_error", fidelity_ok=True),
            ],
        )
        (audit,) = harness_audit.data(con).rows(named=True)
        assert (audit["n_runs"], audit["n_infra_errors"]) == (2, 1), audit
        assert audit["fidelity_pct"] == pytest.approx(0.0), audit
        assert audit["mean_model_calls"] == pytest.approx(12.0), audit
    finally:
        con.close()


@pytest.mark.gui
def test_a_gui_mode_session_without_the_gui_tools_is_an_infra_error(tmp_path: Path) -> None:
    """The agent offers only its shell tool in ``mode=hybrid`` (as Codex did while its GUI MCP
    server was still starting): the gateway refuses the request instead of letting replay
    skip the GUI steps, records ``gui_tools_missing``, and the agent's turn ends at once."""
    run = _run(
        tmp_path,
        "weave-ops-edge-outage",
        "harness=shell_agent",
        "model=replay",
        "mode=hybrid",
        "experiment_name=no-gui-tools",
    )
    v = run.verdict
    assert v.status is VerdictStatus.infra_error, (run.run_dir, v.status, v.error)
    assert v.error_type is ErrorType.gui_tools_missing, (run.run_dir, v.error_type)
    assert not v.passed
    calls = run.of("model_call")
    assert len(calls) == 1, calls  # the refused request; replay never saw it
    assert (calls[0].status, calls[0].finish_reason) == (503, "gui_tools_missing")  # type: ignore[attr-defined]
    assert not run.of("tool_call"), run.run_dir  # no step was skipped: none was served
