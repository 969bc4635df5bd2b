"""Acceptance for the GUI channel: every hybrid task, replayed, needs both channels.

- ``mode=hybrid``: the reference (shell and GUI actions) passes every clause, and its
  screenshots are real captures of the run's display (hashed into the ledger);
- ``mode=cli_only`` and ``mode=gui_only``: the same reference cannot finish (P1): the GUI
  steps, resp. the CLI steps, become no-ops and a critical clause fails;
- two hybrid runs at once (joblib) get separate displays and never see each other's windows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from realcli.catalog import discover_tasks
from realcli.harness.install import InstallError, agents_dir, find_install
from realcli.ledger import read_ledger
from realcli.schema.actions import gui_primitive
from realcli.schema.verdict import Verdict
from tests.conftest import TASKS, env_for, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.gui, pytest.mark.slow]

WEAVE_TASKS = {t.id: t for t in discover_tasks(TASKS) if t.spec.kind.value == "weave"}
WEAVE = sorted(WEAVE_TASKS)


def _run(tmp: Path, cache_dir: Path, *args: str) -> dict[str, tuple[Path, Verdict]]:
    env = env_for(tmp, cache_dir)
    flags = [a for a in args if a.startswith("--")]  # Hydra wants them before overrides
    overrides = [a for a in args if not a.startswith("--")]
    argv = ["run", *flags, "suite=all", "suite.suite=weave", "model=replay", *overrides]
    proc = run_realcli(argv, env, tmp, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = {}
    for verdict in (tmp / "runs").glob("*/*/verdict.json"):
        v = Verdict.model_validate_json(verdict.read_text())
        # honest runs (replay, any mode) never trip the grading guard
        assert not v.tampered, (v.task_id, [r.tampered for r in v.rounds])
        out[v.task_id] = (verdict.parent, v)
    return out


@pytest.fixture(scope="module")
def hybrid(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> dict[str, tuple[Path, Verdict]]:
    tmp = tmp_path_factory.mktemp("hybrid")
    args = ["mode=hybrid", "experiment_name=hybrid", "hydra/launcher=joblib"]
    return _run(tmp, cache_dir, "--multirun", *args, "hydra.launcher.n_jobs=2")


def test_there_are_hybrid_tasks_in_every_domain() -> None:
    domains = {t.spec.domain for t in discover_tasks(TASKS) if t.spec.kind.value == "weave"}
    assert {d.value for d in domains if d} >= {
        "DSK",
        "DOC",
        "GAM",
        "WEB",
        "DAV",
        "OPS",
        "SPA",
        "DES",
    }


@pytest.mark.parametrize("task_id", WEAVE)
def test_hybrid_replay_passes_every_clause_with_captured_screenshots(
    hybrid: dict[str, tuple[Path, Verdict]], task_id: str
) -> None:
    run_dir, v = hybrid[task_id]
    assert v.status.value == "graded" and v.passed, (run_dir, v.error)
    for d in v.deliverables:
        assert d.passed and not d.abstained, (run_dir, d)
        assert all(c.outcome != "failed" for c in d.clauses), (run_dir, d)
    shots = [e for e in read_ledger(run_dir / "ledger.jsonl").events if e.kind == "screenshot"]
    assert shots, run_dir
    for shot in shots:  # each hashed PNG is on disk, as hashed
        png = (run_dir / shot.path).read_bytes()  # type: ignore[attr-defined]
        assert png.startswith(b"\x89PNG"), shot
    gui_calls = [
        e
        for e in read_ledger(run_dir / "ledger.jsonl").events
        if e.kind == "tool_call" and e.channel.value == "gui"  # type: ignore[attr-defined]
    ]
    cli_calls = [
        e
        for e in read_ledger(run_dir / "ledger.jsonl").events
        if e.kind == "tool_call" and e.channel.value == "cli"  # type: ignore[attr-defined]
    ]
    assert gui_calls and cli_calls, run_dir  # both channels were used
    # the trajectory judge finds every clause satisfied: the hidden anchors of the value
    # clauses agree with the honest deliverables the F2P tests pass on
    judgement = json.loads((run_dir / "judgements" / "trajectory.json").read_text())
    unsatisfied = [
        (c["checker"], c["id"], c["status"], c["reason"])
        for check in judgement["artifact_checks"]
        for c in check["clause_results"]
        if c["status"] != "satisfied"
    ]
    assert not unsatisfied, (run_dir, unsatisfied)


def test_concurrent_hybrid_runs_have_separate_displays(
    hybrid: dict[str, tuple[Path, Verdict]],
) -> None:
    """Each run's final window list holds its own task's app windows, never another's."""
    windows = {
        task: (run_dir / "artifacts" / "gui" / "windows.txt").read_text()
        for task, (run_dir, _) in hybrid.items()
    }
    apps = {
        t.id: [a.window for a in (t.spec.gui.apps if t.spec.gui else ())]
        for t in discover_tasks(TASKS)
        if t.id in windows
    }
    for task, listing in windows.items():
        for other, titles in apps.items():
            if other == task:
                continue
            foreign = [t for t in titles if t and t in listing and t not in apps[task]]
            assert not foreign, f"{task}'s display shows {other}'s windows: {foreign}"


