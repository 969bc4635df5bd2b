"""Run a snippet of JavaScript against the workspace's site/js/migrate.js with Node."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

NODE = shutil.which("node") or "/usr/bin/node"
PRELUDE = "const M = require(process.argv[1] + '/site/js/migrate.js');\n"


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


def migrate(items: list[dict]) -> dict:
    """migrateV1 on a 1.x store holding ``items`` (passed as the string 1.x wrote)."""
    raw = json.dumps({"v": 1, "owner": "sam", "items": items}, separators=(",", ":"))
    return run_js(f"console.log(JSON.stringify(M.migrateV1({json.dumps(raw)})));")
