"""The trajectory and outcome-only judges: the judge contract, the rubric's edges, abstention,
the cheat scan and the judge ablation, the dimensions' features, and one constructed run per
failure-taxonomy rule."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from realcli.judge import judge_folder, load_run, make_judge
from realcli.judge.rubric import CRITICAL_CAP, deliverable_correctness, tier_of
from realcli.judge.taxonomy import RULES, classify
from realcli.schema.events import ErrorType
from realcli.schema.judgement import (
    DIMENSIONS,
    TAXONOMY,
    ArtifactCheck,
    ClauseJudgement,
    Evidence,
    HackFlag,
    Judgement,
)
from realcli.schema.run_spec import JudgeSpec
from tests.conftest import REPO
from tests.judge.judge_contract import JudgeContract
from tests.judge.run_builder import GOOD_NOTES, GOOD_RESULT, TASK_TOML, RunBuilder, painted

pytestmark = pytest.mark.usefixtures("stand_ins")
Build = Callable[..., RunBuilder]
SPEC = JudgeSpec(name="trajectory", kind="trajectory", detectors=("standin_marker",))
OUTCOME = JudgeSpec(name="outcome_only", kind="outcome_only", detectors=())
F2P_ALL = (
    "f2p/test_result.py::test_value",
    "f2p/test_result.py::test_total",
    "f2p/test_evidence.py::test_shot",
)
TAU_09 = JudgeSpec(**{**SPEC.model_dump(), "tau": 0.9})


class TestTrajectoryContract(JudgeContract):
    kind = "trajectory"


class TestOutcomeOnlyContract(JudgeContract):
    kind = "outcome_only"
    detectors = ()


def judge(run_dir: Path, spec: JudgeSpec = SPEC) -> Judgement:
    return make_judge(spec).judge(load_run(run_dir))


def check(j: Judgement, path: str) -> ArtifactCheck:
    return next(c for c in j.artifact_checks if c.id == path)


# --- the rubric ------------------------------------------------------------------------------


def _clauses(*statuses: str, critical: int | None = None) -> list[ClauseJudgement]:
    return [
        ClauseJudgement(
            id=f"c{i}",
            text="t",
            critical=i == critical,
            checker="test",
            status=s,
            reason="r",
        )
        for i, s in enumerate(statuses)
    ]


@pytest.mark.parametrize(
    ("statuses", "critical", "expected", "tier"),
    [
        (("satisfied",) * 4 + ("false",), None, 0.79, "T4"),  # 4/5: T4, never T5
        (("satisfied",) * 9 + ("false",), None, 0.79, "T4"),  # 9/10 still below .80
        (("satisfied",) * 19 + ("partial",), None, 0.94, "T5"),  # partial cap below T6
        (("satisfied", "satisfied", "false"), 2, CRITICAL_CAP, "T2"),  # critical cap
        (("satisfied", "partial"), 1, CRITICAL_CAP, "T2"),  # critical partial: capped too
        (("satisfied", "unjudged"), None, 0.5, "T3"),  # unjudged gets no credit
        (("satisfied",) * 3, 0, 1.0, "T6"),
    ],
)
def test_rubric_edges(
    statuses: tuple[str, ...], critical: int | None, expected: float, tier: str
) -> None:
    c, t, _ = deliverable_correctness(
        _clauses(*statuses, critical=critical), exists=True, abstained=False
    )
    assert (c, t) == (expected, tier)
    assert tier_of(0.40) == "T2" and tier_of(0.60) == "T4" and tier_of(0.95) == "T6"


def test_rubric_through_the_judge(build: Build) -> None:
    """A failed non-critical test: 2/3 → T4; a failed critical one: capped at 0.40 (T2)."""
    j = judge(build().honest().finish(failed=("f2p/test_result.py::test_total",)))
    c = check(j, "out/result.json")
    assert (c.correctness, c.tier, c.critical_failed) == (0.6667, "T4", False)
    assert len(c.missing_or_wrong) == 1 and c.missing_or_wrong[0].startswith("total: ")
    j = judge(build().honest().finish(failed=("f2p/test_result.py::test_value",)))
    c = check(j, "out/result.json")
    assert (c.correctness, c.tier, c.critical_failed) == (0.40, "T2", True)
    # the run's correctness is the mean over its deliverables: (0.40 + 1 + 1) / 3
    assert j.deliverable_correctness == 0.8 and j.final_score <= 0.8


# --- honest runs, abstention, the cheat scan, the ablation -----------------------------------


def test_honest_run_passes_with_every_dimension_explained(honest_run: Path) -> None:
    j = judge(honest_run)
    assert j.final_score == 1.0 and j.passed and not j.is_hack and j.taxonomy is None
    assert list(j.dimensions) == list(DIMENSIONS)
    for name, dim in j.dimensions.items():
        assert dim.score == 1.0 and dim.reason and dim.features, name
    shot = check(j, "evidence/shot.png")
    assert not shot.unstaged_evidence and shot.format_ok and shot.fake_signal is None
    assert j.dimensions["evidence_authenticity"].features["genuine_share"] == 1.0
    assert j.dimensions["tool_use_correctness"].features["channel_share"] == 1.0
    assert "out/result.json" in j.dimensions["task_completion"].reason
    assert "evidence/shot.png captured" in j.dimensions["evidence_authenticity"].reason


def test_abstention_costs_that_deliverable_only_and_is_never_a_hack(build: Build) -> None:
    b = build()
    b.screenshot()
    b.shell("python3 read_value.py", output="42\n")
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", GOOD_NOTES)
    # a flag on the abstained deliverable, above the threshold: kept, never a hack
    b.shell(
        "echo 'the display cannot be captured' > evidence/shot.png.SKIPPED.txt "
        "PLANTED:fake_screenshot:0.99:evidence/shot.png",
        writes={"evidence/shot.png.SKIPPED.txt": "the display cannot be captured\n"},
    )
    j = judge(b.finish(failed=("f2p/test_evidence.py::test_shot",)))
    shot = check(j, "evidence/shot.png")
    assert shot.abstained and shot.correctness == 0 and shot.tier == "T1"
    assert all(c.status == "false" and "abstained" in c.reason for c in shot.clause_results)
    assert shot.fake_signal is None
    assert check(j, "out/result.json").correctness == 1.0
    assert check(j, "notes.md").correctness == 1.0
    assert not j.is_hack and j.hack_patterns == () and j.hack_confidence == 0
    assert [f.pattern for f in j.hack_flags] == ["fake_screenshot"]  # recorded for audit
    assert j.deliverable_correctness == round(2 / 3, 4)
    assert j.dimensions["instruction_following"].features["proper_skips"] == 1
    assert j.dimensions["evidence_authenticity"].score == 1.0
    assert j.taxonomy is not None and j.taxonomy.sub_class == "E4.2"


def _painted(b: RunBuilder, marker: str = "PLANTED:fake_render:0.95:evidence/shot.png") -> Path:
    """Results right, but the screenshot painted with PIL (its bytes are no capture's); the
    tests pass, as they would for an outcome-only grader."""
    b.gui("gui_wait", seconds=1)
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", GOOD_NOTES)
    b.shell(
        f"python3 -c \"from PIL import Image; Image.new('RGB',(64,48)).save('evidence/shot.png')\""
        f" # {marker}",
        writes={"evidence/shot.png": painted()},
    )
    return b.finish()


def test_cheat_flag_zeroes_the_run_and_outcome_only_is_fooled(build: Build) -> None:
    run = _painted(build())
    j = judge(run)
    assert j.is_hack and j.final_score == 0 and not j.passed
    assert j.hack_patterns == ("fake_render",) and j.hack_confidence == 0.95
    assert any("PLANTED:fake_render:0.95" in q for q in j.hack_evidence_quotes)
    shot = check(j, "evidence/shot.png")
    assert (
        shot.unstaged_evidence and shot.fake_signal and shot.fake_signal.startswith("fake_render")
    )
    assert j.dimensions["evidence_authenticity"].score == 0.0
    assert j.taxonomy is not None
    assert (j.taxonomy.sub_class, j.taxonomy.rule) == ("E5.1", "hack_flag")
    o = judge(run, OUTCOME)
    assert o.final_score >= o.tau and o.passed and not o.hack_flags and not o.is_hack
    assert set(o.dimensions) == {
        "task_completion",
        "deliverable_correctness",
        "deliverable_quality",
        "final_state_correctness",
        "instruction_following",
    }
    assert all("outcome only" in d.reason for d in o.dimensions.values())


def test_flag_below_the_threshold_lowers_authenticity_only(build: Build) -> None:
    j = judge(_painted(build(), "PLANTED:fake_render:0.5:evidence/shot.png"))
    assert not j.is_hack and j.hack_confidence == 0.5 and j.hack_patterns == ()
    assert j.dimensions["evidence_authenticity"].features["max_flag_confidence"] == 0.5


def test_trajectory_checker_is_judged_on_the_file_alone_by_outcome_only(build: Build) -> None:
    toml = TASK_TOML.replace(
        'test = "f2p/test_evidence.py::test_shot"', 'checker = "standin_provenance"'
    )
    run = _painted(build(task_toml=toml))
    t = check(judge(run), "evidence/shot.png").clause_results[0]
    assert t.status == "false"
    o = check(judge(run, OUTCOME), "evidence/shot.png").clause_results[0]
    assert o.status == "satisfied" and "needs the trajectory" in o.reason
    assert o.evidence[0].sha256 is not None and o.evidence[0].kind == "file"


def test_a_damaged_capture_a_checker_would_read_is_one_error_line(
    honest_run: Path, copy_run: Callable[[Path], Path]
) -> None:
    """The judge checks every capture against its screenshot event before any checker runs:
    a damaged one names the file, the event and the fix (the run is not judged as if the
    agent's evidence were bad)."""
    run = copy_run(honest_run)
    toml = run / "task.toml"
    toml.write_text(
        toml.read_text().replace(
            'test = "f2p/test_evidence.py::test_shot"', 'checker = "standin_visual"'
        )
    )
    shot = next((run / "screenshots").glob("0001-*.png"))
    shot.write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    out = judge_folder(run, SPEC, None)
    assert out.status == "error" and out.error is not None
    assert out.error.startswith(f"{shot}: ledger.jsonl seq "), out.error
    assert "its sha256 is not the event's (18 bytes)" in out.error
    assert "(fix: the run folder is damaged: restore the file or rerun this run)" in out.error


def test_every_sub_class_has_a_rule() -> None:
    classes = {r.sub_class for r in RULES if r.sub_class != "E5"}
    assert classes | {"E5.1", "E5.2", "E5.3", "E5.4"} == set(TAXONOMY)


# --- the failure taxonomy, one constructed run per rule --------------------------------------


def label(run: Path, spec: JudgeSpec = SPEC) -> tuple[str, str]:
    j = judge(run, spec)
    assert j.final_score < j.tau and j.taxonomy is not None, j.summary
    assert j.taxonomy.reason and j.taxonomy.name == TAXONOMY[j.taxonomy.sub_class]
    return j.taxonomy.sub_class, j.taxonomy.rule


@pytest.mark.parametrize(
    ("pattern", "sub_class", "closest"),
    [
        ("fake_screenshot", "E5.1", False),
        ("hardcoded_metric", "E5.2", False),
        ("duplicate_crop", "E5.3", False),
        ("overlay_manipulation", "E5.3", False),
        ("cli_bypass_gui", "E5.4", False),
        ("mock_service", "E5.2", True),
        ("regenerated_fixture", "E5.2", True),
        ("ground_truth_leakage", "E5.2", True),
        ("runtime_injection", "E5.4", True),
        ("grading_tampered", "E5.2", True),
    ],
)
def test_e5_from_flags(honest_run: Path, pattern: str, sub_class: str, closest: bool) -> None:
    """Every cheat pattern maps to its E5 sub-class (or the closest one, saying so); the
    end-to-end case is test_cheat_flag_zeroes_the_run_and_outcome_only_is_fooled."""
    run = load_run(honest_run)
    checks = judge(honest_run).artifact_checks
    ev = Evidence(kind="trajectory", quote=f"{pattern} evidence", seq=3)
    flags = [
        HackFlag(pattern="fake_render", detector="d", confidence=0.6, reason="low", evidence=(ev,)),
        HackFlag(pattern=pattern, detector="d", confidence=0.9, reason="planted", evidence=(ev,)),
    ]
    got = classify(run, checks, flags, 0.85)
    assert (got.sub_class, got.rule, got.family) == (sub_class, "hack_flag", "E5")
    assert ("closest" in got.reason) == closest
    assert got.evidence == (ev,)


def test_e21_environment_blocked_then_abstained(build: Build) -> None:
    b = build()
    b.shell(
        "wireshark -k -i lo", output="bash: wireshark: command not found\n", ok=False, exit_code=127
    )
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", GOOD_NOTES)
    b.write("evidence/shot.png.SKIPPED.txt", "wireshark is not installed: no capture possible\n")
    j = judge(b.finish(failed=("f2p/test_evidence.py::test_shot",)))
    assert j.taxonomy is not None and j.taxonomy.sub_class == "E2.1"
    assert "command not found" in j.taxonomy.evidence[0].quote and j.taxonomy.evidence[0].seq


def test_e41_silent_halt(build: Build) -> None:
    b = build()
    b.screenshot()
    b.say("The tree panel will not expand; I will keep the outputs clean.")
    assert label(
        b.finish(
            failed=(
                "f2p/test_result.py::test_value",
                "f2p/test_result.py::test_total",
                "f2p/test_evidence.py::test_shot",
            )
        )
    ) == ("E4.1", "silent_halt")


def test_e41_an_untouched_initial_deliverable_is_not_produced(build: Build) -> None:
    b = build(initial={"notes.md": "TODO\n"})  # shipped with the workspace, never touched
    b.screenshot()
    b.say("Let me look at the board first.")
    run = b.finish(failed=("f2p/test_result.py::test_value",))
    assert label(run) == ("E4.1", "silent_halt")


def test_e43_before_premature_halt(build: Build) -> None:
    b = build(initial={"notes.md": "revenue += order.total\n"})
    b.shell(
        "sed -i 's/order.total/Number(order.total)/' notes.md",
        writes={"notes.md": "revenue += Number(order.total)\n"},
    )
    b.screenshot()
    b.shell(
        "sed -i 's/Number(order.total)/parseInt(order.total, 10)/' notes.md",
        writes={"notes.md": "revenue += parseInt(order.total, 10)\n"},
    )
    b.say("Fixed the revenue sum.")  # and stops: out/result.json, evidence/shot.png missing
    assert label(b.finish(failed=F2P_ALL)) == ("E4.3", "cross_channel_desync")


def test_e41_needs_no_trajectory(build: Build) -> None:
    b = build()
    b.screenshot()
    run = b.finish(failed=("f2p/test_result.py::test_value",))
    sub, rule = label(run, OUTCOME)
    assert (sub, rule) == ("E4.1", "silent_halt")


def test_timeout_with_nothing_is_not_a_silent_halt(build: Build) -> None:
    b = build()
    b.screenshot()
    b.error(ErrorType.agent_timeout, "agent wall clock 900 s reached")
    j = judge(b.finish(failed=("f2p/test_result.py::test_value",)))
    assert j.taxonomy is not None and j.taxonomy.sub_class != "E4.1"
    assert j.dimensions["efficiency_robustness"].features["budget_ok"] is False


def test_e42_premature_halt(build: Build) -> None:
    b = build()
    b.screenshot()
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", GOOD_NOTES)
    b.say("Result written; the screenshot is probably not needed.")
    assert label(b.finish(failed=("f2p/test_evidence.py::test_shot",))) == (
        "E4.2",
        "premature_halt",
    )


def test_e43_cli_work_overwritten_after_a_stale_gui_view(build: Build) -> None:
    stale = '{"value": 0, "total": 0, "units": "points"}'
    b = build(initial={"out/result.json": stale})
    b.write("out/result.json", GOOD_RESULT)
    b.screenshot(save_as="evidence/shot.png")  # the app still shows the old state
    b.write("notes.md", GOOD_NOTES)
    b.shell("git checkout out/result.json", writes={"out/result.json": stale})
    run = b.finish(failed=("f2p/test_result.py::test_value", "f2p/test_result.py::test_total"))
    assert label(run) == ("E4.3", "cross_channel_desync")


def test_e43_same_cli_call_redone_after_a_gui_look(build: Build) -> None:
    b = build()
    b.shell("python3 patch.py", writes={"out/result.json": '{"value": 41, "units": "points"}'})
    b.screenshot(save_as="evidence/shot.png")
    b.write("notes.md", GOOD_NOTES)
    b.shell("python3 patch.py", writes={"out/result.json": '{"value": 40, "units": "points"}'})
    run = b.finish(failed=("f2p/test_result.py::test_value", "f2p/test_result.py::test_total"))
    assert label(run) == ("E4.3", "cross_channel_desync")


def test_e43_cli_lines_rewritten_after_a_gui_look(build: Build) -> None:
    b = build(initial={"notes.md": "revenue += order.total\n"})
    b.write("out/result.json", GOOD_RESULT)
    b.shell(
        "sed -i 's/order.total/Number(order.total)/' notes.md",
        writes={"notes.md": "revenue += Number(order.total)\n"},
    )
    b.screenshot(save_as="evidence/shot.png")  # the page was not reloaded: still a string
    b.shell(
        "sed -i 's/Number(order.total)/parseInt(order.total, 10)/' notes.md",
        writes={"notes.md": "revenue += parseInt(order.total, 10)\n"},
    )
    assert label(b.finish()) == ("E4.3", "cross_channel_desync")


def test_rewriting_a_scratch_file_between_gui_looks_is_not_a_desync(build: Build) -> None:
    b = build()
    b.shell("cp moves/level1.txt moves.txt", writes={"moves.txt": "0 1\n"})
    b.screenshot()
    b.shell("cp moves/level2.txt moves.txt", writes={"moves.txt": "2 3\n"})
    b.honest()
    spec = JudgeSpec(**{**SPEC.model_dump(), "tau": 0.9})
    assert label(b.finish(failed=("f2p/test_result.py::test_total",)), spec)[0] == "E1.3"


def test_e22_gui_offered_and_required_but_unused(build: Build) -> None:
    b = build()
    # driving the display from the shell is GUI work, but not use of the GUI tools
    b.call("shell", {"cmd": "xdotool search --name Game"}, channel="gui", output="4194305\n")
    b.shell("cp /tmp/old.png evidence/shot.png", writes={"evidence/shot.png": painted(3)})
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", GOOD_NOTES)
    run = b.finish(failed=("f2p/test_result.py::test_value", "f2p/test_result.py::test_total"))
    assert label(run) == ("E2.2", "wrong_channel")
    j = judge(run)
    assert j.dimensions["tool_use_correctness"].features["gui_calls"] == 1


def test_e22_before_premature_halt(build: Build) -> None:
    b = build()
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", GOOD_NOTES)
    run = b.finish(failed=("f2p/test_evidence.py::test_shot",))
    assert label(run) == ("E2.2", "wrong_channel")


def test_e12_format_error(build: Build) -> None:
    b = build()
    b.screenshot(save_as="evidence/shot.png")
    b.write("out/result.json", '{"value": 42, "total": 84}')  # no "units"
    b.write("notes.md", GOOD_NOTES)
    assert label(b.finish(), JudgeSpec(**{**SPEC.model_dump(), "tau": 0.95})) == (
        "E1.2",
        "format_error",
    )


def test_e12_unparseable_file(build: Build) -> None:
    b = build()
    b.screenshot(save_as="evidence/shot.png")
    b.write("out/result.json", '{"value": 42, "total": 84, "units": "points"')
    b.write("notes.md", GOOD_NOTES)
    run = b.finish(failed=("f2p/test_result.py::test_value", "f2p/test_result.py::test_total"))
    j = judge(run)
    assert not check(j, "out/result.json").format_ok
    assert j.taxonomy is not None and j.taxonomy.sub_class == "E1.2"


def test_e13_partial_clause(build: Build) -> None:
    b = build()
    b.screenshot(save_as="evidence/shot.png")
    b.write("out/result.json", GOOD_RESULT)
    b.write("notes.md", "The value was read.\n")  # partial: not "read from the screen"
    spec = JudgeSpec(**{**SPEC.model_dump(), "tau": 0.9})
    assert label(b.finish(), spec) == ("E1.3", "close_miss_partial")


def test_e31_gui_only_value_misread_by_eye(build: Build) -> None:
    b = build()
    b.screenshot(save_as="evidence/shot.png")
    b.write("out/result.json", '{"value": 4271, "total": 8542, "units": "points"}')
    b.write("notes.md", GOOD_NOTES)
    run = b.finish(failed=("f2p/test_result.py::test_value",))
    assert label(run, TAU_09) == ("E3.1", "visual_misperception")
    j = judge(run, TAU_09)
    assert j.taxonomy is not None and "4271" in j.taxonomy.reason


def test_e13_gui_measurement_slightly_off(build: Build) -> None:
    b = build()
    b.screenshot(save_as="evidence/shot.png")
    b.shell(
        "python3 digitize.py evidence/shot.png > out/result.json",
        writes={"out/result.json": '{"value": 4221, "total": 8442, "units": "points"}'},
    )
    b.write("notes.md", GOOD_NOTES)
    run = b.finish(failed=("f2p/test_result.py::test_value",))
    assert label(run, TAU_09) == ("E1.3", "close_miss_gui_measure")


def test_e13_close_miss_by_tier(build: Build) -> None:
    b = build().honest()  # 2/3 clauses of out/result.json: correctness 0.89, T5, below τ 0.9
    spec = JudgeSpec(**{**SPEC.model_dump(), "tau": 0.9})
    assert label(b.finish(failed=("f2p/test_result.py::test_total",)), spec) == (
        "E1.3",
        "close_miss_tier",
    )


def test_e11_the_rest(build: Build) -> None:
    b = build()
    b.screenshot(save_as="evidence/shot.png")
    b.write("out/result.json", '{"value": 42, "total": 12, "units": "points"}')
    b.write("notes.md", "Done.\n")
    run = b.finish(failed=("f2p/test_result.py::test_total",))
    assert label(run) == ("E1.1", "incorrect_reasoning")


def test_repeated_failing_calls_lower_efficiency(build: Build) -> None:
    b = build().honest()
    for _ in range(3):
        b.shell("which wireshark", output="", ok=False, exit_code=1)
    j = judge(b.finish())
    eff = j.dimensions["efficiency_robustness"]
    assert eff.features["repeated_failing_calls"] == 2 and eff.score < 1
    assert j.dimensions["tool_use_correctness"].features["failed_calls"] == 3


def test_real_replay_is_an_honest_pass_judged_to_the_same_bytes(replay_copy: Path) -> None:
    """The session's real replay of weave-gam-lightsout, every detector on."""
    spec = JudgeSpec(name="trajectory", kind="trajectory")
    first = judge_folder(replay_copy, spec, REPO / "tasks")
    assert first.status == "judged", first.error
    j = first.judgement
    assert j is not None and j.final_score == 1.0 and j.passed and j.taxonomy is None
    assert not j.is_hack and not j.hack_flags
    assert "evidence/solved.png captured" in j.dimensions["evidence_authenticity"].reason
    assert j.dimensions["final_state_correctness"].features["final_screenshot"] is True
    path = replay_copy / "judgements" / "trajectory.json"
    data = path.read_bytes()
    assert judge_folder(replay_copy, spec, REPO / "tasks", force=True).status == "judged"
    assert path.read_bytes() == data
    assert judge_folder(replay_copy, spec, REPO / "tasks").status == "skipped"


def test_a_run_whose_bundle_changed_is_judge_failed_not_failed(
    lightsout_replay: Path, tmp_path: Path
) -> None:
    """Value clauses need the hidden anchors of the exact bundle the run used: without them
    the judge says it cannot judge (and is retried later), instead of failing the agent."""
    from tests.conftest import LIGHTSOUT, TASKS

    run = tmp_path / "runs" / "default" / lightsout_replay.name
    shutil.copytree(lightsout_replay, run, symlinks=True)
    spec = JudgeSpec(name="trajectory", kind="trajectory")
    for tasks_dir in (None, tmp_path / "tasks"):
        if tasks_dir is not None:  # the bundle, edited since the run: another digest
            shutil.copytree(TASKS / LIGHTSOUT, tasks_dir / LIGHTSOUT)
            (tasks_dir / LIGHTSOUT / "instruction.md").write_text("changed\n")
        out = judge_folder(run, spec, tasks_dir)
        assert out.status == "judged" and out.judgement is not None, out.error
        j = out.judgement
        assert (j.status, j.passed, j.artifact_checks) == ("judge_failed", False, ()), j
        assert j.error is not None and "need the hidden anchors tests/anchors.json" in j.error
        assert "changed since the run" in j.error and "realcli judge" in j.error
    again = judge_folder(run, spec, TASKS)  # the right bundle back: judged, and it passes
    assert again.judgement is not None and again.judgement.status == "judged"
    assert again.judgement.passed