@pytest.mark.parametrize("mode", ["cli_only", "gui_only"])
def test_one_channel_cannot_finish_any_hybrid_task(
    tmp_path: Path, cache_dir: Path, mode: str
) -> None:
    runs = _run(tmp_path, cache_dir, f"mode={mode}", f"experiment_name=p1-{mode}")
    assert set(runs) == set(WEAVE)
    for task_id, (run_dir, v) in runs.items():
        assert not v.passed, f"{task_id} passes in {mode}: P1 does not hold ({run_dir})"
        failed_critical = [
            c.id for d in v.deliverables for c in d.clauses if c.critical and c.outcome == "failed"
        ]
        assert failed_critical or any(not d.passed for d in v.deliverables), (task_id, mode)


def _gui_tools(task_id: str) -> set[str]:
    """The GUI primitives the task's reference trajectory uses."""
    task = WEAVE_TASKS[task_id]
    return {a.tool for a in task.reference_actions() if a.action == "gui" and a.tool}


# a real agent binary on the fewest hybrid tasks whose references use every GUI primitive any
# task uses (the builtin harness replays all of them above): each harness's GUI path is the
# same for every task, so more tasks would only repeat it
def _real_app(task_id: str) -> bool:
    """The task starts a real application from a frozen profile (slower to start than the
    Tk apps written for a task; the harness's GUI path is the same either way)."""
    task = WEAVE_TASKS[task_id]
    return any(a.profile for a in (task.spec.gui.apps if task.spec.gui else ()))


_USED = set().union(*(_gui_tools(t) for t in WEAVE))
AGENT_TASKS: list[str] = []
for _tid in sorted(WEAVE, key=lambda t: (-len(_gui_tools(t)), _real_app(t), t)):
    if not _gui_tools(_tid) <= set().union(set(), *(_gui_tools(t) for t in AGENT_TASKS)):
        AGENT_TASKS.append(_tid)
AGENT_TASKS.sort()


