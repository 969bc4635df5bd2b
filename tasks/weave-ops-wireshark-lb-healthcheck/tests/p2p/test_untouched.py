"""What must keep working: the lint tool passes on the config, the README stays."""

import subprocess
import sys
from pathlib import Path


def test_lint_passes() -> None:
    proc = subprocess.run([sys.executable, "tools/lint_lb.py", "lb/haproxy.cfg"], timeout=60)
    assert proc.returncode == 0


def test_readme_is_kept() -> None:
    assert Path("README.md").is_file()
