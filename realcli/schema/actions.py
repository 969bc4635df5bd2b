"""Generic agent actions: the vocabulary of reference trajectories (``solution/trajectory.jsonl``).

A harness-neutral action is mapped onto whatever tool set a harness offers (the builtin
harness's ``shell``/``read_file``/``write_file``/``edit_file``; other harnesses later).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, model_validator

from realcli.schema.base import Frozen

__all__ = [
    "Action",
    "ActionAdapter",
    "EditAction",
    "MessageAction",
    "ReadAction",
    "ShellAction",
    "WriteAction",
]


class _ActionBase(Frozen):
    substep: str | None = Field(None, description="sub-step this action works towards")
    note: str | None = Field(None, description="free-text rationale, shown as assistant content")


class ShellAction(_ActionBase):
    action: Literal["shell"]
    cmd: str = Field(min_length=1)
    timeout_s: float = Field(120.0, gt=0)


class ReadAction(_ActionBase):
    action: Literal["read"]
    path: str = Field(min_length=1, description="relative to the task's workdir")


class WriteAction(_ActionBase):
    action: Literal["write"]
    path: str = Field(min_length=1, description="relative to the task's workdir")
    content: str | None = None
    content_from: str | None = Field(
        None, description="file under solution/ whose text is the content"
    )

    @model_validator(mode="after")
    def _one_source(self) -> WriteAction:
        if (self.content is None) == (self.content_from is None):
            raise ValueError("a write action needs exactly one of 'content' or 'content_from'")
        return self


class EditAction(_ActionBase):
    action: Literal["edit"]
    path: str = Field(min_length=1)
    old: str = Field(min_length=1, description="exact text to replace; must occur once")
    new: str


class MessageAction(_ActionBase):
    action: Literal["message"]
    text: str


Action = Annotated[
    ShellAction | ReadAction | WriteAction | EditAction | MessageAction,
    Field(discriminator="action"),
]
ActionAdapter: TypeAdapter[Action] = TypeAdapter(Action)
