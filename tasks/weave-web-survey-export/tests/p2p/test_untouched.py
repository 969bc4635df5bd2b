"""What must keep working: the page, the validator and its test, the README."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_page_structure() -> None:
    html = Path("site/index.html").read_text(encoding="utf-8")
    for marker in ('id="check-btn"', 'id="check-code"', 'src="/api/check.js"', 'src="js/db.js"'):
        assert marker in html, marker


def test_workspace_tests_pass() -> None:
    proc = subprocess.run([sys.executable, "-m", "unittest", "discover", "tests"], timeout=60)
    assert proc.returncode == 0


def test_readme_is_kept() -> None:
    assert Path("README.md").is_file()
