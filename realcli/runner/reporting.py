"""``realcli report [--experiment NAME ...] [report.KEY=VALUE ...]``: compose the ``report``
config group, validate it into a :class:`ReportSpec`, and build the report in a subprocess.

The ``report`` group (``conf/report/default.yaml``) is composed by Hydra from the same ``conf/``
tree as ``realcli run`` (plus any ``--config-dir``), but it is not part of a run: it is added to
the defaults list for this command only (``+report=NAME``). The option sugar (``--experiment``,
``--task``, ... ``--figure``) replaces the matching ``filters`` / ``figures`` list after
composition. The resolved spec is handed to ``python -m analysis report --spec FILE`` (realcli
never imports ``analysis``), which keeps it as ``<out>/report_spec.json``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from realcli.schema.report import ReportSpec
from realcli.util.errors import ConfigError, RealcliError
from realcli.util.validation import describe_validation_error, did_you_mean

__all__ = ["FILTER_OPTIONS", "compose_report", "report"]

FILTER_OPTIONS = {
    "experiment": "experiments",
    "task": "tasks",
    "kind": "kinds",
    "model": "models",
    "harness": "harnesses",
    "mode": "modes",
    "protocol": "protocols",
    "judge": "judges",
}
"""``realcli report --<option> VALUE`` (repeatable) -> the ``report.filters`` list it sets."""


def _check_overrides(overrides: Sequence[str]) -> tuple[str, list[str]]:
    """(the report option chosen, the overrides Hydra gets); only ``report`` keys pass."""
    choice = "default"
    rest: list[str] = []
    for arg in overrides:
        if "=" not in arg:
            raise ConfigError(
                "command line",
                arg,
                "not an override",
                "write report.KEY=VALUE (e.g. report.bootstrap.resamples=500) or report=NAME",
            )
        key, value = arg.split("=", 1)
        bare = key.lstrip("+~")
        if bare == "report":
            choice = value
            continue
        if not bare.startswith("report."):
            raise ConfigError(
                "command line",
                arg,
                "realcli report takes report overrides only",
                "write report.KEY=VALUE (the keys of conf/report/default.yaml) or report=NAME",
            )
        rest.append(arg)
    return choice, rest


def compose_report(
    overrides: Sequence[str] = (),
    *,
    filters: Mapping[str, Sequence[str]] | None = None,
    figures: Sequence[str] = (),
    config_dirs: Sequence[str] = (),
) -> ReportSpec:
    """The ``report`` group composed with ``overrides``, the option sugar applied, validated.

    ``filters``: ``ReportFilters`` field -> values from the command line (replacing the
    config's list when non-empty); ``figures``: likewise for ``figures``.
    """
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf import OmegaConf

    from realcli.runner.app import CONF_DIR, user_config_dirs

    choice, rest = _check_overrides(overrides)
    dirs = [*(Path(d).resolve() for d in config_dirs), *user_config_dirs()]
    if not any((d / "report" / f"{choice}.yaml").is_file() for d in [*dirs, CONF_DIR]):
        known = sorted({p.stem for d in [*dirs, CONF_DIR] for p in (d / "report").glob("*.yaml")})
        raise ConfigError(
            "command line",
            f"report={choice}",
            f"no option {choice!r} in config group 'report'",
            f"use one of {', '.join(known) or '(none)'}, or add conf/report/{choice}.yaml",
        )
    search = [f"file://{d}" for d in dirs]
    extra = [f"hydra.searchpath=[{','.join(search)}]"] if search else []
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            cfg = compose(config_name="config", overrides=[f"+report={choice}", *rest, *extra])
            raw = OmegaConf.to_container(cfg.report, resolve=True, throw_on_missing=True)
    except HydraException as exc:
        first = str(exc).splitlines()[0]
        unknown = re.match(r"Could not override '(report\.[^']+)'", first)
        if unknown:
            key = unknown.group(1)
            raise ConfigError("command line", key, "unknown key", _allowed_keys(key)) from None
        raise ConfigError(
            "command line",
            None,
            first,
            "check the report overrides against conf/report/default.yaml (docs/config.md)",
        ) from None
    finally:
        GlobalHydra.instance().clear()
    if not isinstance(raw, dict):
        raise ConfigError(
            f"conf/report/{choice}.yaml", None, "is not a mapping", "write report keys in it"
        )
    doc: dict[str, Any] = {str(k): v for k, v in raw.items()}
    for field, values in (filters or {}).items():
        if values:
            current = doc.get("filters")
            doc["filters"] = {**(current if isinstance(current, dict) else {}), field: values}
    if figures:
        doc["figures"] = list(figures)
    try:
        return ReportSpec.model_validate(doc)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, ReportSpec, "report.")
        given = [a.split("=", 1)[0].lstrip("+~") for a in rest]
        given += [f"report.filters.{f}" for f, v in (filters or {}).items() if v]
        given += ["report.figures"] if figures else []
        from_cli = any(field == g or field.startswith(g + ".") for g in given)
        where = "command line" if from_cli else f"conf/report/{choice}.yaml"
        raise ConfigError(where, field, problem, fix) from None


def _allowed_keys(key: str) -> str:
    """The keys beside the last part of ``report.a.b`` (those of the model that owns it)."""
    model: type[BaseModel] = ReportSpec
    for part in key.split(".")[1:-1]:
        info = model.model_fields.get(part)
        ann = info.annotation if info else None
        if not (isinstance(ann, type) and issubclass(ann, BaseModel)):
            break
        model = ann
    prefix, last = key.rsplit(".", 1)
    names = sorted(model.model_fields)
    hint = did_you_mean(last, names)
    return f"{hint}allowed keys: {', '.join(f'{prefix}.{name}' for name in names)}"


def report(warehouse: Path, out: Path, spec: ReportSpec) -> int:
    """Build the report of ``spec`` in a subprocess (``python -m analysis report --spec``).

    The spec goes through a temporary file in ``out``; the report writes
    ``out/report_spec.json`` itself once its filters held, so a report that could not be built
    never leaves a spec that did not make it.
    """
    if not warehouse.is_file():
        raise RealcliError(str(warehouse), None, "no warehouse", "run `realcli ingest` first")
    out.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=out, prefix=".report_spec-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(spec.model_dump_json(indent=1) + "\n")
        cmd = [
            sys.executable,
            "-m",
            "analysis",
            "report",
            "--warehouse",
            str(warehouse),
            "--out",
            str(out),
            "--spec",
            name,
        ]
        return subprocess.run(cmd, check=False).returncode
    finally:
        Path(name).unlink(missing_ok=True)
