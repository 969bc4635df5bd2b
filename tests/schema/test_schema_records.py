"""Schemas reject typos and bad values; ledger events round-trip through JSON."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from realcli.schema.actions import ActionAdapter, WriteAction
from realcli.schema.events import EventAdapter, ModelCallEvent, ToolCallEvent
from realcli.schema.task_spec import TaskSpec

MINIMAL_TASK = {
    "id": "demo-task",
    "category": "bugfix",
    "title": "Demo",
    "substeps": [{"id": "s1", "title": "one", "tests": ["f2p/test_a.py"]}],
}


def test_task_spec_accepts_minimal_task() -> None:
    spec = TaskSpec.model_validate(MINIMAL_TASK)
    assert spec.workdir == "/app"
    assert spec.substeps[0].weight == 1.0


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"categroy": "bugfix"}, "categroy"),
        ({"category": "cleanup"}, "category"),
        ({"substeps": []}, "substeps"),
        ({"substeps": [{"id": "s1", "title": "t", "tests": ["p2p/test_a.py"]}]}, "f2p/"),
        (
            {"substeps": [{"id": "s1", "title": "t", "tests": ["f2p/a.py"], "depends_on": ["s9"]}]},
            "s9",
        ),
    ],
)
def test_task_spec_rejects_bad_fields(change: dict[str, object], needle: str) -> None:
    with pytest.raises(ValidationError) as err:
        TaskSpec.model_validate({**MINIMAL_TASK, **change})
    assert needle in str(err.value)


def test_task_spec_is_frozen() -> None:
    spec = TaskSpec.model_validate(MINIMAL_TASK)
    with pytest.raises(ValidationError):
        spec.id = "other"  # type: ignore[misc]


def test_write_action_needs_exactly_one_source() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        ActionAdapter.validate_python({"action": "write", "path": "a.py"})
    with pytest.raises(ValidationError, match="exactly one"):
        ActionAdapter.validate_python(
            {"action": "write", "path": "a.py", "content": "x", "content_from": "f"}
        )
    action = ActionAdapter.validate_python({"action": "write", "path": "a.py", "content": "x"})
    assert isinstance(action, WriteAction)


def test_events_round_trip_on_kind() -> None:
    call = ModelCallEvent(
        seq=3,
        wire_format="openai_chat",
        backend="replay",
        model="m",
        tokens_in=10,
        tokens_out=2,
        latency_ms=1.5,
        finish_reason="tool_calls",
        n_tool_calls=1,
    )
    tool = ToolCallEvent(
        seq=4,
        call_id="c1",
        name="shell",
        raw_name="shell",
        atomic_op="exec: shell",
        args={"cmd": "ls"},
    )
    for event in (call, tool):
        back = EventAdapter.validate_python(json.loads(event.model_dump_json()))
        assert back == event
    with pytest.raises(ValidationError):
        EventAdapter.validate_python({"kind": "telepathy", "seq": 1})
