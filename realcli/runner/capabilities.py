"""What a job asks of the registered components, checked before any run starts.

:func:`check_names` runs whenever a config is validated (every job, the precheck): the names
``harness.kind``, ``sandbox.kind`` and ``model.backend`` are registered, and ``harness.options``
validates against the adapter's ``Options`` model. :func:`refusals` is what the adapter cannot
do for a valid config: the mode is not in its ``MODES``, its agent CLI is not installed. The
precheck runs both for every job of a sweep (:mod:`realcli.runner.sweep_check`); the adapter's
own late checks stay as the last guard.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from realcli.gateway import BACKENDS
from realcli.harness.base import HARNESSES, Harness
from realcli.harness.install import InstallError, find_install
from realcli.sandbox import SANDBOXES
from realcli.schema.run_spec import HarnessSpec, ModelSpec, RunSpec
from realcli.util.errors import ConfigError
from realcli.util.validation import describe_validation_error

__all__ = ["MODE_ORDER", "check_names", "mode_list", "refusals"]

MODE_ORDER = ("cli_only", "gui_only", "hybrid")


def mode_list(modes: frozenset[str]) -> list[str]:
    """``modes`` in the order of ``conf/mode`` (cli_only, gui_only, hybrid, then others)."""
    return [m for m in MODE_ORDER if m in modes] + sorted(modes - set(MODE_ORDER))


def _where(choices: Mapping[str, str | None], group: str) -> str:
    choice = choices.get(group)
    return f"conf/{group}/{choice}.yaml" if choice else "conf/config.yaml"


def _harness(spec: HarnessSpec, where: str, prefix: str) -> type[Harness]:
    cls = HARNESSES.get(spec.kind, where, f"{prefix}.kind")
    try:
        cls.check_options(dict(spec.options))
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, cls.Options, f"{prefix}.options.")
        problem = f"{problem} (harness {spec.kind}; its options: docs/harnesses.md)"
        raise ConfigError(where, field, problem, fix) from None
    return cls


def _backend(model: ModelSpec, where: str, field: str) -> None:
    BACKENDS.get(model.backend, where, field)


def check_names(spec: RunSpec, choices: Mapping[str, str | None]) -> None:
    """Raise :class:`ConfigError` (file, field, did-you-mean) for a component name no registry
    has, or ``harness.options`` its adapter's ``Options`` refuse."""
    _harness(spec.harness, _where(choices, "harness"), "harness")
    SANDBOXES.get(spec.sandbox.kind, _where(choices, "sandbox"), "sandbox.kind")
    _backend(spec.model, _where(choices, "model"), "model.backend")
    guidance = spec.protocol.guidance
    if guidance is not None and guidance.user_model is not None:
        where = _where(choices, "protocol")
        _backend(guidance.user_model, where, "protocol.guidance.user_model.backend")
    if spec.judge.agent is not None:
        where = _where(choices, "judge")
        _harness(spec.judge.agent.harness, where, "judge.agent.harness")
        _backend(spec.judge.agent.model, where, "judge.agent.model.backend")


def refusals(spec: RunSpec) -> list[str]:
    """Why the job's harness cannot run it (empty: it can): its ``MODES`` lack the job's mode,
    its agent CLI is not installed at the pinned version."""
    cls = HARNESSES.get(spec.harness.kind)
    kind, mode = spec.harness.kind, spec.mode.name
    out = []
    if mode not in cls.MODES:
        supported = ", ".join(mode_list(cls.MODES))
        first = mode_list(cls.MODES)[0]
        out.append(
            f"{kind} supports {supported}, not {mode} (fix: run it with mode={first}, or run "
            f"{mode} with a harness that supports it: `realcli agents list` shows each one's)"
        )
    if cls.RECIPE is not None:
        try:
            find_install(cls.RECIPE.name, Path(spec.paths.agents_dir), spec.harness.version)
        except InstallError as exc:
            out.append(f"{exc.problem} (fix: {exc.fix})")
    return out
