#!/usr/bin/env python3
"""Harbor's verifier, as a realcli ``score_file`` test set (copied into an imported bundle as
``tests/harbor_verify.py``; standard library only, it runs inside the task's sandbox).

For each step of ``f2p/steps.json`` (one for a single-step task) it runs that step's
``test.sh`` with ``TEST_DIR`` set to the step's tests folder (Harbor's ``/tests``) and
``REALCLI_VERIFIER_LOGS`` to a fresh folder (Harbor's ``/logs/verifier``), then reads the
reward test.sh wrote there: ``reward.txt`` (one number) or ``reward.json`` (named numbers,
e.g. ``{"reward": 0.5}`` or ``{"correctness": 1, "style": 0.5}``). A step's reward is its
``reward`` key, or the mean of its numbers when it has none. A step below its ``min_reward``
gates the steps after it (Harbor stops the trial there: they are not verified). The trial's
reward follows ``multi_step_reward_strategy``: ``mean`` (per key over the verified steps,
a missing key counting 0) or ``final`` (the last verified step).

It writes ``score_file`` (relative to the working directory, the task's workdir):
``{"obtained": reward, "max": 1.0, "rewards": {key: value}, "steps": [...],
"strategy": ...}``: the score realcli grades, with every dimension and step kept beside it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def read_rewards(logs: Path) -> tuple[dict[str, float], str]:
    """The rewards test.sh wrote to ``logs``, and which file held them."""
    as_json = logs / "reward.json"
    as_text = logs / "reward.txt"
    if as_json.is_file():
        data = json.loads(as_json.read_text(encoding="utf-8"))
        if isinstance(data, int | float) and not isinstance(data, bool):
            return {"reward": float(data)}, "reward.json"
        if not isinstance(data, dict):
            raise ValueError("reward.json holds neither a number nor an object of numbers")
        numbers = {
            str(k): float(v)
            for k, v in data.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }
        if not numbers:
            raise ValueError("reward.json has no numeric reward")
        return numbers, "reward.json"
    if as_text.is_file():
        return {"reward": float(as_text.read_text(encoding="utf-8").strip())}, "reward.txt"
    raise FileNotFoundError("test.sh wrote neither reward.txt nor reward.json")


def step_reward(rewards: dict[str, float]) -> float:
    if "reward" in rewards:
        return rewards["reward"]
    return sum(rewards.values()) / len(rewards) if rewards else 0.0


def run_step(step: dict[str, object]) -> dict[str, object]:
    tests = HERE / str(step["tests"])
    logs = Path(tempfile.mkdtemp(prefix="realcli-verifier-"))
    env = dict(os.environ, TEST_DIR=str(tests), REALCLI_VERIFIER_LOGS=str(logs))
    result: dict[str, object] = {"name": step["name"]}
    try:
        proc = subprocess.run(
            ["bash", str(tests / "test.sh")],
            env=env,
            timeout=float(step.get("timeout_s") or 600.0),  # type: ignore[arg-type]
            check=False,
        )
        result["exit_code"] = proc.returncode
        rewards, source = read_rewards(logs)
        result.update(rewards=rewards, reward=step_reward(rewards), source=source)
    except subprocess.TimeoutExpired:
        result.update(rewards={}, reward=0.0, error=f"test.sh ran over {step.get('timeout_s')} s")
    except (OSError, ValueError) as exc:
        result.update(rewards={}, reward=0.0, error=str(exc))
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    return result


def trial_rewards(steps: list[dict[str, object]], strategy: str) -> dict[str, float]:
    verified: list[dict[str, float]] = []
    for step in steps:
        rewards = step.get("rewards")
        if isinstance(rewards, dict) and step.get("contributes", True):
            verified.append({str(k): float(v) for k, v in rewards.items()})
    if not verified or not any(verified):
        return {"reward": 0.0}
    if strategy == "final":
        return verified[-1] or {"reward": 0.0}
    keys = sorted({k for rewards in verified for k in rewards})
    return {k: sum(r.get(k, 0.0) for r in verified) / len(verified) for k in keys}


def main() -> int:
    plan = json.loads((HERE / "f2p" / "steps.json").read_text(encoding="utf-8"))
    results: list[dict[str, object]] = []
    gate: str | None = None
    for step in plan["steps"]:
        if gate is not None:
            results.append({"name": step["name"], "skipped": gate})
            continue
        result = run_step(step)
        result["contributes"] = step.get("contributes", True)
        results.append(result)
        minimum = step.get("min_reward")
        reward = result.get("reward")
        if minimum is not None and isinstance(reward, float) and reward < float(minimum):
            gate = f"step {step['name']} scored {result['reward']} < min_reward {minimum}"
    strategy = str(plan.get("strategy") or "mean")
    rewards = trial_rewards(results, strategy)
    score = {
        "obtained": max(0.0, min(1.0, step_reward(rewards))),
        "max": 1.0,
        "rewards": rewards,
        "steps": results,
        "strategy": strategy,
    }
    out = Path(plan["score_file"])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(score, indent=2) + "\n", encoding="utf-8")
    for r in results:
        print(f"harbor step {r['name']}: {r.get('reward', r.get('skipped'))} {r.get('error', '')}")
    print(f"harbor reward: {score['obtained']} ({strategy}; {json.dumps(rewards)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
