"""deploy/restore-kit.kdbx: a real KeePass database, key file only, with the two credentials."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_restore_kit() -> None:
    kit = c.DEPLOY / "restore-kit.kdbx"
    assert kit.is_file(), "deploy/restore-kit.kdbx is missing"
    assert kit.read_bytes()[:8] == bytes.fromhex("03d9a29a67fb4bb5"), "not a KDBX 2/3/4 file"
    wanted = {
        ("restic repository", "password"): "restic_password",
        ("restic repository", "url"): "restic_repository",
        ("b2 application key", "username"): "b2_account_id",
        ("b2 application key", "password"): "b2_account_key",
    }
    wrong = [  # compared, never printed: the values are secrets
        f"{entry} {attribute}"
        for (entry, attribute), anchor in wanted.items()
        if c.kit_show(entry, attribute) != c.ANCHORS[anchor]
    ]
    assert not wrong, "restore kit entries with a wrong value: " + ", ".join(wrong)
