"""Where the config groups are: the ones shipped in the package, then the user's own.

The shipped groups are the package ``realcli.conf`` (pyproject.toml maps the repo's ``conf/``
there), found through :mod:`importlib.resources`, so an installed wheel has them as an editable
install does. A user's own config dirs (``--config-dir DIR``, or :data:`USER_CONFIG_ENV`, a
``os.pathsep``-separated list) are searched after them: they add options (``model/mine.yaml``,
``experiment/x.yaml``) and their ``local/default.yaml`` is merged into every run, over every
shipped default (docs/config.md "Your own config dir").
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path

from realcli.util.errors import ConfigError

__all__ = ["USER_CONFIG_ENV", "search_path_override", "shipped_conf_dir", "user_config_dirs"]

USER_CONFIG_ENV = "REALCLI_CONFIG_DIR"
"""Your own config dirs, searched after the shipped groups by every command that composes."""


def shipped_conf_dir() -> Path:
    """The folder of the package ``realcli.conf`` (``config.yaml`` and the groups)."""
    try:
        root = resources.files("realcli.conf")
    except ModuleNotFoundError as exc:  # a source tree on sys.path without an install
        raise ConfigError(
            "realcli.conf",
            None,
            "the shipped config groups are not importable",
            "install realcli (`pip install -e .` in the repo, or the wheel)",
        ) from exc
    path = Path(str(root))
    if not (path / "config.yaml").is_file():
        raise ConfigError(
            str(path / "config.yaml"),
            None,
            "missing from the installed package",
            "reinstall realcli (the wheel ships conf/ as realcli/conf)",
        )
    return path


def user_config_dirs(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The folders :data:`USER_CONFIG_ENV` names, in order (each must exist)."""
    env = os.environ if environ is None else environ
    dirs = []
    for part in env.get(USER_CONFIG_ENV, "").split(os.pathsep):
        if not part.strip():
            continue
        path = Path(part).expanduser().resolve()
        if not path.is_dir():
            raise ConfigError(
                f"${USER_CONFIG_ENV}",
                None,
                f"{path} is not a folder",
                f"point {USER_CONFIG_ENV} at a folder of config groups (e.g. one holding "
                "local/default.yaml or model/), or unset it",
            )
        dirs.append(path)
    return dirs


def search_path_override(dirs: Sequence[Path]) -> list[str]:
    """The ``hydra.searchpath`` override that adds ``dirs`` (none when empty)."""
    if not dirs:
        return []
    return [f"hydra.searchpath=[{','.join(f'file://{Path(d).resolve()}' for d in dirs)}]"]
