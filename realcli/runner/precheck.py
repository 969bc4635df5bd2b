"""``realcli run``'s checks before Hydra starts a job: the overrides parse, every YAML file the
composition reads is valid, the composed config validates and its paths are usable. Each
failure is one :class:`ConfigError` naming the file (and line), the field and the fix, never a
Hydra traceback."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import yaml
from hydra._internal.hydra import Hydra
from hydra._internal.utils import create_config_search_path
from hydra.core.config_search_path import SearchPathQuery
from hydra.core.global_hydra import GlobalHydra
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.errors import HydraException, OverrideParseException
from hydra.types import RunMode
from omegaconf import DictConfig, open_dict
from omegaconf.errors import OmegaConfBaseException

from realcli.schema.run_spec import RunSpec
from realcli.util.errors import ConfigError

__all__ = ["check_paths", "check_yaml_file", "precheck"]

_VALUE_OPTIONS = frozenset(
    {"--config-dir", "-cd", "--config-name", "-cn", "--config-path", "-cp", "--package", "-p"}
)
_SKIP_OPTIONS = frozenset(
    {"--help", "-h", "--hydra-help", "--cfg", "-c", "--info", "-i", "--shell-completion", "-sc"}
)
_GRAMMAR = "https://hydra.cc/docs/advanced/override_grammar/basic/"


def _overrides(argv: Sequence[str]) -> list[str] | None:
    """The overrides on the command line, or None when it asks for help or info, not a run."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _SKIP_OPTIONS or arg.split("=", 1)[0] in _SKIP_OPTIONS:
            return None
        elif arg in _VALUE_OPTIONS:
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out


def _first_job(overrides: list[str]) -> list[str]:
    """The overrides of the first job of a sweep (``a=1,2`` -> ``a=1``), each parsed alone so a
    grammar error names its own argument."""
    parser = OverridesParser.create()
    first = []
    for arg in overrides:
        try:
            override = parser.parse_override(arg)
        except (OverrideParseException, HydraException) as exc:
            raise ConfigError(
                "command line",
                arg,
                f"not a valid override ({str(exc).splitlines()[0]})",
                f"write key=value and quote values with special characters, e.g. "
                f"'key=\"a b\"' (see {_GRAMMAR})",
            ) from exc
        if override.is_sweep_override():
            value = next(iter(override.sweep_string_iterator()), "")
            first.append(f"{override.get_key_element()}={value}")
        else:
            first.append(arg)
    return first


def check_yaml_file(path: Path) -> None:
    """Raise :class:`ConfigError` naming ``path`` and the line when it is not a YAML file."""
    if not path.is_file():
        raise ConfigError(str(path), None, "is not a file", "make it a YAML file or remove it")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            str(path), None, f"not UTF-8 text (byte {exc.start})", "save it as UTF-8 YAML"
        ) from exc
    try:
        yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = exc.problem or exc.context or "syntax error"
        fix = (
            "indent with spaces: YAML does not allow tabs"
            if "\\t" in problem or "tab" in problem
            else "fix the YAML syntax on that line (brackets, quotes, indentation, ':' after keys)"
        )
        raise ConfigError(f"{path}{line}", None, f"not valid YAML ({problem})", fix) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(str(path), None, f"not valid YAML ({exc})", "fix the YAML") from exc


def _candidates(dirs: Sequence[Path], overrides: Sequence[str]) -> list[Path]:
    """Config files a composition may read: the ones the overrides select first, then all."""
    named = []
    for arg in overrides:
        key, _, value = arg.partition("=")
        group = key.lstrip("+~").split("@", 1)[0]
        named += [d / group / f"{v.strip()}.yaml" for d in dirs for v in value.split(",")]
    everything = [p for d in dirs for p in sorted(d.rglob("*.yaml"))]
    return [p for p in dict.fromkeys([*named, *everything]) if p.exists() or p.is_symlink()]


def _same_error(err: ConfigError, exc: BaseException) -> bool:
    """``err`` (from re-reading one file) is the YAML error Hydra hit while composing."""
    if not isinstance(exc, yaml.MarkedYAMLError):
        return True
    mark = exc.problem_mark or exc.context_mark
    line = f":{mark.line + 1}" if mark is not None else ""
    return err.where.endswith(line) and str(exc.problem or exc.context) in err.problem


def _bad_yaml(dirs: Sequence[Path], overrides: Sequence[str], exc: BaseException) -> ConfigError:
    """The config file behind a composition error: the file (first among those the overrides
    select) that fails the way Hydra failed, or a one-line error from Hydra's message."""
    for path in _candidates(dirs, overrides):
        try:
            check_yaml_file(path)
        except ConfigError as err:
            if _same_error(err, exc):
                return err
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    message = lines[0] if lines else type(exc).__name__
    fix = " ".join(lines[1:]) or (
        "check the overrides and the config files they select (`realcli run --info` lists "
        "the config search path)"
    )
    return ConfigError("command line", None, message, fix)


