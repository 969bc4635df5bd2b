import re
from pathlib import Path

KEYS = ("incident", "resolution_code", "window", "failed_requests")


def _doc():
    p = Path("postmortem.md")
    assert p.is_file(), "postmortem.md is missing"
    return p.read_text(encoding="utf-8")


def _header():
    out = {}
    for line in _doc().splitlines():
        m = re.match(r"^\s*[*_`]*([A-Za-z_]+)[*_`]*\s*:\s*[*_`]*(.*?)[*_`]*\s*$", line)
        if m and m.group(1).lower() in KEYS and m.group(1).lower() not in out:
            out[m.group(1).lower()] = m.group(2).strip()
    return out


def test_incident_id():
    assert _header().get("incident") == "INC-2417"


def test_resolution_code():
    assert _header().get("resolution_code") == "RES-7QK4-M2XD"


def test_window_and_impact():
    h = _header()
    assert h.get("window") == "2024-06-03T02:14:00Z/2024-06-03T02:51:00Z"
    assert h.get("failed_requests", "").replace(",", "") == "3091"


def test_root_causes_named():
    text = _doc()
    low = text.lower()
    assert "9412" in text, "the new api address is not named"
    assert "/ready" in text, "the advertised health endpoint is not named"
    assert re.search(r"crlf|\^m|\\r|carriage return|line ending", low), "CRLF cause not named"
    assert re.search(r"too many clients|max_connections|connection budget|pool", low), (
        "database connection exhaustion not named"
    )
