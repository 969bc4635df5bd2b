"""The ``demo`` harness: realcli's builtin agent loop, preceded by a probe command the plugin
runs in the run's sandbox (its output kept as a native file of the run)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from realcli.harness.base import HarnessContext, HarnessOutcome
from realcli.harness.builtin import BuiltinHarness
from realcli.harness.options import HarnessOptions
from realcli.schema.events import SessionEvent

PROBE_FILE = "demo_probe.txt"


class DemoOptions(HarnessOptions):
    probe: str = Field("ls -1", description="shell command run in the workspace first")


class DemoHarness(BuiltinHarness):
    kind = "demo"
    MODES: ClassVar[frozenset[str]] = frozenset({"cli_only"})
    Options = DemoOptions

    def session(self, ctx: HarnessContext) -> SessionEvent:
        return super().session(ctx).model_copy(update={"harness": "demo"})

    def run(self, ctx: HarnessContext) -> HarnessOutcome:
        probe = str(self._options().get("probe", "ls -1"))
        result = ctx.sandbox.exec(["sh", "-c", probe], timeout_s=60)
        ctx.native_dir.mkdir(parents=True, exist_ok=True)
        (ctx.native_dir / PROBE_FILE).write_text(
            f"$ {probe}\nexit {result.returncode}\n{result.stdout}", encoding="utf-8"
        )
        return super().run(ctx)