def _compose(
    overrides: list[str], dirs: Sequence[Path], *, sweep: bool = False
) -> tuple[DictConfig, dict[str, str]]:
    """The config Hydra composes for the first job (the shipped groups, then the ``-cd`` and
    ``$REALCLI_CONFIG_DIR`` dirs in order, as Hydra searches them), and its group choices.
    ``sweep``: compose the multirun config from the sweep's own overrides and check every job
    of it (:func:`~realcli.runner.sweep_check.check_jobs`) while Hydra is set up."""
    *extra, conf_dir = dirs
    search_path = create_config_search_path(str(conf_dir))
    for folder in extra:
        if not folder.is_dir():
            raise ConfigError(
                "command line",
                "--config-dir",
                f"{folder} is not a folder",
                "pass an existing folder of config groups (e.g. one holding experiment/)",
            )
        search_path.prepend(
            provider="command-line",
            path=f"file://{folder.resolve()}",
            anchor=SearchPathQuery(provider="schema"),
        )
    GlobalHydra.instance().clear()
    try:
        hydra = Hydra.create_main_hydra2(task_name="realcli", config_search_path=search_path)
        cfg = hydra.compose_config(
            config_name="config",
            overrides=overrides,
            run_mode=RunMode.MULTIRUN if sweep else RunMode.RUN,
            with_log_configuration=False,
        )
        if sweep:
            _check_sweep(cfg)
        choices = {str(k): str(v) for k, v in cfg.hydra.runtime.choices.items()}
        with open_dict(cfg):
            del cfg["hydra"]
    except (HydraException, OmegaConfBaseException, yaml.YAMLError, UnicodeError, OSError) as exc:
        raise _bad_yaml(dirs, overrides, exc) from exc
    finally:
        GlobalHydra.instance().clear()
    return cfg, choices


def _check_sweep(cfg: DictConfig) -> None:
    from realcli.runner.sweep_check import check_jobs
    from realcli.runner.sweep_plan import job_overrides

    jobs = job_overrides(cfg)
    if jobs is not None:  # another sweeper chooses jobs as it goes: each is checked at its start
        check_jobs(cfg, jobs)


def _writable(path: Path, key: str, choice: str | None) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        usable = os.access(path, os.W_OK | os.X_OK)
        problem = f"{path} is not writable"
    except OSError as exc:
        usable, problem = False, f"cannot create {path} ({exc.strerror})"
    if not usable:
        env = f"REALCLI_{key.upper()}"
        raise ConfigError(
            f"conf/paths/{choice or 'default'}.yaml",
            f"paths.{key}",
            problem,
            f"set paths.{key}=DIR (or {env}) to a folder you can write",
        )


def check_paths(spec: RunSpec, choice: str | None = None) -> None:
    """The folders a run writes can be created and written; the tasks dir is a folder."""
    _writable(Path(spec.paths.runs_dir), "runs_dir", choice)
    _writable(Path(spec.paths.cache_dir), "cache_dir", choice)
    tasks = Path(spec.paths.tasks_dir)
    if not tasks.is_dir():
        raise ConfigError(
            f"conf/paths/{choice or 'default'}.yaml",
            "paths.tasks_dir",
            f"{tasks} is not a folder",
            "set paths.tasks_dir=DIR (or REALCLI_TASKS_DIR) to the folder holding the bundles",
        )


def precheck(argv: Sequence[str], dirs: Sequence[Path]) -> None:
    """Raise :class:`ConfigError` for anything that would otherwise make Hydra (or the job)
    fail with a traceback: see the module docstring."""
    from realcli.runner.app import spec_from_cfg

    overrides = _overrides(argv)
    if overrides is None:
        return
    first = _first_job(overrides)  # a grammar error names its argument
    if any(a in ("--multirun", "-m") for a in argv):
        _compose(overrides, dirs, sweep=True)  # every job: names, options, capabilities
    cfg, choices = _compose(first, dirs)
    try:
        spec = spec_from_cfg(cfg, choices)
    except OmegaConfBaseException as exc:
        raise ConfigError(
            "command line",
            str(getattr(exc, "full_key", "") or "") or None,
            str(exc).splitlines()[0],
            "check the interpolations (${...}) and overrides",
        ) from exc
    check_paths(spec, choices.get("paths"))
    from realcli.catalog import select_tasks
    from realcli.runner.capabilities import refusals
    from realcli.runner.sweep_check import SweepRefused, job_label

    select_tasks(Path(spec.paths.tasks_dir), spec.suite, spec.task)  # bad bundles fail here
    problems = refusals(spec)  # a sweep's jobs were checked above (this is its first)
    if problems:
        label = job_label(0, first, choices)
        raise SweepRefused([f"{label}: {p}" for p in problems], 1)
