"""Task health gates (``realcli tasks check``), LongCLI-Bench's closed-loop validation.

1. schema: task.toml, the reference trajectory and the bundle layout validate; every
   deliverable clause names a registered checker with valid args (and the anchors/schemas
   it names exist under tests/); a weave task names its P1 atoms with any-side coverage
   (``realcli.catalog.p1_coverage``);
2. F2P fails on the initial state (every test; a score-file set: does not pass), P2P passes
   there; a score-file F2P set's initial score is measured, recorded (``initial_scores``)
   and must be the set's ``initial_score`` (default 0), so step scores start at 0;
3. the reference passes every F2P and P2P test (a score-file set reaches its maximum); a
   task without a reference (an empty trajectory) skips these gates, with a warning;
4. preflight: the programs the task needs (``requires``; under docker its Dockerfile's
   packages) are on PATH in its sandbox; a missing one fails this gate and the test gates
   are not run (they would blame the task);
5. every F2P test belongs to a sub-step and every sub-step selector matches a test (bundle
   pytest F2P sets);
6. with ``repeat`` K > 1, a flake rate per test (share of repeats that disagree with the majority).

A task without a P2P set (``p2p = false``) is flagged with a warning, never a failed gate.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from realcli.catalog import TaskBundle, load_task
from realcli.catalog.p1_coverage import p1_atom_problems
from realcli.grading.score import selector_matches
from realcli.grading.sets import active_sets, run_set
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
    warnings: list[str] = field(default_factory=list)
    initial_scores: dict[str, float] = field(default_factory=dict)
    """Score-file sets: the initial state's score (obtained; text sets: step_score)."""

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.gates) and not any(self.flake_rates.values())


def _raw_score(path: Path, parser: str) -> float | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        value = doc.get("step_score" if parser == "text" else "obtained")
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, int | float) else None


def _run_state(
    task: TaskBundle, state: str, make_sandbox: Callable[[SandboxOptions], Sandbox]
) -> tuple[list[TestResult], list[str], dict[str, float]]:
    """Every test set on the initial or reference state: results, every reason the grading
    guard gave for not trusting them (an honest state must give none), and each score-file
    set's raw score."""
    with tempfile.TemporaryDirectory(prefix="realcli-check-") as tmp:
        workspace, out = Path(tmp) / "ws", Path(tmp) / "out"
        prepare_workspace(task, workspace, make_sandbox)
        if state == "reference":
            apply_reference(task, workspace, make_sandbox)
        results: list[TestResult] = []
        tampered: list[str] = []
        scores: dict[str, float] = {}
        for test_set, spec in active_sets(task.spec.tests):
            run = run_set(
                spec=spec,
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
            raw = _raw_score(run.xml_path, spec.parser) if spec.parser != "pytest" else None
            if raw is not None:
                scores[test_set] = raw
    return results, tampered, scores


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
    for test_set, spec in active_sets(task.spec.tests):
        mine = [r for r in results if r.test_set == test_set]
        name = f"{test_set} on {state}"
        want_pass = test_set == "p2p" or state == "reference"
        if spec.parser != "pytest":
            gates.append(_gate_score(name, spec.score_file or "", mine, want_pass))
            continue
        if not mine:
            gates.append(Gate(name, False, f"{task.tests_dir / test_set}: no test collected"))
            continue
        wrong = [r.nodeid for r in mine if (r.outcome is TestOutcome.passed) != want_pass]
        expect = "pass" if want_pass else "fail"
        detail = f"{len(wrong)}/{len(mine)} tests do not {expect}: {', '.join(wrong[:5])}"
        gates.append(Gate(name, not wrong, "" if not wrong else detail))
    return gates


def _gate_score(name: str, score_file: str, mine: list[TestResult], want_pass: bool) -> Gate:
    """A score-file set passes (reference; P2P on the initial state) or does not (F2P on
    the initial state); a command that writes no usable score file fails either way."""
    result = mine[0] if mine else None
    if result is None or result.outcome is TestOutcome.error:
        why = result.message if result is not None else "no result"
        return Gate(name, False, f"{score_file}: {why} (fix: the set's command must write it)")
    passed = result.outcome is TestOutcome.passed
    if passed == want_pass:
        return Gate(name, True, result.message)
    expect = "reach its maximum" if want_pass else "stay below its maximum"
    return Gate(name, False, f"{result.message}: the score must {expect}")


def _gate_initial_score(task: TaskBundle, scores: dict[str, float]) -> list[Gate]:
    """A score_file set's declared ``initial_score`` is the initial state's measured score."""
    gates = []
    for test_set, spec in active_sets(task.spec.tests):
        if spec.parser != "score_file" or test_set not in scores:
            continue
        declared, measured = spec.initial_score or 0.0, scores[test_set]
        ok = abs(declared - measured) < 1e-9
        detail = (
            f"the initial state scores {measured:g}, the task declares {declared:g} (fix: set "
            f"initial_score = {measured:g} in [tests.{test_set}] of task.toml)"
        )
        gates.append(Gate(f"{test_set} initial score", ok, "" if ok else detail))
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


def _gate_preflight(
    task: TaskBundle, make_sandbox: Callable[[SandboxOptions], Sandbox], sandbox_kind: str
) -> Gate:
    """The programs the task needs are in its sandbox (``realcli.runner.preflight``)."""
    from realcli.runner.preflight import find_missing

    with tempfile.TemporaryDirectory(prefix="realcli-preflight-") as tmp:
        try:
            missing = find_missing(
                task, sandbox_options(task, Path(tmp)), make_sandbox, sandbox_kind
            )
        except (RealcliError, RuntimeError) as exc:
            return Gate("preflight (required programs)", False, str(exc))
    return Gate(
        "preflight (required programs)", not missing, "; ".join(m.message() for m in missing)
    )


def check_task(
    root: Path,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    repeat: int = 1,
    cache_dir: Path | None = None,
    sandbox_kind: str = "local",
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
    if task.spec.tests.p2p is None:
        health.warnings.append(
            "no P2P set (p2p = false): regressions are not checked, Pass is F2P alone"
        )
    states: tuple[str, ...] = ("initial", "reference")
    if not task.reference_actions():
        states = ("initial",)
        health.warnings.append(
            f"{task.trajectory_path}: no reference (empty trajectory): the reference gates are "
            "skipped and replay cannot pass"
        )
    preflight = _gate_preflight(task, make_sandbox, sandbox_kind)
    health.gates.append(preflight)
    if not preflight.ok:  # the test gates would blame the task for a missing program
        return health
    outcomes: dict[str, list[str]] = defaultdict(list)
    for attempt in range(repeat):
        for state in states:
            try:
                results, tampered, scores = _run_state(task, state, make_sandbox)
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
            if state == "initial":
                health.initial_scores = scores
                health.gates.extend(_gate_initial_score(task, scores))
            if state == "reference":
                if task.spec.tests.f2p.bundle_pytest:
                    health.gates.append(_gate_coverage(task, results))
                health.n_f2p = sum(r.test_set == "f2p" for r in results)
                health.n_p2p = sum(r.test_set == "p2p" for r in results)
                if cache_dir is not None and all(g.ok for g in health.gates):
                    inventory: dict[str, list[str]] = {
                        s: [r.nodeid for r in results if r.test_set == s]
                        for s, _ in active_sets(task.spec.tests)
                    }
                    store_inventory(cache_dir, task, inventory)
    if repeat > 1:
        for test, seen in outcomes.items():
            majority = Counter(seen).most_common(1)[0][1]
            health.flake_rates[test] = (repeat - majority) / repeat
    return health
