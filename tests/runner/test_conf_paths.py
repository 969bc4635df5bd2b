"""The shipped config groups come from the package; a user's own config dir
(``REALCLI_CONFIG_DIR`` or ``--config-dir``) composes over them."""

from __future__ import annotations

from pathlib import Path

import pytest

import realcli
from realcli.runner.app import CONF_DIR, default_paths
from realcli.runner.cli_run import check_group_overrides, config_dirs
from realcli.runner.conf_paths import USER_CONFIG_ENV, search_path_override, user_config_dirs
from realcli.runner.precheck import precheck
from realcli.util.errors import ConfigError

REPO = Path(realcli.__file__).resolve().parents[1]


@pytest.fixture
def user_conf(tmp_path: Path) -> Path:
    conf = tmp_path / "my_conf"
    (conf / "local").mkdir(parents=True)
    (conf / "model").mkdir()
    (conf / "local" / "default.yaml").write_text(
        f"# @package _global_\npaths:\n  runs_dir: {tmp_path / 'elsewhere'}\n"
    )
    (conf / "model" / "mine.yaml").write_text("defaults:\n  - noop\n  - _self_\nname: mine\n")
    (conf / "model" / "noop.yaml").write_text("name: shadowed\nbackend: noop\n")
    return conf


def test_the_shipped_groups_are_the_package_realcli_conf() -> None:
    assert (CONF_DIR / "config.yaml").is_file()
    assert (CONF_DIR / "__init__.py").is_file()
    # the editable install maps the package onto the repo's conf/ (pyproject package-dir)
    assert CONF_DIR == REPO / "conf"


def test_user_config_dir_from_the_environment_composes_over_the_shipped_groups(
    user_conf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(USER_CONFIG_ENV, f"{user_conf}:{user_conf}")
    assert user_config_dirs() == [user_conf, user_conf]
    assert config_dirs(["model=mine"]) == [user_conf, user_conf, CONF_DIR]
    assert search_path_override([user_conf]) == [f"hydra.searchpath=[file://{user_conf}]"]
    # local/default.yaml of your dir reaches the plain commands' paths too
    assert default_paths().runs_dir == str(tmp_path / "elsewhere")
    check_group_overrides(["model=mine"])  # your own option is an option
    with pytest.raises(ConfigError, match="no option 'theirs'"):
        check_group_overrides(["model=theirs"])


def test_your_option_composes_and_a_shipped_name_stays_shipped(
    user_conf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from realcli.runner.precheck import _compose

    monkeypatch.setenv(USER_CONFIG_ENV, str(user_conf))
    cfg, choices = _compose(["model=mine"], config_dirs([]))
    assert (cfg.model.name, cfg.model.backend, choices["model"]) == ("mine", "noop", "mine")
    assert cfg.paths.runs_dir == str(tmp_path / "elsewhere")
    cfg, _ = _compose(["model=noop"], config_dirs([]))
    assert cfg.model.name == "noop"  # Hydra searches the shipped groups first


def test_a_missing_user_config_dir_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(USER_CONFIG_ENV, str(tmp_path / "nope"))
    with pytest.raises(ConfigError) as err:
        precheck(["model=noop"], config_dirs([]))
    assert err.value.where == f"${USER_CONFIG_ENV}"
    assert f"{tmp_path / 'nope'} is not a folder" in err.value.problem
    assert USER_CONFIG_ENV in err.value.fix
