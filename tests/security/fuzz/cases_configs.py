"""Corpus cases: bad config files (YAML syntax, tabs, undecodable, folders), out-of-bounds
numeric limits, unusable paths and malformed command-line overrides."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.security.fuzz.corpus import Case, Scratch

RUN = ("run", "model=noop", "paths.runs_dir={runs}")


def conf_file(rel: str, data: bytes | None) -> Callable[[Scratch], None]:
    """Write ``{tmp}/conf/<rel>`` (None: make it a folder), for ``--config-dir {tmp}/conf``."""

    def build(scratch: Scratch) -> None:
        path = scratch.root / "conf" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            path.mkdir()
        else:
            path.write_bytes(data)

    return build


def yaml_case(case_id: str, rel: str, data: bytes | None, *expect: str, select: str = "") -> Case:
    group, _, name = rel.rpartition("/")
    override = select or (f"{group}={name.removesuffix('.yaml')}" if group != "local" else "")
    argv = ("run", "--config-dir", "{tmp}/conf", *RUN[1:], *filter(None, [override]))
    return Case(
        f"yaml-{case_id}",
        argv,
        (f"{{tmp}}/conf/{rel}", *expect, "fix:"),
        build=conf_file(rel, data),
    )


G = b"# @package _global_\n"
YAML_CASES: list[Case] = [
    yaml_case(
        "experiment-unclosed-list", "experiment/bad.yaml", G + b"seed: [1,\n", "bad.yaml:3", "YAML"
    ),
    yaml_case("experiment-tab", "experiment/tab.yaml", G + b"seed:\t1\n", "tab.yaml:2", "tabs"),
    yaml_case(
        "experiment-tab-indent",
        "experiment/tab2.yaml",
        G + b"sandbox:\n\tmemory_mb: 1\n",
        "tab2.yaml:3",
        "tabs",
    ),
    yaml_case(
        "experiment-unclosed-quote",
        "experiment/q.yaml",
        G + b'experiment_name: "abc\n',
        "q.yaml",
        "YAML",
    ),
    yaml_case(
        "experiment-bad-indent",
        "experiment/i.yaml",
        G + b"sandbox:\n  memory_mb: 1\n gateway_port: 2\n",
        "i.yaml:4",
        "YAML",
    ),
    yaml_case(
        "experiment-binary", "experiment/bin.yaml", b"\xff\xfe\x00\x81garbage", "bin.yaml", "UTF-8"
    ),
    yaml_case("experiment-folder", "experiment/dir.yaml", None, "dir.yaml", "not a file"),
    yaml_case("experiment-colon-mess", "experiment/c.yaml", G + b"a: b: c\n", "c.yaml:2", "YAML"),
    yaml_case(
        "experiment-flow-map",
        "experiment/m.yaml",
        G + b"sandbox: {memory_mb: 1\n",
        "m.yaml",
        "YAML",
    ),
    yaml_case("local-syntax", "local/default.yaml", G + b"sandbox: [\n", "default.yaml", "YAML"),
    yaml_case(
        "local-tab",
        "local/default.yaml",
        G + b"sandbox:\n\tmemory_mb: 8192\n",
        "default.yaml:3",
        "tabs",
    ),
    yaml_case(
        "model-syntax",
        "model/broken.yaml",
        b"name: broken\nbackend: [noop\n",
        "broken.yaml",
        "YAML",
    ),
    yaml_case(
        "harness-tab",
        "harness/tabbed.yaml",
        b"name: tabbed\n\tkind: builtin\n",
        "tabbed.yaml",
        "YAML",
    ),
    yaml_case(
        "sandbox-binary", "sandbox/bin.yaml", b"kind: local\n\x80\x81\n", "bin.yaml", "UTF-8"
    ),
    Case(
        "config-dir-missing",
        ("run", "--config-dir", "{tmp}/no-such-conf", *RUN[1:]),
        ("--config-dir", "no-such-conf", "fix:"),
    ),
]


def bound(key: str, value: str, *expect: str) -> Case:
    """``++key=value``: set even where the chosen YAML file leaves the key at its default."""
    return Case(f"bound-{key}={value}"[:60], (*RUN, f"++{key}={value}"), (key, *expect, "fix:"))


BOUND_CASES: list[Case] = [
    bound("sandbox.memory_mb", "1e17", "conf/sandbox/local.yaml", "from 64 to"),
    bound("sandbox.memory_mb", "100000000000000000", "from 64 to"),
    bound("sandbox.memory_mb", "-1", "from 64 to"),
    bound("sandbox.cpu_seconds", "1e12", "from 1 to"),
    bound("sandbox.agent_timeout_s", "inf", "to 604800"),
    bound("sandbox.agent_timeout_s", "nan", "to 604800"),
    bound("sandbox.gateway_port", "70000", "from 1024 to 65535"),
    bound("harness.max_turns", "1000000000", "from 1 to"),
    bound("harness.tool_timeout_s", "1e300", "to 86400"),
    bound("harness.output_limit", "1000000000000", "from 256 to"),
    bound("protocol.rounds", "1000000", "from 1 to 100"),
    bound("protocol.feedback_chars", "1000000000000", "from 200 to"),
    bound("protocol.max_sessions", "1000000", "from 1 to 1000"),
    bound("budget.run_usd", "1e308", "to 1000000"),
    bound("budget.sweep_usd", "-5", "to 1000000"),
    bound("progress.grid", "1000000000", "from 0 to 10000"),
    bound("model.latency_ms", "1e12", "from 0 to"),
    bound("model.pricing.input_per_mtok", "1e30", "from 0 to"),
    bound("seed", "-1", "from 0 to"),
    bound("seed", "100000000000000000000000", "from 0 to"),
]


def path_case(
    key: str, value: str, *expect: str, build: Callable[[Scratch], None] | None = None
) -> Case:
    argv: tuple[str, ...] = ("run", "model=noop", f"paths.{key}={value}")
    if key != "runs_dir":
        argv += ("paths.runs_dir={runs}",)
    return Case(
        f"path-{key}-{Path(value).name or 'root'}",
        argv,
        (f"paths.{key}", *expect, "fix:"),
        build=build,
    )


def _file(scratch: Scratch) -> None:
    (scratch.root / "afile").write_text("x\n")


PATH_CASES: list[Case] = [
    path_case("runs_dir", "/proc/x", "/proc/x", "conf/paths/default.yaml"),
    path_case("runs_dir", "/dev/null", "/dev/null"),
    path_case("runs_dir", "{tmp}/afile/runs", "afile", build=_file),
    path_case("runs_dir", "/sys/kernel/realcli", "/sys/kernel"),
    path_case("cache_dir", "/proc/cache", "/proc/cache"),
    path_case("tasks_dir", "{tmp}/afile", "afile", build=_file),
    path_case("tasks_dir", "{tmp}/none", "not a folder"),
]


def override(case_id: str, arg: str, *expect: str) -> Case:
    return Case(f"override-{case_id}", (*RUN, arg), (*expect, "fix:"))


OVERRIDE_CASES: list[Case] = [
    override("unclosed-list", "seed=[1,", "command line", "seed=[1,"),
    override("unclosed-map", "sandbox={memory_mb:", "command line", "sandbox={memory_mb:"),
    override("unclosed-quote", "experiment_name='abc", "command line", "experiment_name"),
    override("bad-interpolation", "experiment_name=${oc.env:", "command line", "experiment_name"),
    override("unknown-key", "sedd=1", "command line", "sedd", "seed"),
    override("unknown-nested", "sandbox.memroy_mb=1", "sandbox.memroy_mb", "memory_mb"),
    override("unknown-group-option", "model=nope", "command line", "model=nope"),
    override("bad-type", "seed=abc", "seed", "integer"),
    override("experiment-name-path", "experiment_name=../../x", "experiment_name", "pattern"),
]
