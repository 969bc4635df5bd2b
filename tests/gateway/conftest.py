"""Fixtures for gateway tests: a started gateway on a real Unix socket, and request helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from realcli.gateway import Backend, Gateway, NoopBackend
from realcli.schema.events import ModelCallEvent


@pytest.fixture
def events() -> list[ModelCallEvent]:
    return []


@pytest.fixture
def start_gateway(
    socket_dir: Path, events: list[ModelCallEvent]
) -> Iterator[Callable[..., Gateway]]:
    started: list[Gateway] = []

    def start(backend: Backend | None = None, **kw: Any) -> Gateway:
        gw = Gateway(backend or NoopBackend(), events.append, model_id="test-model")
        started.append(gw.start(socket_dir / "gw.sock", **kw))
        return gw

    yield start
    for gw in started:
        gw.stop()
