"""evidence/resolved.png: a real screenshot of the Ops Console after the incident was resolved
(the resolved banner is drawn only once every check passes and the impact matches)."""

from pathlib import Path

from realcli_testkit import decode  # realcli's shared test helpers (docs/weave.md)

RESOLVED = (0x1B, 0x5E, 0x20)


def test_resolved_banner():
    p = Path("evidence/resolved.png")
    assert p.is_file(), "evidence/resolved.png is missing"
    w, h, rows = decode(str(p))
    assert (w, h) == (1024, 768), f"size {w}x{h}, want the full 1024x768 display"
    n = sum(1 for row in rows[50:100] for px in row if px == RESOLVED)
    assert n > 30000, f"no resolved banner ({n} banner pixels)"
