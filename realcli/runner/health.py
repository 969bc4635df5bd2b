"""Task health gates (``realcli tasks check``), LongCLI-Bench's closed-loop validation.

1. schema: task.toml, the reference trajectory and the bundle layout validate; every
   deliverable clause names a registered checker with valid args (and the anchors/schemas
   it names exist under tests/); a weave task names its P1 atoms with any-side coverage
   (``realcli.catalog.p1_coverage``);
2. F2P fails on the initial state (every test), P2P passes there;
3. the reference passes every F2P and P2P test;
4. every F2P test belongs to a sub-step and every sub-step selector matches a test;
5. with ``repeat`` K > 1, a flake rate per test (share of repeats that disagree with the majority).
"""

from __future__ import annotations

import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from realcli.catalog import TaskBundle, load_task
from realcli.catalog.p1_coverage import p1_atom_problems
from realcli.grading.score import selector_matches
from realcli.grading.testrun import TEST_SETS, run_test_set
from realcli.judge.checkers import validate_clauses
from realcli.runner.inventory import store_inventory
from realcli.runner.workspace import apply_reference, prepare_workspace, sandbox_options
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.task_spec import TaskKind
from realcli.schema.verdict import TestOutcome, TestResult
from realcli.util.errors import RealcliError

__all__ = ["Gate", "TaskHealth", "check_task"]

_COLLECTION = "collection failure"


@dataclass(frozen=True)
class Gate:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class TaskHealth:
    task_id: str
    gates: list[Gate] = field(default_factory=list)
    flake_rates: dict[str, float] = field(default_factory=dict)
    n_f2p: int = 0
    n_p2p: int = 0

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.gates) and not any(self.flake_rates.values())


def _run_state(
    task: TaskBundle, state: str, make_sandbox: Callable[[SandboxOptions], Sandbox]
) -> tuple[list[TestResult], list[str]]:
    """Both test sets on the initial or reference state: results, and every reason the
    grading guard gave for not trusting them (an honest state must give none)."""
    with tempfile.TemporaryDirectory(prefix="realcli-check-") as tmp:
        workspace, out = Path(tmp) / "ws", Path(tmp) / "out"
        prepare_workspace(task, workspace, make_sandbox)
        if state == "reference":
            apply_reference(task, workspace, make_sandbox)
        results: list[TestResult] = []
        tampered: list[str] = []
        for test_set in TEST_SETS:
            run = run_test_set(
                tests_dir=task.tests_dir,
                test_set=test_set,
                workspace=workspace,
                out_dir=out,
                round_no=1,
                options=sandbox_options(task, workspace),
                make_sandbox=make_sandbox,
                timeout_s=task.spec.timeouts.tests_s,
            )
            results.extend(run.results)
            tampered.extend(f"{test_set}: {reason}" for reason in run.tampered)
    return results, tampered


def _collection_errors(task: TaskBundle, state: str, results: list[TestResult]) -> list[str]:
    """Collection errors that mean a broken task. F2P files may fail to import on the initial
    state (the code they test does not exist yet); anywhere else it is the task's fault."""
    return [
        f"{task.tests_dir / r.nodeid}: tests do not collect ({r.message.strip()[:200]})"
        " (fix: make the test file importable and give it test_* functions)"
        for r in results
        if r.outcome is TestOutcome.error
        and _COLLECTION in r.message
        and (state == "reference" or r.test_set == "p2p")
    ]


def _gate_state(task: TaskBundle, state: str, results: list[TestResult]) -> list[Gate]:
    gates = []
    for test_set in TEST_SETS:
        mine = [r for r in results if r.test_set == test_set]
        name = f"{test_set} on {state}"
        if not mine:
            gates.append(Gate(name, False, f"{task.tests_dir / test_set}: no test collected"))
            continue
        want_pass = test_set == "p2p" or state == "reference"
        wrong = [r.nodeid for r in mine if (r.outcome is TestOutcome.passed) != want_pass]
        expect = "pass" if want_pass else "fail"
        detail = f"{len(wrong)}/{len(mine)} tests do not {expect}: {', '.join(wrong[:5])}"
        gates.append(Gate(name, not wrong, "" if not wrong else detail))
    return gates


def _gate_coverage(task: TaskBundle, results: list[TestResult]) -> Gate:
    f2p = [r.nodeid for r in results if r.test_set == "f2p"]
    selectors = [(s.id, sel) for s in task.spec.substeps for sel in s.tests]
    orphans = [n for n in f2p if not any(selector_matches(sel, n) for _, sel in selectors)]
    empty = [
        f"{sid}:{sel}" for sid, sel in selectors if not any(selector_matches(sel, n) for n in f2p)
    ]
    problems = [f"F2P test {n} is in no sub-step" for n in orphans[:5]]
    problems += [f"sub-step selector {e} matches no test" for e in empty[:5]]
    return Gate("sub-step coverage", not problems, "; ".join(problems))


def check_task(
    root: Path,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    repeat: int = 1,
    cache_dir: Path | None = None,
) -> TaskHealth:
    """Run every gate on the bundle at ``root`` (``repeat`` times for the test gates). With
    ``cache_dir``, a healthy reference run also stores the task's expected-test inventory
    there, so the task's first real run need not compute it."""
    health = TaskHealth(task_id=root.name)
    try:
        task = load_task(root)
        task.reference_actions()
    except RealcliError as exc:
        health.gates.append(Gate("schema", False, str(exc)))
        return health
    health.gates.append(Gate("schema", True))
    problems = validate_clauses(task.spec, str(root / "task.toml"), task.tests_dir)
    health.gates.append(Gate("clauses name registered checkers", not problems, "; ".join(problems)))
    if task.spec.kind is TaskKind.weave:
        p1 = p1_atom_problems(task.spec, root / "task.toml")
        health.gates.append(Gate("P1 atoms (any-side coverage)", not p1, "; ".join(p1)))
    outcomes: dict[str, list[str]] = defaultdict(list)
    for attempt in range(repeat):
        for state in ("initial", "reference"):
            try:
                results, tampered = _run_state(task, state, make_sandbox)
            except RealcliError as exc:
                health.gates.append(Gate(f"{state} state", False, str(exc)))
                return health
            for r in results:
                outcomes[f"{state}:{r.nodeid}"].append(r.outcome.value)
            if attempt:
                continue
            health.gates.append(
                Gate(
                    f"grading integrity on {state}",
                    not tampered,
                    "; ".join(tampered)
                    + " (fix: the task's own tests or conftest must not patch pytest's reporting)"
                    if tampered
                    else "",
                )
            )
            errors = _collection_errors(task, state, results)
            if errors:
                health.gates.append(Gate(f"collect on {state}", False, "; ".join(errors)))
            health.gates.extend(_gate_state(task, state, results))
            if state == "reference":
                health.gates.append(_gate_coverage(task, results))
                health.n_f2p = sum(r.test_set == "f2p" for r in results)
                health.n_p2p = sum(r.test_set == "p2p" for r in results)
                if cache_dir is not None and all(g.ok for g in health.gates):
                    inventory: dict[str, list[str]] = {
                        s: [r.nodeid for r in results if r.test_set == s] for s in TEST_SETS
                    }
                    store_inventory(cache_dir, task, inventory)
    if repeat > 1:
        for test, seen in outcomes.items():
            majority = Counter(seen).most_common(1)[0][1]
            health.flake_rates[test] = (repeat - majority) / repeat
    return health
