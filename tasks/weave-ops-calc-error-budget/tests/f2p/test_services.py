"""deploy/services.toml: the recalculated budgets and the freeze flags; the guard passes."""

import subprocess
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import FROZEN, REMAINING  # noqa: E402


def _services() -> dict[str, dict[str, object]]:
    return tomllib.loads(Path("deploy/services.toml").read_text(encoding="utf-8"))["services"]


def test_remaining_budgets() -> None:
    got = {n: s.get("budget_remaining_min") for n, s in _services().items()}
    assert set(got) == set(REMAINING), sorted(got)
    wrong = {n: (got[n], v) for n, v in REMAINING.items()
             if not isinstance(got[n], (int, float)) or abs(float(got[n]) - v) > 0.011}  # fmt: skip
    assert not wrong, f"remaining budget differs from the recalculated workbook (got, want): {wrong}"


def test_freeze_flags() -> None:
    frozen = sorted(n for n, s in _services().items() if s.get("deploy_freeze") is True)
    assert frozen == FROZEN, f"frozen {frozen}, want {FROZEN}"


def test_deploy_guard_passes() -> None:
    res = subprocess.run([sys.executable, "tools/deploy_guard.py"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.strip().endswith("OK"), res.stdout + res.stderr
    assert f"freeze: {', '.join(FROZEN)}" in res.stdout, res.stdout
