"""out/findings.json: the values read from the capture in Wireshark."""

from __future__ import annotations

import json
from pathlib import Path


def load():
    path = Path("out/findings.json")
    assert path.is_file(), "out/findings.json is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def test_port_path_draining():
    f = load()
    assert f.get("port") == 8088
    assert f.get("health_path") == "/healthz"
    assert f.get("draining") == ["10.40.1.13"]


def test_rst_count():
    assert load().get("rst_count") == 7
