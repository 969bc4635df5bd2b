"""Expected values and helpers for the weave-dsk-keepassxc-restic-offsite tests (hidden)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

WS = Path.cwd()
DEPLOY = WS / "deploy"
ANCHORS: dict[str, str] = json.loads(
    Path(__file__).resolve().parents[1].joinpath("anchors.json").read_text()
)
# The archived (expired) credentials, in the vault's Archive group and the stale offsite.env.
STALE = {
    "b2_account_id": "005f34356fec3100000000004",
    "b2_account_key": "K005QxwK4pbhsGQPFWJEX1EkJDQDrsJ",
    "restic_password": "W6yhKX0hO2pFcJQd3HK4AQ6d",
    "restic_repository": "b2:fernway-backup:web1",
}
SECRET_FILES = {"restic_password": "restic-password", "b2_account_key": "b2-account-key"}
KEY_OF = {name: key for key, name in SECRET_FILES.items()}


def env_values(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def kit_show(entry: str, attribute: str) -> str:
    """One attribute of a restore-kit entry, read by keepassxc-cli with the key file only."""
    proc = subprocess.run(
        [
            "keepassxc-cli",
            "show",
            "-q",
            "-s",
            "--no-password",
            "-k",
            str(DEPLOY / "secrets" / "restore-kit.keyx"),
            "-a",
            attribute,
            str(DEPLOY / "restore-kit.kdbx"),
            entry,
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"keepassxc-cli show {entry!r}: {proc.stderr.strip()}"
    return proc.stdout.rstrip("\n")
