"""The page keeps its structure and the totals module keeps its API."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path


def test_page_structure():
    html = Path("site/index.html").read_text(encoding="utf-8")
    for marker in (
        'id="kpi-orders"',
        'id="kpi-revenue"',
        'id="kpi-refunded"',
        'id="verify-btn"',
        'id="verify-result"',
        'id="verify-code"',
        'src="/api/verify.js"',
        'src="js/totals.js"',
    ):
        assert marker in html, marker


def test_totals_module_api():
    node = shutil.which("node") or "/usr/bin/node"
    js = (
        "const T = require(process.argv[1] + '/site/js/totals.js');"
        "const a = T.computeTotals([]);"
        "const b = T.computeTotals([{total: 12.5, status: 'paid'}, {total: 7.5, status: 'shipped'}]);"
        "console.log(JSON.stringify({a, b, fm: typeof T.formatMoney}));"
    )
    proc = subprocess.run(
        [node, "-e", js, os.getcwd()], capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["a"] == {"orders": 0, "revenue": 0, "refunded": 0}
    assert out["b"]["orders"] == 2 and out["b"]["revenue"] == 20
    assert out["fm"] == "function"
