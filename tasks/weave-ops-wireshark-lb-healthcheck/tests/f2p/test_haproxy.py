"""lb/haproxy.cfg after the fix: what the capture shows the nodes really do."""

from __future__ import annotations

import re
from pathlib import Path

SERVER = re.compile(r"^\s*server\s+(\S+)\s+(\d+\.\d+\.\d+\.\d+):(\d+)(.*)$")


def config() -> list[str]:
    text = Path("lb/haproxy.cfg").read_text(encoding="utf-8")
    return [line.split("#", 1)[0].rstrip() for line in text.splitlines()]


def servers() -> dict[str, tuple[int, list[str]]]:
    out = {}
    for line in config():
        m = SERVER.match(line)
        if m:
            out[m.group(2)] = (int(m.group(3)), m.group(4).split())
    return out


def test_servers_on_new_port():
    s = servers()
    assert set(s) == {"10.40.1.11", "10.40.1.12", "10.40.1.13"}, "keep all three servers"
    assert all(port == 8088 for port, _ in s.values()), s


def test_health_check_endpoint():
    checks = [line.split() for line in config() if line.strip().startswith("option httpchk")]
    assert checks and checks[0][2:] == ["GET", "/healthz"], checks


def test_draining_node_disabled():
    s = servers()
    assert "disabled" in s["10.40.1.13"][1]
    assert "disabled" not in s["10.40.1.11"][1] and "disabled" not in s["10.40.1.12"][1]
    assert all("check" in opts for _, opts in s.values())
