"""BuiltinHarness against the harness contract (real runner, sandbox, gateway and grading)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_contract import HarnessContract, NativeKind, NativeToolEvent
from harness_helpers import read_jsonl
from harness_scenarios import SMOKE_TASK

from realcli.harness.builtin import NATIVE_STDOUT

pytestmark = pytest.mark.sandbox


class TestBuiltinHarnessContract(HarnessContract):
    harness_overrides = ("harness=builtin",)
    # every smoke task is replayed by this harness in tests/runner/test_harness_sweep.py;
    # the contract replays one (its sweep run checks the others)
    replay_tasks = (SMOKE_TASK,)
    tool_pool = frozenset({"shell", "read_file", "write_file", "edit_file"})

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        kinds: dict[str, NativeKind] = {"tool_call": "call", "tool_result": "result"}
        return [
            NativeToolEvent(kinds[r["type"]], str(r["id"]))
            for r in read_jsonl(native_dir / NATIVE_STDOUT)
            if r.get("type") in kinds
        ]

    @classmethod
    def native_tool_pool(cls, native_dir: Path) -> set[str] | None:
        records = read_jsonl(native_dir / NATIVE_STDOUT)
        start = next((r for r in records if r.get("type") == "session_start"), None)
        return set(start["tools"]) if start is not None else None
