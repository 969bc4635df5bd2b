"""One GUI application of a hybrid task (``[[gui.apps]]``): what it runs, what it may read
and the frozen profile every run starts it from.

A real desktop application (LibreOffice, Inkscape, GIMP...) needs more than a Tk script: a
writable profile that starts in the same state every run (``profile``: copied per run from the
bundle to ``/run/realcli/profile``), environment variables pointing it there (``env``), a few
host configuration folders beyond ``/usr`` (``system_paths``: fontconfig, ``/etc/libreoffice``)
and longer to start (``start_s``). Placeholders in ``argv`` and ``env`` values: ``{app}`` (its
files), ``{profile}`` (the per-run profile copy), ``{workspace}`` (the agent's workspace,
read-only, with ``workspace = true``).
"""

from __future__ import annotations

import posixpath
import re

from pydantic import Field, field_validator, model_validator

from realcli.schema.base import Frozen
from realcli.schema.task_paths import bundle_relative, path_error

__all__ = [
    "APP_MOUNT",
    "APP_PLACEHOLDERS",
    "PROFILE_MOUNT",
    "SYSTEM_PATH_DENIED",
    "SYSTEM_PATH_ROOTS",
    "WORKSPACE_MOUNT",
    "GuiApp",
]

APP_MOUNT = "/run/realcli/app"
"""Where the app's ``files`` folder is mounted read-only in its sandbox."""
PROFILE_MOUNT = "/run/realcli/profile"
"""Where the per-run writable copy of the app's ``profile`` folder is mounted."""
WORKSPACE_MOUNT = "/run/realcli/workspace"
"""Where the agent's workspace is mounted read-only in the app's sandbox (``workspace``)."""
APP_PLACEHOLDERS = {"app": APP_MOUNT, "profile": PROFILE_MOUNT, "workspace": WORKSPACE_MOUNT}

SYSTEM_PATH_ROOTS = ("/etc/", "/var/cache/", "/var/lib/", "/opt/", "/usr/")
"""``system_paths`` must lie below one of these (host configuration and caches of apps)."""
SYSTEM_PATH_DENIED = frozenset(
    {
        "shadow",
        "shadow-",
        "gshadow",
        "gshadow-",
        "sudoers",
        "sudoers.d",
        "ssh",
        "ssl",
        "security",
        "docker",
        "containerd",
        "realcli",
        "apt",
        "dpkg",
        "machine-id",
        "credstore",
        "private",
    }
)
"""Path parts a ``system_paths`` entry may not contain: secrets, keys and host state."""
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ENV_RESERVED = frozenset({"DISPLAY", "TK_LIBRARY", "XAUTHORITY", "PATH"})
_PLACEHOLDER = re.compile(r"\{([A-Za-z_]+)\}")


def _placeholders_known(value: str, what: str) -> None:
    for name in _PLACEHOLDER.findall(value):
        if name not in APP_PLACEHOLDERS:
            known = ", ".join("{" + k + "}" for k in APP_PLACEHOLDERS)
            raise path_error(
                f"{what} {value!r} uses the unknown placeholder {{{name}}}", f"use one of {known}"
            )


def _outside_repo(value: str, what: str) -> str:
    if value == "repo" or value.startswith("repo/"):
        raise path_error(
            f"{what} {value!r} is the agent's initial workspace (environment/repo)",
            "keep the app's files in a folder of their own under environment/, e.g. gui_app",
        )
    return value


class GuiApp(Frozen):
    """A GUI application the task starts on the run's display, in a sandbox of its own that
    shares only the display (its files stay out of the agent's reach)."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    argv: tuple[str, ...] = Field(
        min_length=1, description="command; {app}, {profile}, {workspace}: their mount paths"
    )
    window: str = Field(description="window title to wait for (a Python regex, re.search)")
    files: str | None = Field(
        None, description="folder under environment/ mounted read-only at /run/realcli/app"
    )
    workspace: bool = Field(
        False,
        description="mount the agent's workspace read-only at /run/realcli/workspace in the "
        "app's sandbox, so the app can reflect what the agent did on the CLI side",
    )
    profile: str | None = Field(
        None,
        description="frozen profile: a folder under environment/ copied for each run to a "
        "writable folder at /run/realcli/profile ({profile}), so every run starts the app "
        "in the same state (settings, no first-start dialogs); the bundle's copy never changes",
    )
    env: dict[str, str] = Field(
        default_factory=dict,
        description="environment variables of the app (placeholders allowed), e.g. "
        "HOME = '{profile}'; DISPLAY, TK_LIBRARY, XAUTHORITY and PATH are realcli's",
    )
    system_paths: tuple[str, ...] = Field(
        (),
        description="host folders or files the app reads beyond /usr, mounted read-only at "
        "the same path, e.g. /etc/fonts, /var/cache/fontconfig, /etc/libreoffice; only below "
        "/etc, /var/cache, /var/lib, /opt, never secrets (ssh, ssl, shadow, sudoers...)",
    )
    start_s: float = Field(
        20.0, gt=0, le=300, description="seconds to wait for its window (real apps start slower)"
    )

    @field_validator("files", "profile")
    @classmethod
    def _inside_environment(cls, v: str | None) -> str | None:
        if v is None:
            return v
        bundle_relative(v, "gui app folder", "name a folder under environment/, e.g. gui_app")
        return _outside_repo(v, "gui app folder")

    @field_validator("argv")
    @classmethod
    def _argv_placeholders(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for arg in v:
            _placeholders_known(arg, "argument")
        return v

    @field_validator("env")
    @classmethod
    def _env(cls, v: dict[str, str]) -> dict[str, str]:
        for key, value in v.items():
            if not _ENV_NAME.fullmatch(key):
                raise path_error(f"env name {key!r} is not a variable name", "use e.g. HOME")
            if key in _ENV_RESERVED:
                raise path_error(
                    f"env {key} is set by realcli (the display, the Tk shim, the sandbox PATH)",
                    "leave it out",
                )
            if "\0" in value:
                raise path_error(f"env {key} holds a NUL byte", "remove it")
            _placeholders_known(value, f"env {key}")
        return v

    @field_validator("system_paths")
    @classmethod
    def _system_paths(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for path in v:
            fix = "name a host folder an app needs, e.g. /etc/fonts or /etc/libreoffice"
            if not path.startswith("/") or posixpath.normpath(path) != path or "\0" in path:
                raise path_error(f"system path {path!r} is not a normalised absolute path", fix)
            if not any(path.startswith(root) for root in SYSTEM_PATH_ROOTS):
                roots = ", ".join(r.rstrip("/") for r in SYSTEM_PATH_ROOTS)
                raise path_error(f"system path {path!r} is not below {roots}", fix)
            denied = SYSTEM_PATH_DENIED.intersection(path.split("/"))
            if denied:
                raise path_error(
                    f"system path {path!r} reaches {sorted(denied)[0]!r} (secrets, host state)",
                    "mount only the application's own configuration folder",
                )
        return v

    @model_validator(mode="after")
    def _mounts_exist(self) -> GuiApp:
        uses = " ".join((*self.argv, *self.env.values()))
        for name, present in (("profile", self.profile), ("app", self.files)):
            if "{" + name + "}" in uses and present is None:
                field = "files" if name == "app" else name
                raise path_error(
                    f"{{{name}}} is used but the app has no {field} folder",
                    f"set {field} = '<folder under environment/>'",
                )
        if "{workspace}" in uses and not self.workspace:
            raise path_error("{workspace} is used but workspace is false", "set workspace = true")
        return self
