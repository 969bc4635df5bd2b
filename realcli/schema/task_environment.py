"""What a task runs in: its Docker environment and its display with the GUI apps on it."""

from __future__ import annotations

from pydantic import Field, field_validator

from realcli.schema.base import Frozen
from realcli.schema.task_gui_app import GuiApp
from realcli.schema.task_paths import bundle_relative

__all__ = ["EnvironmentSpec", "GuiApp", "GuiSpec"]


class EnvironmentSpec(Frozen):
    """What ``sandbox=docker`` runs the task in (``sandbox=local`` ignores it)."""

    dockerfile: str | None = Field(
        None,
        description="the task's Dockerfile, relative to the bundle (its folder is the build "
        "context), e.g. 'environment/Dockerfile'; None: realcli's base image",
    )
    image: str | None = Field(
        None, description="a local image name to run in instead of building the Dockerfile"
    )

    @field_validator("dockerfile")
    @classmethod
    def _inside(cls, v: str | None) -> str | None:
        if v is None:
            return v
        return bundle_relative(v, "dockerfile", "name a file inside the bundle")


class GuiSpec(Frozen):
    width: int = Field(1280, ge=320, le=7680)
    height: int = Field(800, ge=240, le=4320)
    apps: tuple[GuiApp, ...] = ()
