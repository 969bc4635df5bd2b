"""Hidden tests never reach the agent through feedback: under ``protocol=self_correct`` an
agent whose code prints every hidden test file during grading, and raises them chunk by chunk
as assertion messages, sees none of their source in the feedback it gets (byte search)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realcli.grading.hidden import HiddenText
from realcli.ledger import read_ledger
from tests.conftest import TASKS, run_realcli

pytestmark = pytest.mark.sandbox

TASK = "smoke-bugfix-intervals"
LEAK = """
import glob as _g, sys as _s
_SRC = "".join(open(p).read() for p in sorted(_g.glob("/app/.realcli_tests/*/*.py")))
print(_SRC)
_s.__stdout__.write(_SRC)
_s.__stderr__.write(_SRC)
_at = [0]
def _leak(*args, **kwargs):
    start = _at[0]
    _at[0] = (start + 280) % max(1, len(_SRC))
    raise AssertionError(_SRC[start:start + 3000])
merge = total_length = gaps = intersection = parse_list = parse_interval = _leak
class Interval:
    def __init__(self, *args, **kwargs):
        _leak()
"""


def _hidden_lines() -> list[str]:
    lines = []
    for path in sorted((TASKS / TASK / "tests").rglob("*.py")):
        lines += [ln.strip() for ln in path.read_text().splitlines() if len(ln.strip()) >= 20]
    return lines


def test_printed_and_raised_test_source_never_reaches_the_agent(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    actions = [
        {"action": "shell", "cmd": f"cat >> intervals/__init__.py <<'EOF'\n{LEAK}\nEOF"},
        {"action": "message", "text": "round one done", "end_turn": True},
        {"action": "message", "text": "round two done"},
    ]
    script = tmp_path / "leak.jsonl"
    script.write_text("".join(json.dumps(a) + "\n" for a in actions))
    proc = run_realcli(
        [
            "run",
            "model=scripted",
            f"model.script={script}",
            f"task={TASK}",
            "protocol=self_correct",
            "protocol.rounds=2",
        ],
        realcli_env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    [run_dir] = [p.parent for p in (tmp_path / "runs").glob("*/*/ledger.jsonl")]
    events = read_ledger(run_dir / "ledger.jsonl").events
    (feedback,) = [e for e in events if e.kind == "intervention" and e.type == "feedback"]  # type: ignore[union-attr]
    text = feedback.text  # type: ignore[union-attr]
    # the leak did run: the saved (host-only) log holds the printed source
    assert "def test_" in (run_dir / "tests" / "round-1.f2p.log").read_text()
    # feedback names failing tests but carries none of their source
    assert "f2p/test_merge.py::" in text and "[failed]" in text
    assert "def test_" not in text and "import " not in text
    leaked = [line for line in _hidden_lines() if line in text]
    assert leaked == []
    # ... nor anything the agent's model saw afterwards
    native = "\n".join(
        p.read_text(errors="replace") for p in (run_dir / "native").rglob("*") if p.is_file()
    )
    assert [line for line in _hidden_lines() if line in native] == []


def test_scrubber_removes_copied_stretches_and_keeps_the_rest() -> None:
    hidden = HiddenText(
        ["def test_merge_touching():\n    assert merge([(1, 2), (2, 3)]) == [(1, 3)]\n"]
    )
    out = hidden.scrub("AssertionError: assert merge([(1, 2), (2, 3)]) == [(1, 3)] while 2 != 3")
    assert "merge([(1, 2), (2, 3)])" not in out and "[…]" in out
    assert out.startswith("AssertionError") and out.endswith("while 2 != 3")
    assert (
        hidden.scrub("assert -1 == 3 + where -1 = add(1, 2)")
        == "assert -1 == 3 + where -1 = add(1, 2)"
    )
