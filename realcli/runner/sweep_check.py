"""Every job of a sweep checked before the first run starts (``realcli run --multirun``).

The jobs are the ones Hydra's basic sweeper will launch (``hydra.sweeper.params`` and the
command line's sweep overrides, as a cross product: :func:`realcli.runner.sweep_plan.
job_overrides`), each composed from the multirun config the way the launcher composes it
(Hydra's ``load_sweep_config``; jobs that differ only in overrides that cannot change the
check, such as ``seed`` or ``task``, are composed once), validated into a
:class:`~realcli.schema.run_spec.RunSpec` (registered names, typed ``harness.options``) and
checked against its harness's capabilities (:func:`realcli.runner.capabilities.refusals`:
``MODES``, the agent install). Any refused job stops the whole sweep with one line per refused
job and exit code 2; nothing has started, so no run folder exists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hydra.core.config_loader import ConfigLoader
from omegaconf import DictConfig, open_dict

from realcli.util.errors import RealcliError

__all__ = ["SweepRefused", "check_jobs", "job_label"]

_LABEL_GROUPS = ("harness", "mode", "model")
_CHECKED_ROOTS = frozenset({"harness", "mode", "model", "sandbox", "judge", "protocol", "paths"})
_CHECKED_ROOTS |= {"experiment", "local"}
"""Overrides under these roots can change what a job is checked for (its harness, mode, names,
options, agents dir); jobs that differ only in others (``seed``, ``task``, ``suite``...) are
composed once."""


def _checked(override: str) -> bool:
    root = override.lstrip("+~").split("=", 1)[0].split("@", 1)[0].split(".", 1)[0]
    return root in _CHECKED_ROOTS or root.startswith("hydra")


class SweepRefused(RealcliError):
    """Jobs of a sweep that cannot run: :attr:`lines`, one per refused job."""

    def __init__(self, lines: Sequence[str], jobs: int) -> None:
        self.lines = tuple(lines)
        self.summary = f"{len(self.lines)} refusal(s) in {jobs} job(s); no run started"
        super().__init__(
            "command line",
            "--multirun" if jobs > 1 else None,
            f"{self.summary}:\n" + "\n".join(lines),
            "change or drop the refused combinations (each line says why)",
        )


def job_label(num: int, overrides: Sequence[str], choices: Mapping[str, object]) -> str:
    """``job 3 (harness=openhands mode=gui_only)``: its number (Hydra's, from 0) and the
    groups a reader tells jobs apart by, plus any other override of the job."""
    shown = [f"{g}={choices[g]}" for g in _LABEL_GROUPS if choices.get(g) is not None]
    keys = {g for g in _LABEL_GROUPS if choices.get(g) is not None}
    shown += [o for o in overrides if o.split("=", 1)[0].lstrip("+~") not in keys]
    return f"job {num} ({' '.join(shown)})"


def check_jobs(config: DictConfig, jobs: Sequence[Sequence[str]]) -> None:
    """Compose, validate and check every job (``config``: the multirun config, Hydra's global
    instance still initialised). Raises :class:`SweepRefused` naming each refused job."""
    from hydra.core.global_hydra import GlobalHydra

    loader = GlobalHydra.instance().config_loader()
    lines: list[str] = []
    seen: dict[tuple[str, ...], tuple[dict[str, object], list[str]]] = {}
    for num, overrides in enumerate(jobs):
        key = tuple(o for o in overrides if _checked(o))
        if key not in seen:
            seen[key] = _check_one(loader, config, list(overrides))
        choices, problems = seen[key]
        label = job_label(num, overrides, choices)
        lines += [f"{label}: {problem}" for problem in problems]
    if lines:
        raise SweepRefused(lines, len(jobs))


def _check_one(
    loader: ConfigLoader, config: DictConfig, overrides: list[str]
) -> tuple[dict[str, object], list[str]]:
    """One job's group choices and why it is refused (empty: it can run)."""
    from realcli.runner.app import spec_from_cfg
    from realcli.runner.capabilities import refusals

    choices: dict[str, object] = {}
    try:
        job_cfg = loader.load_sweep_config(config, overrides)
        choices = {str(k): v for k, v in job_cfg.hydra.runtime.choices.items()}
        with open_dict(job_cfg):
            del job_cfg["hydra"]
        return choices, refusals(spec_from_cfg(job_cfg, choices))
    except RealcliError as exc:
        return choices, [str(exc)]
    except Exception as exc:  # Hydra/OmegaConf: the job would fail the same way
        first = str(exc).strip().splitlines()
        return choices, [f"{type(exc).__name__}: {first[0] if first else ''}"]
