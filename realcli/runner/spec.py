"""Validate a composed Hydra config into a RunSpec, once; derive run keys."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.catalog import TaskBundle
from realcli.schema.run_spec import CONFIG_GROUPS, RunSpec
from realcli.util.errors import ConfigError
from realcli.util.hashing import sha256_bytes, sha256_json
from realcli.util.validation import describe_validation_error

__all__ = ["RUN_KEY_CHARS", "run_key", "validate_spec"]

RUN_KEY_CHARS = 16


def validate_spec(raw: Mapping[str, Any], choices: Mapping[str, str | None]) -> RunSpec:
    """``raw`` is the resolved config (a plain dict); ``choices`` maps group -> chosen option,
    so an error can name the YAML file the bad key came from."""
    try:
        spec = RunSpec.model_validate(dict(raw))
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, RunSpec)
        group = field.split(".", 1)[0]
        if group in CONFIG_GROUPS and choices.get(group):
            where = f"conf/{group}/{choices[group]}.yaml"
        else:
            where = "conf/config.yaml"
        raise ConfigError(where, field, problem, fix) from exc
    from realcli.runner.capabilities import check_names

    check_names(spec, choices)  # registered names, the harness's typed options
    return spec


def run_key(spec: RunSpec, task: TaskBundle) -> str:
    """Content hash of what the run is: the spec's identity, the task id and its digest."""
    identity: dict[str, object] = {
        "spec": spec.identity(),
        "task_id": task.id,
        "task_digest": task.digest,
    }
    if spec.model.script is not None:  # a scripted agent is what its script says, not its path
        script = Path(spec.model.script)
        identity["script_digest"] = sha256_bytes(script.read_bytes()) if script.is_file() else None
    return hashlib.sha256(sha256_json(identity).encode()).hexdigest()[:RUN_KEY_CHARS]
