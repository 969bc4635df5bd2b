"""What must keep working: the page's structure, the storage keys, the README."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def test_page_structure() -> None:
    html = Path("site/index.html").read_text(encoding="utf-8")
    for marker in (
        'id="check-btn"',
        'id="check-result"',
        'id="check-code"',
        'src="/api/check.js"',
        'src="js/migrate.js"',
        'src="js/app.js"',
    ):
        assert marker in html, marker


def test_storage_keys_kept() -> None:
    node = shutil.which("node") or "/usr/bin/node"
    js = (
        "const M = require(process.cwd() + '/site/js/migrate.js');"
        "if (M.V1_KEY !== 'expense-drafts' || M.V2_KEY !== 'expenses:v2') process.exit(1);"
    )
    assert subprocess.run([node, "-e", js], timeout=30).returncode == 0


def test_readme_is_kept() -> None:
    assert Path("README.md").is_file()
