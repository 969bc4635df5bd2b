"""``realcli run``: check config-group overrides up front, then hand argv to the Hydra app."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from realcli.runner.app import CONF_DIR, hydra_main
from realcli.schema.run_spec import CONFIG_GROUPS
from realcli.util.errors import ConfigError

__all__ = ["check_group_overrides", "run_command"]

_GROUPS = (*CONFIG_GROUPS, "experiment", "local")


def _options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml"))


def check_group_overrides(argv: Sequence[str]) -> None:
    """Raise :class:`ConfigError` for ``group=option`` naming an option with no YAML file."""
    for arg in argv:
        if arg.startswith("-") or "=" not in arg:
            continue
        key, value = arg.split("=", 1)
        group = key.lstrip("+~")
        if group not in _GROUPS or "(" in value or "*" in value:
            continue
        for option in filter(None, (v.strip() for v in value.split(","))):
            if option != "null" and not (CONF_DIR / group / f"{option}.yaml").is_file():
                known = ", ".join(_options(group)) or "(none)"
                raise ConfigError(
                    "command line",
                    arg,
                    f"no option {option!r} in config group {group!r}",
                    f"use one of {known}, or add conf/{group}/{option}.yaml",
                )


def run_command(argv: Sequence[str]) -> int:
    try:
        check_group_overrides(argv)
    except ConfigError as exc:
        print(f"realcli: error: {exc}", file=sys.stderr)
        return 2
    sys.argv = ["realcli run", *argv]
    hydra_main()
    return 0
