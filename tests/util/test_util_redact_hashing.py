"""Secret redaction and content hashes."""

from __future__ import annotations

import os
from pathlib import Path

from realcli.util.hashing import sha256_json, sha256_tree
from realcli.util.redact import REDACTED, Redactor, is_secret_name, scrub_env


def test_secret_names() -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_AUTH_TOKEN", "db_password", "GH_TOKEN"):
        assert is_secret_name(name)
    for name in ("PATH", "HOME", "LANG", "REALCLI_RUNS_DIR"):
        assert not is_secret_name(name)
    assert scrub_env({"PATH": "/bin", "OPENAI_API_KEY": "x"}) == {"PATH": "/bin"}


def test_redactor_removes_env_values_and_key_shapes() -> None:
    r = Redactor(env={"MY_TOKEN": "tok-1234567890", "SHORT_KEY": "abc", "PATH": "/usr/bin"})
    text = "t=tok-1234567890 k=sk-ant-abcdefghijklmnopqrstuvwx p=/usr/bin s=abc"
    assert r.text(text) == f"t={REDACTED} k={REDACTED} p=/usr/bin s=abc"
    nested = r.obj({"a": ["tok-1234567890", 3], "tok-1234567890": None})
    assert nested == {"a": [REDACTED, 3], REDACTED: None}


def test_sha256_json_is_key_order_independent() -> None:
    assert sha256_json({"a": 1, "b": [1, 2]}) == sha256_json({"b": [1, 2], "a": 1})
    assert sha256_json({"a": 1}) != sha256_json({"a": 2})


def test_tree_digest_sees_content_names_modes_and_links(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.txt").write_text("x")
    base = sha256_tree(tmp_path)
    (tmp_path / "d" / "__pycache__").mkdir()
    (tmp_path / "d" / "__pycache__" / "c.pyc").write_bytes(b"\0")
    assert sha256_tree(tmp_path) == base  # caches do not count
    os.chmod(tmp_path / "d" / "f.txt", 0o755)
    assert sha256_tree(tmp_path) != base
    os.chmod(tmp_path / "d" / "f.txt", 0o644)
    assert sha256_tree(tmp_path) == base
    (tmp_path / "link").symlink_to("d/f.txt")
    assert sha256_tree(tmp_path) != base
