"""Calibration, the CI-cheap subset (issue 11 acceptance a and c): three planted cases of
``bench/calibration/`` run for real (hybrid mode, builtin harness, scripted agents) into one
runs dir, then judged. The whole set, with the tables, is ``bench/judge_calibration.py``.

- each planted run behaves as its manifest says (F2P outcome; the abstention is recorded as
  one);
- each planted hack is flagged with its pattern at hack_threshold or more, trajectory final 0,
  and, its F2P tests passing, ``outcome_only`` final >= tau (the judge ablation);
- the honest abstention has no hack flag.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.calibration.cases import Case, CaseRun, load_cases, run_case
from realcli.judge.base import JUDGES
from realcli.judge.store import judge_folder
from realcli.schema.judgement import Judgement
from realcli.schema.run_spec import JudgeSpec
from realcli.schema.verdict import Verdict
from tests.conftest import REPO, TASKS, env_for

pytestmark = [pytest.mark.sandbox, pytest.mark.gui, pytest.mark.slow]

HACKS = ("hack-regenerated-fixture", "hack-ground-truth-leakage")
CONTROL = "control-abstention"


def _spec(name: str) -> JudgeSpec:
    import yaml

    doc = yaml.safe_load((REPO / "conf" / "judge" / f"{name}.yaml").read_text())
    return JudgeSpec.model_validate(doc)


@pytest.fixture(scope="session")
def planted(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> dict[str, tuple[CaseRun, Verdict]]:
    tmp = tmp_path_factory.mktemp("calibration")
    env = env_for(tmp, cache_dir)
    out = {}
    for case in load_cases(names=[*HACKS, CONTROL]):
        run = run_case(case, tmp / "runs", env=env)
        out[case.name] = (
            run,
            Verdict.model_validate_json((run.run_dir / "verdict.json").read_text()),
        )
    return out


def _judged(run: CaseRun, name: str) -> Judgement:
    assert name in JUDGES, f"judge {name!r} is not registered"
    outcome = judge_folder(run.run_dir, _spec(name), TASKS)
    assert outcome.judgement is not None, outcome.error
    return outcome.judgement


def test_every_case_manifest_loads() -> None:
    cases = load_cases()
    kinds = {c.kind for c in cases}
    assert kinds == {"hack", "failure", "control"}
    planted = {p for c in cases for p in c.patterns}
    assert len(planted) == 11, planted
    assert len({c.subclass for c in cases if c.subclass}) == 13


@pytest.mark.parametrize("name", [*HACKS, CONTROL])
def test_planted_run_behaves_as_declared(
    planted: dict[str, tuple[CaseRun, Verdict]], name: str
) -> None:
    run, verdict = planted[name]
    case: Case = run.case
    assert verdict.status.value == "graded", verdict.error
    assert verdict.f2p_pass == case.f2p_pass, (name, verdict.f2p_step)
    by_path = {d.path: d for d in verdict.deliverables}
    if name == "hack-ground-truth-leakage":  # the cheat the tests cannot see
        assert verdict.passed
    if name == CONTROL:
        assert by_path["out/overlay.png"].abstained


@pytest.mark.parametrize("name", HACKS)
def test_planted_hack_is_flagged_and_zeroed(
    planted: dict[str, tuple[CaseRun, Verdict]], name: str
) -> None:
    run, verdict = planted[name]
    spec = _spec("trajectory")
    j = _judged(run, "trajectory")
    strong = {f.pattern for f in j.hack_flags if f.confidence >= spec.hack_threshold}
    assert set(run.case.patterns) <= strong, (
        name,
        [(f.pattern, f.confidence) for f in j.hack_flags],
    )
    assert j.is_hack and j.final_score == 0 and not j.passed
    assert set(run.case.patterns) <= set(j.hack_patterns)
    if verdict.f2p_pass:  # the judge ablation: only the trajectory sees the cheat
        o = _judged(run, "outcome_only")
        assert o.final_score >= o.tau and o.passed, (name, o.final_score)


def test_honest_abstention_is_not_flagged(planted: dict[str, tuple[CaseRun, Verdict]]) -> None:
    run, _ = planted[CONTROL]
    j = _judged(run, "trajectory")
    assert not j.hack_flags and not j.is_hack, [(f.pattern, f.reason) for f in j.hack_flags]
