"""What a task runs in: its Docker environment and its display with the GUI apps on it."""

from __future__ import annotations

from pydantic import Field, field_validator

from realcli.schema.base import Frozen
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


class GuiApp(Frozen):
    """A GUI application the task starts on the run's display, in a sandbox of its own that
    shares only the display (its files stay out of the agent's reach)."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    argv: tuple[str, ...] = Field(min_length=1, description="command; {app} = its files dir")
    window: str = Field(description="window title to wait for (xdotool search --name)")
    files: str | None = Field(
        None, description="folder under environment/ mounted read-only at /run/realcli/app"
    )
    workspace: bool = Field(
        False,
        description="mount the agent's workspace read-only at /run/realcli/workspace in the "
        "app's sandbox, so the app can reflect what the agent did on the CLI side",
    )

    @field_validator("files")
    @classmethod
    def _inside_environment(cls, v: str | None) -> str | None:
        if v is None:
            return v
        return bundle_relative(v, "gui app files", "name a folder under environment/, e.g. gui_app")


class GuiSpec(Frozen):
    width: int = Field(1280, ge=320, le=7680)
    height: int = Field(800, ge=240, le=4320)
    apps: tuple[GuiApp, ...] = ()
