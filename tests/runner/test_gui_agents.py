"""OpenClaw and Hermes in the GUI modes, for real: each agent CLI, replaying the reference of a
hybrid task (``model=replay``) on a real desktop, gets its GUI tools from the GUI MCP server.

One sweep per harness on weave-dsk-sync-pairing, shared by the assertions of this module (Hermes
in ``mode=hybrid,gui_only``, two jobs at once; OpenClaw, the costliest agent to start, in
``hybrid`` here: its ``gui_only`` tool pool is checked by the config tests and was run on every
hybrid task once, see docs/harnesses.md):

- ``hybrid`` passes every clause; the GUI steps are GUI-channel tool calls under the agent's
  own MCP names (``gui__<tool>``, ``mcp__gui__<tool>``) normalised to ``gui_<tool>``, the
  screenshots are the trusted service's, and the fidelity check agrees with the agent's native
  session log;
- ``gui_only`` cannot finish (P1): the pool holds the ten GUI tools and nothing else (no shell,
  no file tools), so the reference's CLI steps cannot run and a critical clause fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from realcli.harness.install import agents_dir, install
from realcli.ledger import read_ledger
from realcli.schema.actions import GUI_PRIMITIVES
from realcli.schema.verdict import Verdict
from tests.conftest import env_for, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.gui, pytest.mark.slow]

TASK = "weave-dsk-sync-pairing"  # the quickest hybrid task (a Tk panel): any would do
PREFIX = {"openclaw": "gui__", "hermes": "mcp__gui__"}
"""How each agent names the GUI MCP server's tools (server ``gui``)."""
CLI_TOOLS = {
    "openclaw": {"read", "write", "edit", "apply_patch", "exec", "process"},
    "hermes": {"terminal", "process", "read_file", "write_file", "patch", "search_files"},
}

MODES = {"openclaw": "hybrid", "hermes": "hybrid,gui_only"}
"""The modes each harness's sweep runs in CI."""

Runs = dict[str, tuple[Path, Verdict]]


@pytest.fixture(scope="module", params=sorted(PREFIX))
def sweep(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> tuple[str, Runs]:
    """``{mode: (run folder, verdict)}`` of one harness's sweep over both GUI modes."""
    harness = str(request.param)
    install(harness, agents_dir())  # a no-op when installed (adds a missing extra in place)
    tmp = tmp_path_factory.mktemp(f"{harness}-gui")
    argv = ["run", "--multirun", f"task={TASK}", "model=replay", f"harness={harness}"]
    argv += [f"mode={MODES[harness]}", f"experiment_name={harness}-gui"]
    argv += ["hydra/launcher=joblib", "hydra.launcher.n_jobs=2"]
    proc = run_realcli(argv, env_for(tmp, cache_dir), tmp, timeout=2400)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    runs: Runs = {}
    for path in (tmp / "runs").glob("*/*/verdict.json"):
        verdict = Verdict.model_validate_json(path.read_text())
        events = read_ledger(path.parent / "ledger.jsonl").events
        (session,) = [e for e in events if e.kind == "session"]
        runs[session.mode] = (path.parent, verdict)  # type: ignore[attr-defined]
    assert set(runs) == set(MODES[harness].split(",")), (proc.stdout[-2000:], runs)
    return harness, runs


def _pool(run_dir: Path) -> set[str]:
    events = read_ledger(run_dir / "ledger.jsonl").events
    (pool,) = [e for e in events if e.kind == "tool_pool"]
    return set(pool.tools)  # type: ignore[attr-defined]


def test_hybrid_passes_with_gui_calls_on_the_gui_channel(sweep: tuple[str, Runs]) -> None:
    harness, runs = sweep
    run_dir, verdict = runs["hybrid"]
    assert verdict.status.value == "graded" and verdict.passed, (run_dir, verdict.error)
    assert not verdict.tampered
    events = read_ledger(run_dir / "ledger.jsonl").events
    calls = [e for e in events if e.kind == "tool_call"]
    gui = [e for e in calls if e.channel.value == "gui"]  # type: ignore[attr-defined]
    mcp = [e for e in gui if e.raw_name.startswith(PREFIX[harness])]  # type: ignore[attr-defined]
    assert mcp, (run_dir, [e.raw_name for e in calls])  # type: ignore[attr-defined]
    for e in mcp:  # normalised as every harness's GUI calls are
        primitive = e.raw_name.removeprefix(PREFIX[harness])  # type: ignore[attr-defined]
        assert primitive in GUI_PRIMITIVES and e.name == f"gui_{primitive}", e  # type: ignore[attr-defined]
        assert e.atomic_op == f"gui: {primitive}", e  # type: ignore[attr-defined]
    assert {e.raw_name for e in calls if e.channel.value == "cli"} & CLI_TOOLS[harness]  # type: ignore[attr-defined]
    shots = [e for e in events if e.kind == "screenshot"]
    assert shots and all((run_dir / s.path).read_bytes()[:4] == b"\x89PNG" for s in shots)  # type: ignore[attr-defined]
    (fidelity,) = [e for e in events if e.kind == "fidelity"]
    assert fidelity.ok and fidelity.applicable, fidelity  # type: ignore[attr-defined]
    assert not [e for e in events if e.kind == "error"], run_dir
    gui_tools = {PREFIX[harness] + t for t in GUI_PRIMITIVES}
    assert _pool(run_dir) == CLI_TOOLS[harness] | gui_tools


def test_gui_only_offers_the_gui_tools_alone_and_cannot_finish(sweep: tuple[str, Runs]) -> None:
    harness, runs = sweep
    if "gui_only" not in runs:
        pytest.skip(f"{harness}'s gui_only run is not in the CI sweep (MODES)")
    run_dir, verdict = runs["gui_only"]
    assert verdict.status.value == "graded" and not verdict.passed, (run_dir, verdict)
    failed_critical = [
        c.id
        for d in verdict.deliverables
        for c in d.clauses
        if c.critical and c.outcome == "failed"
    ]
    assert failed_critical or any(not d.passed for d in verdict.deliverables), run_dir
    assert _pool(run_dir) == {PREFIX[harness] + t for t in GUI_PRIMITIVES}
    events = read_ledger(run_dir / "ledger.jsonl").events
    (session,) = [e for e in events if e.kind == "session"]
    assert any("no shell or file tools" in line for line in session.enforced)  # type: ignore[attr-defined]
    calls = [e for e in events if e.kind == "tool_call"]
    assert calls and all(e.channel.value == "gui" for e in calls), run_dir  # type: ignore[attr-defined]
    assert not [e for e in events if e.kind == "error"], run_dir
