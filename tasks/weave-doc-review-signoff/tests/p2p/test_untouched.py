"""What must stay as it is: the report script, the README, the body of the spec."""

from __future__ import annotations

import hashlib
from pathlib import Path

WS = Path.cwd()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_report_script_unchanged() -> None:
    assert (
        _sha((WS / "tools/review_report.py").read_bytes())
        == "2e0f25bc0679d5f6503c1c5a511740a074fbaabdc4375bd0bc19492b74345bfe"
    )


def test_readme_unchanged() -> None:
    assert (
        _sha((WS / "README.md").read_bytes())
        == "97e04f208db6627f75e90a0e94b67974fcd0e61521580b3f87ca8e72ff4167b5"
    )


def test_spec_body_unchanged() -> None:
    text = (WS / "docs/spec.md").read_text(encoding="utf-8")
    assert "## 1 Scope" in text
    assert (
        _sha(text[text.index("## 1 Scope") :].encode())
        == "3bcbf505b6f2afb71351b4256613ba12c6975e8614dbb1477391e8f8c3bd7150"
    )


def test_sources_pass_the_checks() -> None:
    """The spec and the tracker stay consistent (the script's own checks, a hidden copy)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "f2p" / "_review_report.py"
    spec = importlib.util.spec_from_file_location("_review_report_p2p", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    errors, _ = tool.check(
        (WS / "docs/spec.md").read_text(encoding="utf-8"),
        (WS / "review/comments.csv").read_text(encoding="utf-8"),
    )
    assert not errors, errors
