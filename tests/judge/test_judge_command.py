"""`realcli judge`: judge finished runs after the fact, skip what carries the same judge_key,
redo with --force (same bytes), one error line for a bad run folder, bad overrides refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from realcli.judge import JUDGEMENTS_DIR
from tests.conftest import REPO, env_for, run_realcli


def _judge(runs: Path, cache_dir: Path, *args: str) -> tuple[int, str, str]:
    env = env_for(runs.parent, cache_dir)
    proc = run_realcli(["judge", f"paths.runs_dir={runs}", *args], env, REPO)
    return proc.returncode, proc.stdout, proc.stderr


def test_judge_then_skip_then_force_gives_the_same_bytes(
    replay_copy: Path, cache_dir: Path
) -> None:
    runs = replay_copy.parents[1]
    code, out, err = _judge(runs, cache_dir, "judge=tests")
    assert code == 0, out + err
    assert f"judged   {replay_copy.name} weave-gam-lightsout: tests final=1.00 passed=1" in out
    path = replay_copy / JUDGEMENTS_DIR / "tests.json"
    first = path.read_bytes()
    record = json.loads(first)
    assert record["judge"] == "tests" and len(record["judge_key"]) == 16
    code, out, _ = _judge(runs, cache_dir, "judge=tests")
    assert code == 0 and "1 runs: 0 judged, 1 skipped" in out
    code, out, _ = _judge(runs, cache_dir, "judge=tests", "--force")
    assert code == 0 and "1 runs: 1 judged" in out
    assert path.read_bytes() == first
    # another judge config is another judge_key: judged again, not skipped
    code, out, _ = _judge(runs, cache_dir, "judge=tests", "judge.tau=0.5")
    assert "1 runs: 1 judged" in out
    assert json.loads(path.read_bytes())["judge_key"] != record["judge_key"]


def test_a_bad_run_folder_is_one_line_and_the_others_are_judged(
    replay_copy: Path, cache_dir: Path
) -> None:
    runs = replay_copy.parents[1]
    broken = replay_copy.parent / "0000000000000000"
    shutil.copytree(replay_copy, broken, symlinks=True)
    (broken / "task.toml").write_text("id = [\n")
    no_verdict = replay_copy.parent / "1111111111111111"
    shutil.copytree(replay_copy, no_verdict, symlinks=True)
    (no_verdict / "verdict.json").unlink()
    code, out, err = _judge(runs, cache_dir, "judge=tests")
    assert code == 1, out + err
    assert f"error    0000000000000000: {broken}/task.toml: unreadable" in out
    assert "(fix: rerun this run)" in out
    assert "skip     1111111111111111: not finished (no verdict.json)" in out
    assert f"judged   {replay_copy.name}" in out
    assert "3 runs: 1 judged, 0 skipped (same judge_key), 1 could not be judged" in out


def test_bad_command_lines_are_refused_with_the_fix(tmp_path: Path, cache_dir: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    for args, needle in [
        (["judge=nope"], "no option 'nope' in config group 'judge'"),
        (["judge.tau=2"], "conf/judge/auto.yaml: judge.tau"),
        (["judge=tests", "judge.kind=nope"], "conf/judge/tests.yaml: judge.kind: no judge 'nope'"),
        (["model=noop"], "realcli judge takes judge and paths overrides only"),
        (["--frobnicate"], "unknown option"),
        (["deadbeef"], "no run matching 'deadbeef'"),
    ]:
        code, out, err = _judge(runs, cache_dir, *args)
        assert code == 2, (args, out, err)
        assert needle in err, (args, err)
        assert "Traceback" not in err


def test_a_damaged_capture_is_one_error_line_naming_the_file_and_event(
    replay_copy: Path, cache_dir: Path
) -> None:
    runs = replay_copy.parents[1]
    damaged = replay_copy.parent / "2222222222222222"
    shutil.copytree(replay_copy, damaged, symlinks=True)
    shot = sorted((damaged / "screenshots").glob("*.png"))[0]
    shot.write_bytes(shot.read_bytes()[:100])  # truncated PNG
    code, out, err = _judge(runs, cache_dir, "judge=trajectory")
    assert code == 1, out + err
    assert f"error    2222222222222222: {shot}: ledger.jsonl seq " in out
    assert "its sha256 is not the event's (100 bytes)" in out
    assert "(fix: the run folder is damaged: restore the file or rerun this run)" in out
    assert f"judged   {replay_copy.name} weave-gam-lightsout: trajectory final=1.00 passed=1" in out


def test_an_undecodable_deliverable_screenshot_is_the_agents_fault_not_a_crash(
    replay_copy: Path, cache_dir: Path
) -> None:
    (replay_copy / "workspace" / "evidence" / "solved.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    code, out, err = _judge(replay_copy.parents[1], cache_dir, "judge=trajectory")
    assert code == 0, out + err
    record = json.loads((replay_copy / JUDGEMENTS_DIR / "trajectory.json").read_text())
    (check,) = [a for a in record["artifact_checks"] if a["id"] == "evidence/solved.png"]
    assert not check["format_ok"] and check["correctness"] <= 0.40
    assert record["final_score"] < record["tau"] and not record["passed"]
