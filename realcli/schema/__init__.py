"""Typed records shared by every layer: specs, ledger events, verdicts, actions."""

from realcli.schema.actions import Action, ActionAdapter
from realcli.schema.events import Event, EventAdapter, HeaderEvent
from realcli.schema.run_spec import RunSpec
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import Verdict

__all__ = [
    "Action",
    "ActionAdapter",
    "Event",
    "EventAdapter",
    "HeaderEvent",
    "RunSpec",
    "TaskSpec",
    "Verdict",
]
