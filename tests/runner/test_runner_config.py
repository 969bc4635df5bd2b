"""Every config option and experiment composes and validates into a RunSpec; run keys are
content hashes of what a run is."""

from __future__ import annotations

from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from realcli.catalog import load_task
from realcli.runner.app import CONF_DIR
from realcli.runner.cli_run import check_group_overrides
from realcli.runner.spec import run_key, validate_spec
from realcli.schema.run_spec import CONFIG_GROUPS, RunSpec
from realcli.util.errors import ConfigError
from tests.conftest import TASKS

OPTIONS = [
    (group, path.stem)
    for group in CONFIG_GROUPS
    for path in sorted((CONF_DIR / group).glob("*.yaml"))
]
EXPERIMENTS = sorted(p.stem for p in (CONF_DIR / "experiment").glob("*.yaml"))


def _spec(overrides: list[str]) -> RunSpec:
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=overrides, return_hydra_config=False)
    raw = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(raw, dict)
    choices = {
        g: next((o.split("=")[1] for o in overrides if o.startswith(g + "=")), None)
        for g in CONFIG_GROUPS
    }
    return validate_spec({str(k): v for k, v in raw.items()}, choices)


@pytest.mark.parametrize(("group", "option"), OPTIONS)
def test_every_option_composes(group: str, option: str, tmp_path: Path) -> None:
    extra = (
        [f"model.script={tmp_path / 's.jsonl'}"] if (group, option) == ("model", "scripted") else []
    )
    spec = _spec([f"{group}={option}", *extra])
    assert getattr(spec, group) is not None


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_experiment_composes(experiment: str) -> None:
    spec = _spec([f"experiment={experiment}"])
    assert spec.experiment_name != "default"


def test_run_key_is_stable_and_tracks_identity() -> None:
    task = load_task(TASKS / "smoke-bugfix-intervals")
    base = _spec([])
    assert run_key(base, task) == run_key(_spec([]), task)
    assert run_key(base, task) != run_key(_spec(["seed=2"]), task)
    assert run_key(base, task) != run_key(_spec(["model=noop"]), task)
    other = load_task(TASKS / "smoke-feature-todo")
    assert run_key(base, task) != run_key(base, other)
    # where results go is not what a run is
    assert run_key(base, task) == run_key(_spec(["paths.runs_dir=/elsewhere"]), task)


def test_group_overrides_are_checked_before_hydra() -> None:
    check_group_overrides(["model=replay,noop", "seed=1,2", "hydra/launcher=joblib", "--cfg"])
    with pytest.raises(ConfigError, match=r"harness=claud.*use one of builtin"):
        check_group_overrides(["harness=claud"])
