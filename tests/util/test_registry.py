"""The one registry type: names, order, errors, and the built-in registrations it serves."""

from __future__ import annotations

import pytest

from analysis.figures import all_figures
from realcli.gateway import BACKENDS
from realcli.gateway.toolsets import all_tables
from realcli.harness import HARNESSES
from realcli.harness.install import recipes
from realcli.registry import Registry
from realcli.sandbox import SANDBOXES
from realcli.util.errors import ConfigError


def test_order_lookup_and_errors() -> None:
    ordered: Registry[int] = Registry("widget", "realcli.test-widgets", ordered=True)
    ordered.register("zeta")(1)
    ordered.register("alpha")(2)
    assert ordered.values() == [1, 2] and len(ordered) == 2 and "zeta" in ordered
    by_name: Registry[int] = Registry("widget", "realcli.test-widgets")
    by_name.register("zeta")(1)
    by_name.register("alpha")(2)
    assert by_name.values() == [2, 1] and by_name["zeta"] == 1
    with pytest.raises(ConfigError, match=r"conf/x.yaml: x.kind: no widget 'zta' \(fix: did you"):
        by_name.get("zta", "conf/x.yaml", "x.kind")
    with pytest.raises(ValueError, match="registered twice"):
        by_name.register("zeta")(3)


def test_every_extension_point_holds_its_builtins() -> None:
    assert HARNESSES.names() == sorted(
        ["builtin", "codex", "claude_code", "openclaw", "hermes", "openhands", "command"]
    )
    assert SANDBOXES.names() == ["docker", "local"]
    assert BACKENDS.names() == ["noop", "recorded", "replay", "scripted", "upstream"]
    assert {name for name, _ in all_tables()} == {
        "codex", "claude_code", "openclaw", "hermes", "openhands"
    }  # fmt: skip
    # install recipes come from the harness classes (plus Node), in registry order
    assert list(recipes()) == ["node", "codex", "claude_code", "openclaw", "hermes", "openhands"]
    names = [f.NAME for f in all_figures()]
    assert names[0] == "longcli_main_table" and names[-1] == "coverage" and len(names) == 24
