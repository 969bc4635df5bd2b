"""The long-horizon LongCLI suite (``suites = ["longcli"]``): what makes each task long, and
the offline gates run for real (replay passes everything, noop passes no F2P test)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from realcli.catalog import discover_tasks
from realcli.grading.score import selector_matches
from realcli.ledger import read_ledger
from realcli.schema.verdict import Verdict
from tests.conftest import TASKS, env_for, run_realcli

LONG = sorted((t for t in discover_tasks(TASKS) if "longcli" in t.spec.suites), key=lambda t: t.id)
IDS = [t.id for t in LONG]


def _code_lines(root: Path) -> tuple[int, int, int]:
    """(non-blank .py lines, of which outside test files, .py files) under ``root``."""
    total = non_test = files = 0
    for path in root.rglob("*.py"):
        n = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        files += 1
        total += n
        parts = path.relative_to(root).parts
        if not any(p in ("tests", "test") or p.startswith("test_") for p in parts):
            non_test += n
    return total, non_test, files


def test_two_long_tasks_per_category() -> None:
    counts = Counter(t.spec.category.value for t in LONG)
    assert counts == {"from_scratch": 2, "feature": 2, "bugfix": 2, "refactor": 2}, IDS


@pytest.mark.parametrize("task", LONG, ids=IDS)
def test_task_is_long_horizon(task: object) -> None:
    from realcli.catalog import TaskBundle

    assert isinstance(task, TaskBundle)
    spec = task.spec
    assert len(spec.substeps) >= 6
    assert sum(len(s.depends_on) for s in spec.substeps) >= 3  # a real dependency graph
    assert all(s.guidance for s in spec.substeps)  # what an interactive collaborator says
    assert (task.root / "solution" / "plan.md").is_file()  # what plan injection shows
    assert len(list((task.tests_dir / "p2p").glob("test_*.py"))) >= 1
    repo = task.root / "environment" / "repo"
    if spec.category.value == "from_scratch":
        docs = [p for p in repo.rglob("*.md") if "REQUIRE" in p.name.upper()]
        words = sum(len(p.read_text(encoding="utf-8").split()) for p in docs)
        assert words >= 2500, (task.id, words)  # a multi-page requirement document
    else:
        total, non_test, files = _code_lines(repo)
        assert total >= 1500 and non_test >= 1000 and files >= 15, (task.id, total, files)
    actions = task.reference_actions()
    tagged = {a.substep for a in actions if a.substep}
    assert tagged == {s.id for s in spec.substeps}


# ``tasks check`` end to end on one long task (a from-scratch task); the replay/noop sweep
# below checks the same test gates for all eight (F2P fails and P2P passes on the initial
# state, the reference passes both, grading untampered, sub-step coverage), so running every
# gate twice over each long task's tests is not needed in CI
CHECKED = [next(t.id for t in LONG if t.spec.category.value == "from_scratch")]


@pytest.mark.sandbox
@pytest.mark.slow
def test_health_gates_hold_for_long_tasks(tmp_path: Path, cache_dir: Path) -> None:
    proc = run_realcli(["tasks", "check", *CHECKED], env_for(tmp_path, cache_dir), tmp_path, 1800)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert f"{len(CHECKED)}/{len(CHECKED)} tasks healthy" in proc.stdout, proc.stdout[-2000:]


@pytest.mark.sandbox
@pytest.mark.slow
def test_replay_passes_everything_and_noop_passes_no_f2p_test(
    tmp_path: Path, cache_dir: Path
) -> None:
    env = env_for(tmp_path, cache_dir)
    args = [
        "run",
        "--multirun",
        "hydra/launcher=joblib",
        "hydra.launcher.n_jobs=2",
        "suite.suite=longcli",
        "model=replay,noop",
        "experiment_name=long",
    ]
    proc = run_realcli(args, env, tmp_path, 3000)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = set()
    for path in sorted((tmp_path / "runs" / "long").glob("*/verdict.json")):
        verdict = Verdict.model_validate_json(path.read_text())
        model = read_ledger(path.parent / "ledger.jsonl").header.spec["model"]["name"]
        seen.add((verdict.task_id, model))
        assert verdict.status.value == "graded", (verdict.task_id, verdict.error)
        assert not verdict.tampered, (verdict.task_id, verdict.rounds[-1].tampered)
        (final,) = verdict.rounds
        if model == "replay":
            failing = [t.nodeid for t in final.tests if t.outcome != "passed"]
            assert verdict.passed, (verdict.task_id, failing)
            # sub-step coverage: every F2P test is in a sub-step, every selector matches one
            task = next(t for t in LONG if t.id == verdict.task_id)
            f2p = [t.nodeid for t in final.tests if t.test_set == "f2p"]
            selectors = [sel for s in task.spec.substeps for sel in s.tests]
            assert all(any(selector_matches(sel, n) for sel in selectors) for n in f2p)
            assert all(any(selector_matches(sel, n) for n in f2p) for sel in selectors)
        else:
            f2p = [t for t in final.tests if t.test_set == "f2p"]
            assert f2p and all(t.outcome != "passed" for t in f2p), verdict.task_id
            assert verdict.p2p_pass, verdict.task_id
    assert seen == {(t, m) for t in IDS for m in ("replay", "noop")}