@pytest.fixture(scope="module")
def claude_hybrid(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> dict[str, tuple[Path, Verdict]]:
    try:
        find_install("claude_code", agents_dir())
    except InstallError:
        pytest.skip("Claude Code is not installed: realcli agents install claude_code")
    tmp = tmp_path_factory.mktemp("claude-hybrid")
    args = ["mode=hybrid", "harness=claude_code", "experiment_name=claude-hybrid"]
    args.append(f"task={','.join(AGENT_TASKS)}")
    return _run(
        tmp, cache_dir, "--multirun", *args, "hydra/launcher=joblib", "hydra.launcher.n_jobs=2"
    )


def test_agent_tasks_use_every_gui_primitive() -> None:
    assert set().union(*(_gui_tools(t) for t in AGENT_TASKS)) == _USED and len(_USED) >= 5


@pytest.mark.parametrize("task_id", AGENT_TASKS)
def test_real_claude_code_passes_hybrid_tasks_through_the_gui_mcp_server(
    claude_hybrid: dict[str, tuple[Path, Verdict]], task_id: str
) -> None:
    """The real Claude Code binary, replaying the reference: its GUI tools come from the GUI
    MCP server (``mcp__gui__*``), its screenshots from the trusted service."""
    run_dir, v = claude_hybrid[task_id]
    assert v.status.value == "graded" and v.passed, (run_dir, v.error)
    events = read_ledger(run_dir / "ledger.jsonl").events
    gui = [e for e in events if e.kind == "tool_call" and e.channel.value == "gui"]  # type: ignore[attr-defined]
    assert gui and all(e.raw_name.startswith("mcp__gui__") or e.name == "shell" for e in gui)  # type: ignore[attr-defined]
    (fidelity,) = [e for e in events if e.kind == "fidelity"]
    assert fidelity.ok, fidelity  # type: ignore[attr-defined]


GUI_TASK = "weave-dsk-sync-pairing"  # the quickest hybrid task (a Tk panel): any would do
CLI_TOOL_NAMES = {
    *("terminal", "file_editor"),  # openhands
    *("exec_command", "write_stdin", "apply_patch", "view_image", "shell", "exec"),  # codex
    *("Bash", "Read", "Write", "Edit", "Glob", "Grep", "NotebookEdit"),  # claude_code
}
"""Every tool of the three MCP harnesses that runs a command or touches a file."""
GUI_MODE_RUNS = (
    ("openhands", "hybrid"),
    ("openhands", "gui_only"),
    ("codex", "gui_only"),
    ("claude_code", "gui_only"),
)


@pytest.fixture(scope="module")
def gui_modes(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> dict[tuple[str, str], tuple[Path, Verdict]]:
    """One hybrid task, replayed by the real agents through the GUI MCP server: OpenHands in
    hybrid and gui_only, Codex and Claude Code in gui_only (two sweeps, two runs at once)."""
    for agent in ("openhands", "codex", "claude_code"):
        try:
            find_install(agent, agents_dir())
        except InstallError:
            pytest.skip(f"{agent} is not installed: realcli agents install {agent}")
    tmp = tmp_path_factory.mktemp("gui-modes")
    env = env_for(tmp, cache_dir)
    common = [f"task={GUI_TASK}", "model=replay", "experiment_name=gui-modes"]
    parallel = ["hydra/launcher=joblib", "hydra.launcher.n_jobs=2"]
    sweeps = (
        ["harness=openhands", "mode=hybrid,gui_only"],
        ["harness=codex,claude_code", "mode=gui_only"],
    )
    for sweep in sweeps:
        argv = ["run", "--multirun", *common, *sweep, *parallel]
        proc = run_realcli(argv, env, tmp, timeout=1800)
        assert proc.returncode == 0, proc.stderr[-3000:]
    out = {}
    for verdict in (tmp / "runs").glob("*/*/verdict.json"):
        spec = json.loads((verdict.parent / "spec.json").read_text())["spec"]
        v = Verdict.model_validate_json(verdict.read_text())
        out[(spec["harness"]["kind"], spec["mode"]["name"])] = (verdict.parent, v)
    assert set(out) == set(GUI_MODE_RUNS), sorted(out)
    return out


def _pool(events: list[Any]) -> set[str]:
    return {t for e in events if e.kind == "tool_pool" for t in e.tools}


def test_real_openhands_passes_a_hybrid_task_through_the_gui_mcp_server(
    gui_modes: dict[tuple[str, str], tuple[Path, Verdict]],
) -> None:
    """OpenHands's GUI tools come from the GUI MCP server (renamed ``gui_<tool>`` in its
    mcp.json), next to its terminal and file editor; the calls land on the GUI channel and
    its own conversation agrees with the gateway (fidelity ok)."""
    run_dir, v = gui_modes[("openhands", "hybrid")]
    assert v.status.value == "graded" and v.passed, (run_dir, v.error)
    events = read_ledger(run_dir / "ledger.jsonl").events
    assert {"terminal", "file_editor", "gui_screenshot", "gui_click"} <= _pool(events), run_dir
    calls = [e for e in events if e.kind == "tool_call"]
    gui = [e for e in calls if e.channel.value == "gui"]  # type: ignore[attr-defined]
    assert gui and all(e.raw_name.startswith("gui_") or e.name == "shell" for e in gui)  # type: ignore[attr-defined]
    assert any(e.channel.value == "cli" for e in calls)  # type: ignore[attr-defined]
    (fidelity,) = [e for e in events if e.kind == "fidelity"]
    assert fidelity.ok, fidelity  # type: ignore[attr-defined]


@pytest.mark.parametrize("harness", ["openhands", "codex", "claude_code"])
def test_real_agent_in_gui_only_has_no_shell_and_cannot_finish(
    gui_modes: dict[tuple[str, str], tuple[Path, Verdict]], harness: str
) -> None:
    """gui_only: the pool holds the GUI tools and no tool that runs a command or touches a
    file, every call is GUI work, and the hybrid task cannot be finished (P1)."""
    run_dir, v = gui_modes[(harness, "gui_only")]
    assert v.status.value == "graded" and not v.passed, (run_dir, v)
    events = read_ledger(run_dir / "ledger.jsonl").events
    pool = _pool(events)
    assert {"screenshot", "click", "type", "keypress"} <= {gui_primitive(t) for t in pool}, pool
    assert not pool & CLI_TOOL_NAMES, pool
    calls = [e for e in events if e.kind == "tool_call"]
    assert calls and all(e.channel.value == "gui" for e in calls), run_dir  # type: ignore[attr-defined]
    (fidelity,) = [e for e in events if e.kind == "fidelity"]
    assert fidelity.ok, fidelity  # type: ignore[attr-defined]
    (session,) = [e for e in events if e.kind == "session"]
    assert any("gui MCP server" in line for line in session.enforced), session  # type: ignore[attr-defined]
