"""Fixtures for harness tests: a real ledger, a real gateway on a Unix socket, a real
bubblewrap sandbox, and a helper that runs one agent session end to end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import Session, write_script

from realcli.gateway import Backend, Gateway, ScriptedBackend
from realcli.harness import BuiltinHarness, Harness, HarnessContext, ModelCallRelay
from realcli.ledger import LedgerWriter, read_ledger
from realcli.sandbox import LocalSandbox, SandboxOptions
from realcli.schema.events import HeaderEvent
from realcli.schema.run_spec import HarnessSpec
from realcli.util.redact import Redactor

PORT = 18766


@pytest.fixture
def run_session(tmp_path: Path, socket_dir: Path) -> Callable[..., Session]:
    """Run one session: ``run_session(backend or actions, harness=..., timeout_s=...)``."""

    def run(
        agent: Backend | list[dict[str, Any]],
        *,
        harness: Harness | None = None,
        timeout_s: float = 60.0,
        instruction: str = "Do the task.",
        redactor: Redactor | None = None,
        **spec: Any,
    ) -> Session:
        workspace = tmp_path / "workspace"
        workspace.mkdir(exist_ok=True)
        backend = (
            agent
            if isinstance(agent, Backend)
            else ScriptedBackend(write_script(tmp_path / "agent.jsonl", agent))
        )
        redactor = redactor or Redactor(env={})
        header = HeaderEvent(
            seq=0,
            realcli_version="test",
            git_sha=None,
            run_key="k",
            experiment="test",
            task_id="t",
            task_digest="d",
            spec={},
            host={},
        )
        ledger = LedgerWriter.create(tmp_path / "ledger.jsonl", header, redactor)
        harness = harness or BuiltinHarness(
            HarnessSpec(name="builtin", kind="builtin", version="1", **spec)
        )
        relay = ModelCallRelay()
        with ledger, Gateway(backend, relay, model_id="realcli/test") as gw:
            gw.start(socket_dir / "gw.sock")
            sandbox = LocalSandbox(
                SandboxOptions(
                    workspace=workspace,
                    memory_mb=2048,
                    gateway_socket=socket_dir / "gw.sock",
                    gateway_port=PORT,
                )
            )
            ctx = HarnessContext(
                sandbox=sandbox,
                ledger=ledger,
                native_dir=tmp_path / "native",
                instruction=instruction,
                model_id="realcli/test",
                gateway_port=PORT,
                workdir="/app",
                timeout_s=timeout_s,
                redactor=redactor,
                model_calls=relay,
            )
            outcome = harness.run(ctx)
        contents = read_ledger(tmp_path / "ledger.jsonl")
        assert contents.problems == [] or all("run_end" not in p for p in contents.problems)
        return Session(outcome, contents.events, workspace, tmp_path / "native")

    return run
