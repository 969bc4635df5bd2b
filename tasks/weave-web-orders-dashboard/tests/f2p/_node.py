"""Run a snippet of JavaScript against the workspace's site/js/totals.js with Node."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

NODE = shutil.which("node") or "/usr/bin/node"
PRELUDE = "const T = require(process.argv[1] + '/site/js/totals.js');\n"


def run_js(body: str):
    """Evaluate ``body`` (which must end by printing one JSON value) and return that value."""
    proc = subprocess.run(
        [NODE, "-e", PRELUDE + body, os.getcwd()],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)
