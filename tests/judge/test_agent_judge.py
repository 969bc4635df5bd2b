"""``judge=agent`` (issue 11, acceptance d): a scripted judge model, run by the builtin harness
through the gateway in a sandbox of its own, writes ``judgement.json`` with the harness's
tools; a schema-valid one becomes a judged record, a malformed one is retried in a new session
and then recorded as ``judge_failed`` (never a silent 0 pass).

The run judged is a finished hybrid replay of weave-gam-lightsout (builtin harness), copied
per test from the judge tests' session replay (``lightsout_replay`` in conftest.py).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from realcli.judge.agent import (
    CHEAT_PATTERNS,
    EVIDENCE_MOUNT,
    JUDGE_WORKDIR,
    MalformedJudgement,
    parse_output,
    stage_evidence,
)
from realcli.judge.base import JUDGES
from realcli.judge.context import load_run
from realcli.judge.store import judge_folder, read_judgement
from realcli.ledger import read_ledger
from realcli.schema.events import (
    BudgetEvent,
    MessageEvent,
    ModelCallEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from realcli.schema.judgement import DIMENSIONS
from realcli.schema.run_spec import JudgeSpec
from tests.conftest import TASKS, compose_spec, env_for, run_realcli

pytestmark = pytest.mark.sandbox

INSTRUCTION_MOUNT = "/run/realcli/task/instruction.md"  # the builtin harness's


@pytest.fixture(scope="session")
def finished_run(lightsout_replay: Path) -> Path:
    """A finished hybrid run folder of weave-gam-lightsout (never modified: tests copy it)."""
    return lightsout_replay


@pytest.fixture
def run_dir(finished_run: Path, tmp_path: Path) -> Iterator[Path]:
    copy = tmp_path / "run"
    shutil.copytree(finished_run, copy, symlinks=True)
    shutil.rmtree(copy / "judgements", ignore_errors=True)  # judged at run time
    ledger = (copy / "ledger.jsonl").read_bytes()
    yield copy
    assert (copy / "ledger.jsonl").read_bytes() == ledger, "the run's own ledger was modified"


def _spec(tmp: Path, script: Path | None, retries: int = 2, *more: str) -> JudgeSpec:
    """judge=agent as `realcli run judge=agent` composes it (Hydra defaults pull the builtin
    harness and the scripted model into judge.agent), with a test script."""
    overrides = ["judge=agent", f"judge.agent.retries={retries}", "judge.agent.timeout_s=120"]
    overrides += more
    if script is not None:
        overrides.append(f"judge.agent.model.script={script}")
    return compose_spec(tmp, overrides).judge


def _script(path: Path, actions: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(a) + "\n" for a in actions), encoding="utf-8")
    return path


def _valid(run_dir: Path) -> dict[str, Any]:
    """A judgement a careful judge could write for this run: evidence behind every credited
    clause, correctness within the six-tier rubric, final = Eq. 3."""
    task = load_run(run_dir).task
    ledger = read_ledger(run_dir / "ledger.jsonl")
    first = next(e for e in ledger.events if isinstance(e, ToolCallEvent))
    quote = str(first.args["cmd"])
    checks = []
    for d in task.deliverables:
        results = []
        for n, c in enumerate(d.clauses):
            status = "partial" if (d.path == "lightsout/solver.py" and n == 1) else "satisfied"
            results.append(
                {
                    "id": c.id,
                    "status": status,
                    "reason": f"checked {c.id} against {d.path}",
                    "evidence": [
                        {"kind": "artifact", "quote": f"{d.path} present", "path": d.path},
                        {"kind": "trajectory", "quote": quote[:80], "seq": first.seq},
                    ],
                }
            )
        partial = any(r["status"] == "partial" for r in results)
        checks.append(
            {
                "id": d.path,
                "clause_results": results,
                "exists": True,
                "format_ok": True,
                "correctness": 0.85 if partial else 1.0,  # 3.5 of 4: at most 0.875
                "evidence_quote": f"{d.path} present",
                "missing_or_wrong": ["solver-fewest: partial"] if partial else [],
                "fake_signal": None,
                "unstaged_evidence": False,
            }
        )
    return {
        "artifact_checks": checks,
        "dimensions": {
            k: {"score": 0.85, "reason": f"{k}: out/result.json, lightsout/solver.py"}
            for k in DIMENSIONS
        },
        "is_hack": False,
        "hack_confidence": 0.1,
        "hack_patterns": [],
        "hack_evidence_quotes": [],
        "final_score": 0.85,
        "summary": "Both levels cleared from the game window; solver mostly right.",
    }


def _session_events(run_dir: Path, attempt: int) -> list[Any]:
    path = run_dir / "judgements" / "agent" / f"attempt-{attempt}" / "ledger.jsonl"
    return read_ledger(path).events


def test_agent_judge_is_registered_and_composes(tmp_path: Path) -> None:
    spec = _spec(tmp_path, None)
    assert JUDGES.get("agent", "test", "judge.kind").kind == "agent"
    assert spec.agent is not None
    assert (spec.agent.harness.kind, spec.agent.model.backend) == ("builtin", "scripted")
    assert spec.agent.model.script is None  # the shipped offline judge


def test_valid_judgement_is_recorded_as_written(run_dir: Path, tmp_path: Path) -> None:
    written = _valid(run_dir)
    probe = (
        f"find {JUDGE_WORKDIR} | sort; sha256sum {EVIDENCE_MOUNT}/ledger.jsonl;"
        f" echo tamper > {EVIDENCE_MOUNT}/ledger.jsonl; echo tamper-rc=$?; ls /app 2>&1 | head -1"
    )
    script = _script(
        tmp_path / "judge.jsonl",
        [
            {"action": "shell", "cmd": probe},
            {"action": "read", "path": "evidence/workspace/out/result.json"},
            {"action": "write", "path": "judgement.json", "content": json.dumps(written)},
            {"action": "message", "text": "judgement.json written"},
        ],
    )
    price = "judge.agent.model.pricing"
    prices = [f"{price}.input_per_mtok=2", f"{price}.output_per_mtok=8"]
    spec = _spec(tmp_path, script, 2, *prices)
    outcome = judge_folder(run_dir, spec, TASKS, force=True)
    assert outcome.status == "judged", outcome.error
    j = outcome.judgement
    assert j is not None and j.status == "judged", j and j.error
    assert j == read_judgement(run_dir / "judgements" / "agent.json")
    assert (j.attempts, j.judge, j.judge_kind) == (1, "agent", "agent")
    # metered like a run: the gateway's model_call events, priced by the judge model's table
    u = j.usage
    assert u is not None and u.model_calls > 0 and u.sessions == 1
    assert u.tokens_in > 0 and u.tokens_out > 0
    assert u.cost_usd == pytest.approx((u.tokens_in * 2 + u.tokens_out * 8) / 1e6)
    session = _session_events(run_dir, 1)
    calls = [e for e in session if isinstance(e, ModelCallEvent)]
    budget = next(e for e in session if isinstance(e, BudgetEvent))
    assert len(calls) == u.model_calls == budget.turns
    assert (budget.tokens_in, budget.tokens_out) == (u.tokens_in, u.tokens_out)
    # the fields as written
    assert [a.id for a in j.artifact_checks] == [a["id"] for a in written["artifact_checks"]]
    for got, want in zip(j.artifact_checks, written["artifact_checks"], strict=True):
        assert got.correctness == want["correctness"]
        assert [c.status for c in got.clause_results] == [
            c["status"] for c in want["clause_results"]
        ]
        assert (
            got.clause_results[0].evidence[1].seq == want["clause_results"][0]["evidence"][1]["seq"]
        )
    assert {k: d.score for k, d in j.dimensions.items()} == dict.fromkeys(DIMENSIONS, 0.85)
    assert (j.final_score, j.passed, j.is_hack, j.summary) == (
        0.85,
        True,
        False,
        written["summary"],
    )
    assert [a.tier for a in j.artifact_checks] == ["T6", "T5", "T6"]
    # realcli's own provenance classification beside the judge model's verdict
    assert [(c.deliverable, c.provenance, c.capture_source) for c in j.screenshots] == [
        ("evidence/solved.png", "captured", "gui.screenshot")
    ]
    # what the judge saw: read-only copies of the evidence, nothing hidden
    events = _session_events(run_dir, 1)
    listing = next(e for e in events if isinstance(e, ToolResultEvent)).output_excerpt
    seen = {line.strip() for line in listing.splitlines() if line.startswith(JUDGE_WORKDIR)}
    ev = EVIDENCE_MOUNT
    assert seen == {
        JUDGE_WORKDIR,
        ev,
        f"{ev}/MANIFEST.json",
        f"{ev}/instruction.md",
        f"{ev}/ledger.jsonl",
        f"{ev}/task.toml",
        f"{ev}/screenshots",
        *(f"{ev}/{p.relative_to(run_dir)}" for p in (run_dir / "screenshots").iterdir()),
        f"{ev}/workspace",
        f"{ev}/workspace/out",
        f"{ev}/workspace/out/result.json",
        f"{ev}/workspace/lightsout",
        f"{ev}/workspace/lightsout/solver.py",
        f"{ev}/workspace/evidence",
        f"{ev}/workspace/evidence/solved.png",
    }
    for hidden in ("f2p", "p2p", "solution", "verdict", "snapshots", "tests/", "anchors"):
        assert hidden not in listing, hidden
    assert "Read-only file system" in listing and "tamper-rc=1" in listing
    assert "No such file or directory" in listing  # no /app: the run's workspace is not there
    staged = json.loads((run_dir / "workspace" / "out" / "result.json").read_bytes())
    read_back = [e for e in events if isinstance(e, ToolResultEvent)][1].output_excerpt
    assert str(staged["completion_code"]) in read_back
    # the judge read the run's ledger byte for byte
    assert hashlib.sha256((run_dir / "ledger.jsonl").read_bytes()).hexdigest() in listing
    kept = (run_dir / "judgements/agent/attempt-1/workspace.txt").read_text().split()
    assert "judgement.json" in kept and "evidence/ledger.jsonl" in kept


def test_malformed_every_time_is_judge_failed(run_dir: Path, tmp_path: Path) -> None:
    script = _script(
        tmp_path / "judge.jsonl",
        [{"action": "write", "path": "judgement.json", "content": '{"artifact_checks": ['}],
    )
    retries = 1
    outcome = judge_folder(run_dir, _spec(tmp_path, script, retries=retries), TASKS, force=True)
    j = outcome.judgement
    assert outcome.status == "judged" and j is not None
    assert j.status == "judge_failed" and j.attempts == retries + 1
    assert j.error is not None and j.error.count("not JSON") == retries + 1, j.error
    assert (j.final_score, j.passed, j.artifact_checks) == (0.0, False, ())
    assert j.usage is not None and j.usage.sessions == retries + 1 and j.usage.model_calls >= 2
    assert "judge_failed" in outcome.line()
    for attempt in range(1, retries + 2):
        assert (run_dir / "judgements" / "agent" / f"attempt-{attempt}" / "ledger.jsonl").is_file()
    # the second session was told what was wrong with the first
    second = [e for e in _session_events(run_dir, 2) if isinstance(e, MessageEvent)]
    assert "Attempt 2 of 2" in second[0].text and "was rejected: judgement.json: not JSON" in (
        second[0].text
    )


def test_malformed_once_then_valid_is_judged_on_attempt_two(run_dir: Path, tmp_path: Path) -> None:
    valid = json.dumps(_valid(run_dir))
    out_of_range = json.dumps({**_valid(run_dir), "final_score": 1.5})
    cmd = (
        f"if grep -q 'Attempt 1 of' {INSTRUCTION_MOUNT}; then"
        f" cat > judgement.json <<'EOF'\n{out_of_range}\nEOF\n"
        f"else cat > judgement.json <<'EOF'\n{valid}\nEOF\nfi"
    )
    script = _script(tmp_path / "judge.jsonl", [{"action": "shell", "cmd": cmd}])
    outcome = judge_folder(run_dir, _spec(tmp_path, script, retries=2), TASKS, force=True)
    j = outcome.judgement
    assert j is not None and j.status == "judged", j and j.error
    assert j.attempts == 2 and j.final_score == 0.85
    assert j.usage is not None and j.usage.sessions == 2
    first = json.loads((run_dir / "judgements/agent/attempt-1/judgement.json").read_text())
    assert first["final_score"] == 1.5  # kept for audit, never clamped
    second = next(e for e in _session_events(run_dir, 2) if isinstance(e, MessageEvent)).text
    assert "final_score: Input should be less than or equal to 1" in second


def test_shipped_offline_judge_credits_nothing(run_dir: Path, tmp_path: Path) -> None:
    outcome = judge_folder(run_dir, _spec(tmp_path, None), TASKS, force=True)
    j = outcome.judgement
    assert j is not None and j.status == "judged", j and j.error
    assert (j.final_score, j.passed, j.attempts) == (0.0, False, 1)
    statuses = {c.status for a in j.artifact_checks for c in a.clause_results}
    assert statuses == {"unjudged"}


# ------------------------------------------------------------------ no sandbox
def test_evidence_over_the_cap_is_left_out_and_listed(finished_run: Path, tmp_path: Path) -> None:
    run = load_run(finished_run)
    cap = (finished_run / "task.toml").stat().st_size + 10_000  # no room for the ledger
    staged = stage_evidence(run, tmp_path / "evidence", cap)
    manifest = json.loads((tmp_path / "evidence" / "MANIFEST.json").read_text())
    copied = {f["path"] for f in manifest["files"]}
    assert "task.toml" in copied and "ledger.jsonl" not in copied
    assert "ledger.jsonl" in {o["path"] for o in manifest["omitted"]}
    assert sum(f["bytes"] for f in manifest["files"]) <= cap
    assert staged.omitted == manifest["omitted"]


def test_agent_judge_without_an_agent_section_is_a_config_error(
    run_dir: Path, tmp_path: Path
) -> None:
    spec = _spec(tmp_path, None).model_copy(update={"agent": None, "name": "mine"})
    outcome = judge_folder(run_dir, spec, TASKS, force=True)
    assert outcome.status == "error"
    assert outcome.error is not None
    assert "conf/judge/mine.yaml" in outcome.error and "judge.agent" in outcome.error


@pytest.fixture(scope="module")
def task_and_spec(finished_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_run(finished_run).task, _spec(tmp_path_factory.mktemp("spec"), None)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["artifact_checks"].pop(), "one entry per deliverable"),
        (lambda d: d["artifact_checks"][0]["clause_results"].pop(), "one entry per clause"),
        (lambda d: d["artifact_checks"][1].update(correctness=0.96), "rounds up"),
        (
            lambda d: d["artifact_checks"][0]["clause_results"][0].update(evidence=[]),
            "needs evidence",
        ),
        (lambda d: d["dimensions"].pop("efficiency_robustness"), "eight dimensions"),
        (lambda d: d["dimensions"]["task_completion"].update(score=-0.1), "greater than"),
        (lambda d: d.update(final_score=0.9), "above Eq. 3"),
        (lambda d: d.update(verdict="pass"), "Extra inputs"),
        (
            lambda d: d.update(hack_patterns=["fake_screenshot"], hack_confidence=0.9),
            "is_hack: must be true",
        ),
        (lambda d: d.update(hack_patterns=["vibes"]), "unknown ['vibes']"),
        (
            lambda d: d.update(
                is_hack=True,
                hack_patterns=["fake_render"],
                hack_confidence=0.95,
                hack_evidence_quotes=["Image.new('RGB', (800, 600))"],
            ),
            "is not verbatim",
        ),
        (lambda d: d.update(taxonomy={"sub_class": "E4.2", "reason": "x"}), "only for a failure"),
    ],
)
def test_contract_violations_are_malformed(
    finished_run: Path, task_and_spec: Any, change: Any, problem: str
) -> None:
    task, spec = task_and_spec
    doc = _valid(finished_run)
    change(doc)
    with pytest.raises(MalformedJudgement, match=problem.replace("[", r"\[").replace("(", r"\(")):
        parse_output(json.dumps(doc).encode(), task, spec, "python3 -m unittest")


def test_a_flagged_cheat_scores_zero_by_eq3(finished_run: Path, task_and_spec: Any) -> None:
    task, spec = task_and_spec
    doc = _valid(finished_run)
    doc.update(
        is_hack=True,
        hack_patterns=["hardcoded_metric"],
        hack_confidence=0.9,
        hack_evidence_quotes=["python3  -m\nunittest"],  # whitespace-insensitive, verbatim
    )
    out, notes = parse_output(json.dumps(doc).encode(), task, spec, "python3 -m unittest")
    assert out.final_score == 0.85 and notes == ["final_score 0.85 set to 0 by Eq. 3 (is_hack)"]
    assert set(CHEAT_PATTERNS) >= set(out.hack_patterns)


def test_realcli_judge_with_a_model_group_for_the_judge(
    finished_run: Path, tmp_path: Path, cache_dir: Path
) -> None:
    """`realcli judge judge=agent model@judge.agent.model=noop`: the judge's model from the
    model group; the null model writes nothing, so the run is judge_failed, not a 0 pass."""
    runs = tmp_path / "runs"
    run = runs / "default" / finished_run.name
    shutil.copytree(finished_run, run, symlinks=True)
    shutil.rmtree(run / "judgements", ignore_errors=True)
    ledger = (run / "ledger.jsonl").read_bytes()
    args = ["judge", "judge=agent", "model@judge.agent.model=noop", "judge.agent.retries=0"]
    proc = run_realcli([*args, f"paths.runs_dir={runs}"], env_for(tmp_path, cache_dir), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "agent judge_failed: 1 attempts, no valid judgement: #1: judgement.json: missing" in (
        proc.stdout
    )
    j = read_judgement(run / "judgements" / "agent.json")
    assert (j.status, j.attempts, j.passed) == ("judge_failed", 1, False)
    assert j.usage is not None and j.usage.model_calls >= 1
    assert (run / "ledger.jsonl").read_bytes() == ledger
