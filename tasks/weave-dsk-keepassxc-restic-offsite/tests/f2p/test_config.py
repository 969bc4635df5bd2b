"""deploy/offsite.env and the secret files carry the rotated credentials, and nothing leaks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_env_values() -> None:
    env = c.env_values(c.DEPLOY / "offsite.env")
    assert env.get("RESTIC_REPOSITORY") == c.ANCHORS["restic_repository"], (
        f"RESTIC_REPOSITORY={env.get('RESTIC_REPOSITORY')!r} is not the current repository"
    )
    assert env.get("B2_ACCOUNT_ID") == c.ANCHORS["b2_account_id"], (
        f"B2_ACCOUNT_ID={env.get('B2_ACCOUNT_ID')!r} is not the current key's ID"
    )


def test_secret_files() -> None:
    for anchor, name in c.SECRET_FILES.items():
        path = c.DEPLOY / "secrets" / name
        assert path.is_file(), f"deploy/secrets/{name} is missing"
        text = path.read_text(encoding="utf-8")
        exact = text in (c.ANCHORS[anchor], c.ANCHORS[anchor] + "\n")  # never printed
        stale = c.STALE[anchor] in text
        assert exact, f"deploy/secrets/{name} does not hold exactly the current secret" + (
            " (it holds the archived one)" if stale else ""
        )
        assert path.stat().st_mode & 0o077 == 0, f"deploy/secrets/{name} is not mode 0600"


def test_no_leak() -> None:
    """The secrets are in their files (so they were carried at all) and in no other file."""
    allowed = {c.DEPLOY / "secrets" / name for name in c.SECRET_FILES.values()}
    carried = [
        p.name for p in allowed if p.is_file() and c.ANCHORS[c.KEY_OF[p.name]] in p.read_text()
    ]
    assert len(carried) == len(allowed), "the current secrets are not in deploy/secrets/ at all"
    leaks = []
    for path in sorted(c.WS.rglob("*")):
        if not path.is_file() or path.is_symlink() or path in allowed:
            continue
        if path.relative_to(c.WS).parts[0].startswith(".realcli_"):
            continue  # the grader's own folders (these tests, their logs)
        if path.stat().st_size > 8 * 1024 * 1024:
            continue
        data = path.read_bytes()
        leaks += [
            f"{path.relative_to(c.WS)} holds {key}"
            for key in c.SECRET_FILES
            if c.ANCHORS[key].encode() in data
        ]
    assert not leaks, "secrets in clear text outside deploy/secrets/: " + "; ".join(leaks)


def test_check_deploy_ok() -> None:
    proc = subprocess.run(
        [sys.executable, str(c.DEPLOY / "check_deploy.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout
