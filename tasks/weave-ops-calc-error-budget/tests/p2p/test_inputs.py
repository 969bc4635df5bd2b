"""The guard script runs, and the settings the task does not touch stay as they are."""

import subprocess
import sys
from pathlib import Path


def test_guard_runs_and_reports() -> None:
    res = subprocess.run([sys.executable, "tools/deploy_guard.py"], capture_output=True, text=True, timeout=60)
    assert res.returncode in (0, 1) and "deploy/services.toml" in res.stdout + "deploy/services.toml", res.stderr
    assert "Traceback" not in res.stderr, res.stderr
    assert Path("deploy/services.toml").is_file()


def test_owners_kept() -> None:
    import tomllib

    services = tomllib.loads(Path("deploy/services.toml").read_text(encoding="utf-8"))["services"]
    assert {n: s.get("owner") for n, s in services.items()} == {
        n: f"team-{n.split('-')[0]}" for n in services
    }
    assert len(services) == 8
